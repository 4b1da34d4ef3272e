//! Zugzwang (Feldmann, Mysliwietz, Monien, "A Fully Distributed Chess Program"): YBWC on
//! T800s wired as a DeBruijn network, the distributed table, Bratko-Kopec to 7 plies.
//! Measures: SPE, LD and SO of the whole iterative deepening at 16, 32 and 64 processors;
//! the last iteration alone (Figure 4: the 1–d totals minus the 1–(d−1) totals, as the
//! paper computes it); Figure 5's per-position columns at 64; Figure 3's cost of the
//! distributed table to one searcher among idle owners.

use super::{group, position_row, row, Plan, Runner, Totals, NS};
use crate::chess::Epd;
use crate::machine::sim::Sim;
use crate::machine::Counters;
use crate::parallel::{serial_among_idle_owners, Algorithm};
use crate::search::{Limits, SearchOptions, Searcher, Task};
use crate::tt::{Placement, TableSize, Tables};
use crate::stats::papers::{ZUGZWANG_AVERAGES, ZUGZWANG_FIGURE_5, ZUGZWANG_LAST_ITERATION, ZUGZWANG_SPEEDUPS, ZUGZWANG_TABLE_COST};

/// k, each Transputer's share of the distributed table: the paper gives the sequential
/// program's table (20,000 entries) and says the distributed one holds k entries on each
/// processor, p·k in all, without giving k; with k the sequential size, one processor is
/// the sequential program.
const TABLE_ENTRIES_EACH: usize = 20_000;

pub(super) const NOTES: &[&str] = &[
    "Search: the period's full width with quiescence and check extensions, no null move or reductions, taking the table's cutoffs as Zugzwang's NegaScout did (so the value may differ from the serial one)",
    "Table: k entries on each processor (k the sequential program's table, as the run line says; the paper gives no k), p·k in all: the aggregate table grows with p, the paper's account of its negative search overhead at small p. With one 16 MiB table for every p and no table cutoffs (at 5e5402e), SPE at 16 was 13.05, SO 13.7 %",
    "Time: our T800 node time is Figure 5's own (231,112 s for 73,888,253 nodes), so virtual seconds compare with the paper's seconds; the tree shapes differ (our evaluation and move ordering are not Zugzwang's)",
    "Last iteration: each position is searched to d and to d-1 plies; the last iteration is the difference of the totals, as Figure 4 computes it; its load is the extra busy time over p times the extra time",
    "Table cost (Figure 3's first run): B22 to 5 plies by one searcher alone, then on a 32-processor machine whose 31 other processors search nothing and serve their parts of the distributed table; the paper's second and third runs (idle processors asking random others for work) are not modelled; --quick does not search B22 and leaves it out",
];

pub(super) fn plan(quick: bool) -> Plan {
    let (positions, depth, procs) = if quick { ((0..8).collect(), 5, vec![16, 64]) } else { ((0..24).collect(), 7, vec![16, 32, 64]) };
    let title = "Zugzwang (Feldmann, Mysliwietz, Monien): YBWC on T800 Transputers, Bratko-Kopec, Figures 3-5";
    // A ply shallower too: the last iteration's share.
    let plan = Plan::new(title, "t800", &[Algorithm::Ybwc], TableSize::EntriesEach(TABLE_ENTRIES_EACH), positions, depth, procs);
    Plan { net: Some("debruijn"), placement: Placement::Distributed, depths: vec![depth - 1, depth], options: SearchOptions { table_cutoffs: true, ..plan.options }, ..plan }
}

/// Figure 3's run: position 22 (B22) searched to 5 plies by one processor of a
/// 32-processor machine whose other processors hold parts of the distributed table.
const TABLE_COST_POSITION: usize = 21;
const TABLE_COST_DEPTH: i32 = 5;
const TABLE_COST_PROCESSORS: usize = 32;

/// Figure 3's first run, when the plan searches its position: the nodes per second of
/// one searcher alone and among idle owners of the distributed table, and the delay.
fn table_cost(runner: &Runner<'_>, positions: &[Epd]) -> Result<Vec<super::Row>, String> {
    let plan = runner.plan;
    let Some(at) = plan.positions.iter().position(|&i| i == TABLE_COST_POSITION) else { return Ok(Vec::new()) };
    let settings = plan.settings();
    let limits = Limits { depth: Some(TABLE_COST_DEPTH), ..Limits::default() };
    let task = Task { board: &positions[at].board, history: &[], limits: &limits, settings: &settings };
    let nodes_per_second = |p: usize| -> Result<f64, String> {
        let mut sim = Sim::from_names(plan.preset, plan.net, p, runner.seed).map_err(|e| e.to_string())?;
        let tables = Tables::sized(Placement::Distributed, plan.table, p).map_err(|e| e.to_string())?;
        let mut searcher = Searcher::new(tables.of_processor(0).clone());
        let result = serial_among_idle_owners(&mut sim, &mut searcher, &tables, &task, &Counters::new(p));
        let elapsed_ns = sim.last_run().map_or(0, |r| r.elapsed_ns);
        Ok(result.nodes as f64 * NS / elapsed_ns.max(1) as f64)
    };
    let (alone, among) = (nodes_per_second(1)?, nodes_per_second(TABLE_COST_PROCESSORS)?);
    let [published_alone, published_among, published_delay] = ZUGZWANG_TABLE_COST;
    Ok(vec![
        position_row("table_cost_nps", 1, "B22", alone, Some(published_alone)),
        position_row("table_cost_nps", TABLE_COST_PROCESSORS, "B22", among, Some(published_among)),
        position_row("table_cost_delay_pct", TABLE_COST_PROCESSORS, "B22", 100.0 * (1.0 - among / alone), Some(published_delay)),
    ])
}

pub(super) fn run(runner: &mut Runner<'_>, positions: &[Epd]) -> Result<Vec<super::Row>, String> {
    let plan = runner.plan;
    let shallower = runner.run(positions, plan.depth - 1)?;
    let rows = runner.run(positions, plan.depth)?;
    let mut out = Vec::new();
    for &p in &plan.procs {
        let totals = Totals::of(&group(&rows, Algorithm::Ybwc, p));
        let published = ZUGZWANG_SPEEDUPS.iter().find(|(q, _)| *q == p).map(|(_, s)| *s);
        out.push(row("spe", p, totals.speedup(), published));
        let at_64 = |s: &'static str| (p == 64).then_some(s);
        out.push(row("ld_pct", p, 100.0 * totals.load, at_64(ZUGZWANG_AVERAGES[0])));
        out.push(row("so_pct", p, totals.search_overhead_pct(), at_64(ZUGZWANG_AVERAGES[1])));
        let before = Totals::of(&group(&shallower, Algorithm::Ybwc, p));
        let (t1, tp) = (totals.t1 - before.t1, totals.tp - before.tp);
        out.push(row("spe_last_iteration", p, t1 / tp.max(1.0), at_64(ZUGZWANG_LAST_ITERATION[0])));
        let load = (totals.work - before.work) / (p as f64 * tp.max(1.0));
        out.push(row("ld_last_iteration_pct", p, 100.0 * load, at_64(ZUGZWANG_LAST_ITERATION[1])));
    }
    let largest = *plan.procs.iter().max().unwrap_or(&1);
    for r in group(&rows, Algorithm::Ybwc, largest) {
        let index = plan.positions[r.position];
        let paper = ZUGZWANG_FIGURE_5.get(index).filter(|_| largest == 64);
        let id = ZUGZWANG_FIGURE_5.get(index).map_or_else(|| format!("B{:02}", index + 1), |f| f.id.to_string());
        let cells: [(&'static str, f64, Option<&str>); 7] = [
            ("n1", r.serial_nodes as f64, paper.map(|f| f.nodes_1)),
            ("t1", r.serial_ns as f64 / NS, paper.map(|f| f.time_1)),
            ("np", r.nodes as f64, paper.map(|f| f.nodes_64)),
            ("tp", r.time_ns as f64 / NS, paper.map(|f| f.time_64)),
            ("ld_pct", 100.0 * r.load, paper.map(|f| f.load)),
            ("so_pct", 100.0 * r.search_overhead(), paper.map(|f| f.search_overhead)),
            ("spe", r.speedup(), paper.map(|f| f.speedup)),
        ];
        out.extend(cells.into_iter().map(|(measure, ours, published)| position_row(measure, largest, &id, ours, published)));
    }
    out.extend(table_cost(runner, positions)?);
    Ok(out)
}
