//! `meshmate reproduce NAME`: each paper's experiment run on the simulator under the
//! paper's own conditions (its search, positions, measure and machine), every measure a
//! row with our figure beside the published one ([`super::papers`]). The command line and
//! the browser Lab both call [`reproduce`]; it reads its positions from the EPD text
//! they give it. `quick` is a smaller version (fewer positions, plies, processors) for
//! tests and lectures; each paper's notes say how its conditions depart from the paper's.

mod crayblitz;
mod pvsplit;
mod startech;
mod tdsab;
mod zugzwang;

use super::sim_suite::{simulate_suite, SimRow, SimSuite};
use crate::chess::{parse_epd_file, Epd};
use crate::machine::sim::{Preset, Sim};
use crate::net::Kind;
use crate::parallel::Algorithm;
use crate::search::{SearchOptions, SearchSettings};
use crate::tt::{Placement, TableSize};
use serde::Serialize;

/// The five papers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// Feldmann, Mysliwietz, Monien: Zugzwang's YBWC on T800 Transputers.
    Zugzwang,
    /// Hyatt: Cray Blitz's Dynamic Tree Splitting on a Cray C916.
    CrayBlitz,
    /// Kuszmaul: StarTech's Jamboree on a CM-5.
    StarTech,
    /// Kishimoto and Schaeffer: TDSAB on a Pentium III cluster.
    Tdsab,
    /// Hasan: PV-splitting on three unequal PCs.
    PvSplit,
}

impl Paper {
    /// Every paper, in the order the command lists them.
    pub const ALL: [Paper; 5] = [Paper::Zugzwang, Paper::CrayBlitz, Paper::StarTech, Paper::Tdsab, Paper::PvSplit];

    /// The name on the command line and in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Paper::Zugzwang => "zugzwang",
            Paper::CrayBlitz => "crayblitz",
            Paper::StarTech => "startech",
            Paper::Tdsab => "tdsab",
            Paper::PvSplit => "pvsplit",
        }
    }

    /// The paper called `name`, or an error listing the names.
    pub fn by_name(name: &str) -> Result<Paper, String> {
        Paper::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<&str> = Paper::ALL.iter().map(|p| p.name()).collect();
            format!("no paper called '{name}': choose one of {}", names.join(", "))
        })
    }

    /// The EPD file of ../shared/data holding the paper's positions.
    pub fn suite_file(self) -> &'static str {
        match self {
            Paper::CrayBlitz => "crayblitz-1993.epd",
            Paper::StarTech => "kaufman.epd",
            Paper::Zugzwang | Paper::Tdsab | Paper::PvSplit => "bratko-kopec.epd",
        }
    }

    /// The machine the paper's run is on, as the Lab's form sets it: its algorithm, preset,
    /// network, table and search depth, and the largest processor count of the run.
    pub fn machine(self, quick: bool) -> PaperMachine {
        let plan = self.plan(quick);
        // Every plan names a preset of the simulator (the tests check it).
        let own_net = Preset::by_name(plan.preset).map_or(Kind::Full, |p| p.net);
        PaperMachine {
            algorithm: plan.algorithms[0].name(),
            preset: plan.preset,
            net: plan.net.unwrap_or(own_net.name()),
            processors: plan.procs.iter().copied().max().unwrap_or(1),
            tt: plan.placement.name(),
            depth: plan.depth,
        }
    }

    /// What the experiment is, and how ours departs from the paper's conditions.
    pub fn notes(self, quick: bool) -> Vec<String> {
        let plan = self.plan(quick);
        let mut notes = vec![plan.title.to_string(), plan.describe()];
        notes.extend(match self {
            Paper::Zugzwang => zugzwang::NOTES,
            Paper::CrayBlitz => crayblitz::NOTES,
            Paper::StarTech => startech::NOTES,
            Paper::Tdsab => tdsab::NOTES,
            Paper::PvSplit => pvsplit::NOTES,
        }.iter().map(|n| n.to_string()));
        if quick {
            notes.push("--quick: fewer positions, plies and processors than the paper; the figures are comparable in kind, not equal".into());
        }
        notes
    }

    fn plan(self, quick: bool) -> Plan {
        match self {
            Paper::Zugzwang => zugzwang::plan(quick),
            Paper::CrayBlitz => crayblitz::plan(quick),
            Paper::StarTech => startech::plan(quick),
            Paper::Tdsab => tdsab::plan(quick),
            Paper::PvSplit => pvsplit::plan(quick),
        }
    }
}

/// A paper's machine in the Lab's terms ([`Paper::machine`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PaperMachine {
    /// The algorithm's name (the paper's first, where it compares several).
    pub algorithm: &'static str,
    /// The simulator preset of the paper's machine.
    pub preset: &'static str,
    /// Its network: the paper's, or the preset's own.
    pub net: &'static str,
    /// The largest processor count the run measures.
    pub processors: usize,
    /// Where the table lives (`Placement::name`).
    pub tt: &'static str,
    /// The depth its positions are searched to.
    pub depth: i32,
}

/// One measure: ours beside the paper's where it prints one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// `spe`, `mean_speedup`, `t20_ratio`, `reply_speedup`, `so_pct`...
    pub measure: &'static str,
    /// The processor count it was measured on (`None` for measures over several).
    pub p: Option<usize>,
    /// The position's id, or `None` for a measure over the suite.
    pub position: Option<String>,
    /// Our figure.
    pub ours: f64,
    /// The paper's, where it prints one.
    pub published: Option<f64>,
}

/// One paper's experiment: `{"paper": NAME, "rows": [...]}` as JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The paper's name.
    pub paper: &'static str,
    /// Every measure.
    pub rows: Vec<Row>,
}

/// Runs `paper`'s experiment (`quick`: the small version) on the positions of
/// `suite_text` (the paper's EPD file, [`Paper::suite_file`]); `seed` seeds the machines.
/// `progress` hears (searches done, searches in all) after each search.
pub fn reproduce(paper: Paper, suite_text: &str, quick: bool, seed: u64, progress: &mut dyn FnMut(usize, usize)) -> Result<Report, String> {
    let records = parse_epd_file(suite_text)?;
    let plan = paper.plan(quick);
    if records.len() < plan.positions.iter().copied().max().map_or(0, |i| i + 1) {
        return Err(format!("{} needs {} positions of {}; the text holds {}", paper.name(), plan.positions.len(), paper.suite_file(), records.len()));
    }
    let positions: Vec<Epd> = plan.positions.iter().map(|&i| records[i].clone()).collect();
    let mut runner = Runner { plan: &plan, seed, done: 0, total: plan.searches(), progress };
    let rows = match paper {
        Paper::Zugzwang => zugzwang::run(&mut runner, &positions)?,
        Paper::CrayBlitz => crayblitz::run(&mut runner, &positions)?,
        Paper::StarTech => startech::run(&mut runner, &positions)?,
        Paper::Tdsab => tdsab::run(&mut runner, &positions)?,
        Paper::PvSplit => pvsplit::run(&mut runner, &positions)?,
    };
    Ok(Report { paper: paper.name(), rows })
}

/// What an experiment runs: the machine, the search, the positions and sizes.
struct Plan {
    title: &'static str,
    preset: &'static str,
    net: Option<&'static str>,
    algorithms: &'static [Algorithm],
    placement: Placement,
    table: TableSize,
    /// Indices of the suite's records searched.
    positions: Vec<usize>,
    depth: i32,
    procs: Vec<usize>,
    /// The depths each position is searched to (the final one, and where the measure
    /// needs them, shallower ones: the last iteration, the time to settle on a move).
    depths: Vec<i32>,
    carry: bool,
    /// The period's search (pure mode), with what the paper's program did beside it: the
    /// table's cutoffs (Zugzwang), ordering by the table alone (StarTech).
    options: SearchOptions,
}

impl Plan {
    /// A paper's run as most are: its positions searched to `depth` alone, each with a
    /// fresh table of the given size shared by all processors, on its preset's own network.
    /// A paper that differs says so beside this (`Plan { carry: true, ..Plan::new(...) }`).
    #[allow(clippy::too_many_arguments)]
    fn new(title: &'static str, preset: &'static str, algorithms: &'static [Algorithm], table: TableSize, positions: Vec<usize>, depth: i32, procs: Vec<usize>) -> Plan {
        Plan { title, preset, net: None, algorithms, placement: Placement::Global, table, positions, depth, procs, depths: vec![depth], carry: false, options: SearchOptions { pure: true, ..SearchOptions::default() } }
    }

    /// The period's search, as the plan's options say.
    fn settings(&self) -> SearchSettings {
        SearchSettings { options: self.options, ..SearchSettings::default() }
    }

    fn searches(&self) -> usize {
        let parallel = self.algorithms.len() * self.procs.len();
        self.depths.len() * self.positions.len() * (1 + parallel)
    }

    fn describe(&self) -> String {
        let algorithms: Vec<&str> = self.algorithms.iter().map(|a| a.name()).collect();
        let procs: Vec<String> = self.procs.iter().map(|p| p.to_string()).collect();
        format!(
            "{} on the {} preset{}, p = {}; {} positions to depth {}; the period's full-width search (--pure){}{}; table {}, {}{}",
            algorithms.join(" and "),
            self.preset,
            self.net.map(|n| format!(" ({n})")).unwrap_or_default(),
            procs.join(", "),
            self.positions.len(),
            self.depth,
            if self.options.table_cutoffs { " taking the table's cutoffs" } else { "" },
            if self.options.table_ordering_only { " ordering moves by the table alone" } else { "" },
            self.placement,
            match self.table {
                TableSize::Mib(0) => "one bucket".to_string(),
                TableSize::Mib(mib) => format!("{mib} MiB"),
                TableSize::EntriesEach(entries) => format!("{entries} entries on each processor"),
            },
            if self.carry { "; positions in game order, table, killers and history carried from one to the next" } else { "; a fresh table for every search" }
        )
    }
}

/// A running experiment: its plan, seed and progress.
struct Runner<'a> {
    plan: &'a Plan,
    seed: u64,
    done: usize,
    total: usize,
    progress: &'a mut dyn FnMut(usize, usize),
}

impl Runner<'_> {
    /// The plan's positions to `depth` on its machines (the serial reference first).
    fn run(&mut self, positions: &[Epd], depth: i32) -> Result<Vec<SimRow>, String> {
        let plan = self.plan;
        let build = |p: usize| Sim::from_names(plan.preset, plan.net, p, self.seed).map_err(|e| e.to_string());
        let mut serial = build(1)?;
        let mut machines: Vec<Sim> = plan.procs.iter().map(|&p| build(p)).collect::<Result<_, _>>()?;
        let boards: Vec<_> = positions.iter().map(|e| e.board.clone()).collect();
        let suite = SimSuite { boards: &boards, depth, table: plan.table, placement: plan.placement, settings: plan.settings(), carry: plan.carry };
        simulate_suite(&mut serial, &mut machines, &suite, plan.algorithms, &mut |_| self.step())
    }

    fn step(&mut self) {
        self.done += 1;
        (self.progress)(self.done, self.total.max(self.done));
    }
}

/// The rows of one algorithm on p processors.
fn group(rows: &[SimRow], algorithm: Algorithm, p: usize) -> Vec<&SimRow> {
    rows.iter().filter(|r| r.algorithm == algorithm.name() && r.processors == p).collect()
}

/// A suite's sums over its positions.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    t1: f64,
    tp: f64,
    n1: f64,
    np: f64,
    work: f64,
    load: f64,
    sync: f64,
    comm: f64,
}

impl Totals {
    fn of(rows: &[&SimRow]) -> Totals {
        let sum = |f: fn(&SimRow) -> f64| rows.iter().map(|r| f(r)).sum::<f64>();
        let n = rows.len().max(1) as f64;
        Totals {
            t1: sum(|r| r.serial_ns as f64),
            tp: sum(|r| r.time_ns as f64),
            n1: sum(|r| r.serial_nodes as f64),
            np: sum(|r| r.nodes as f64),
            work: sum(|r| r.work_ns as f64),
            load: sum(|r| r.load) / n,
            sync: sum(|r| r.overheads.synchronization) / n,
            comm: sum(|r| r.overheads.communication) / n,
        }
    }

    /// ΣT(1) / ΣT(p).
    fn speedup(&self) -> f64 {
        self.t1 / self.tp.max(1.0)
    }

    /// ΣN(p) / ΣN(1) − 1, in %.
    fn search_overhead_pct(&self) -> f64 {
        100.0 * (self.np / self.n1.max(1.0) - 1.0)
    }
}

/// A row of a suite measure.
fn row(measure: &'static str, p: usize, ours: f64, published: Option<&str>) -> Row {
    Row { measure, p: Some(p), position: None, ours: rounded(ours), published: published.map(super::papers::number) }
}

/// A row of one position's measure.
fn position_row(measure: &'static str, p: usize, position: &str, ours: f64, published: Option<&str>) -> Row {
    Row { position: Some(position.to_string()), ..row(measure, p, ours, published) }
}

/// Four significant decimals: the JSON stays readable and stable.
fn rounded(x: f64) -> f64 {
    if x.is_finite() { (x * 1e4).round() / 1e4 } else { x }
}

const NS: f64 = 1e9;

#[cfg(test)]
mod tests {
    use super::*;

    /// The Lab sets its form from these: every name must be one the simulator reads back.
    #[test]
    fn each_papers_machine_is_one_the_simulator_knows() {
        for paper in Paper::ALL {
            let m = paper.machine(true);
            assert!(Preset::by_name(m.preset).is_ok(), "{m:?}");
            assert!(m.net.parse::<Kind>().is_ok(), "{m:?}");
            assert!(Algorithm::ALL.iter().chain(&Algorithm::VARIANTS).any(|a| a.name() == m.algorithm), "{m:?}");
            assert!(Placement::ALL.iter().any(|p| p.name() == m.tt), "{m:?}");
        }
        let startech = PaperMachine { algorithm: "jamboree", preset: "cm5", net: "fattree", processors: 64, tt: "distributed", depth: 4 };
        assert_eq!(Paper::StarTech.machine(true), startech, "the CM-5's own fat tree, the quick run's largest p");
        assert_eq!(Paper::Zugzwang.machine(true).net, "debruijn", "Zugzwang's network is the plan's, not its preset's default");
    }
}
