//! Cray Blitz (Hyatt, "The Dynamic Tree-Splitting Parallel Search Algorithm"): DTS on a
//! Cray C916, the 24 positions of the game Mchess Pro – Cray Blitz (1993) searched in
//! game order with the table, killers and history carried from one to the next, serial
//! and parallel alike. Measures: Table 3's mean of the per-position speedups at 2, 4, 8
//! and 16 CPUs, Table 6's speedup per position, and Table 5's node ratio.

use super::{group, position_row, row, Runner, Plan, Totals};
use crate::chess::Epd;
use crate::parallel::Algorithm;
use crate::stats::papers::{CRAY_BLITZ_NODE_RATIO, CRAY_BLITZ_PROCESSORS, CRAY_BLITZ_TABLE_3, CRAY_BLITZ_TABLE_6};
use crate::tt::TableSize;

pub(super) const NOTES: &[&str] = &[
    "Search: pure mode (full width, quiescence, no table cutoffs, null move or reductions); Cray Blitz took table cutoffs and searched about 10-11 plies in the game's time, far more than the simulator runs here",
    "Time: our C916 node time is the paper's own rate, 31,230 nodes/s per CPU (Tables 4-5), so the HELP latency (one node and a state dump, about 30 us) follows from it",
    "Positions: CB.01-CB.24 of crayblitz-1993.epd (the paper's 24); each machine (1, 2, 4, 8, 16 CPUs) plays them in order with its own carried table, killers and history, as the game did",
];

pub(super) fn plan(quick: bool) -> Plan {
    let (positions, depth) = if quick { ((0..8).collect(), 5) } else { ((0..24).collect(), 6) };
    let title = "Cray Blitz (Hyatt): Dynamic Tree Splitting on a Cray C916, the 1993 game's 24 positions, Tables 3, 5 and 6";
    // The game's positions in order, as the program played them.
    Plan { carry: true, ..Plan::new(title, "c916", &[Algorithm::Dts], TableSize::Mib(if quick { 16 } else { 64 }), positions, depth, CRAY_BLITZ_PROCESSORS.to_vec()) }
}

pub(super) fn run(runner: &mut Runner<'_>, positions: &[Epd]) -> Result<Vec<super::Row>, String> {
    let plan = runner.plan;
    let rows = runner.run(positions, plan.depth)?;
    let mut out = Vec::new();
    for (column, &p) in plan.procs.iter().enumerate() {
        let runs = group(&rows, Algorithm::Dts, p);
        let mean = runs.iter().map(|r| r.speedup()).sum::<f64>() / runs.len().max(1) as f64;
        out.push(row("mean_speedup", p, mean, Some(CRAY_BLITZ_TABLE_3[column].1)));
        let totals = Totals::of(&runs);
        out.push(row("spe", p, totals.speedup(), None));
        out.push(row("node_ratio", p, totals.np / totals.n1.max(1.0), Some(CRAY_BLITZ_NODE_RATIO[column])));
        for r in runs {
            let index = plan.positions[r.position];
            out.push(position_row("speedup", p, &format!("CB.{:02}", index + 1), r.speedup(), CRAY_BLITZ_TABLE_6.get(index).map(|t| t[column])));
        }
    }
    Ok(out)
}
