//! Hasan ("A Distributed Chess Playing Software System Model Using Dynamic CPU
//! Availability Prediction"): PV-splitting on a LAN of three unequal PCs, workers taken
//! from a pool ordered by predicted CPU availability, against plain PV-splitting. The
//! measure is the reply time to the same move on one PC over the time on three.

use super::{group, position_row, row, Runner, Plan, Totals, NS};
use crate::chess::Epd;
use crate::parallel::Algorithm;
use crate::stats::papers::{HASAN_NODES_PER_SECOND, HASAN_STATES};
use crate::tt::TableSize;

pub(super) const NOTES: &[&str] = &[
    "States: the paper's states 1, 9, 15 and 24 come from its own unpublished set; we search the Bratko-Kopec positions with the same numbers (BK.01, BK.09, BK.15, BK.24) as stand-ins",
    "Search: the paper's workers ran plain alpha-beta with no table; ours search pure mode (full width, quiescence, no table cutoffs, null move or reductions) with NegaScout windows, and a table of one bucket (4 entries), the smallest the engine has, so it neither cuts nor orders beyond the last few nodes",
    "Machine: the lan preset's three PCs, four workers (the Athlon, the Pentium 4 and the Core Duo's two cores, node times from the paper's 421,946 and 1,200,000 nodes per second) with background load as run queues; one PC is the Athlon (processor 0), the paper does not say which PC it used alone",
    "Algorithms: reply_speedup is the paper's pool (pvsplit-available: idle workers served by predicted CPU availability, Equations 1 and 2 fed by a simulated monitor), reply_speedup_plain plain PV-splitting, reply_speedup_speed_sized our variant that sizes work by each worker's measured speed (pvsplit-aware)",
];

/// The three PCs' workers: the Core Duo searched on both its cores.
const WORKERS: usize = 4;

pub(super) fn plan(quick: bool) -> Plan {
    let title = "Hasan: PV-splitting on three unequal PCs (four workers), the availability pool, plain and speed-sized, the reply time of four states";
    let algorithms = &[Algorithm::PvSplitAvailable, Algorithm::PvSplit, Algorithm::PvSplitAware];
    Plan::new(title, "lan", algorithms, TableSize::Mib(0), HASAN_STATES.iter().map(|s| s.0 - 1).collect(), if quick { 6 } else { 8 }, vec![WORKERS])
}

pub(super) fn run(runner: &mut Runner<'_>, positions: &[Epd]) -> Result<Vec<super::Row>, String> {
    let plan = runner.plan;
    let rows = runner.run(positions, plan.depth)?;
    let mut out = Vec::new();
    for (algorithm, measure) in [(Algorithm::PvSplitAvailable, "reply_speedup"), (Algorithm::PvSplit, "reply_speedup_plain"), (Algorithm::PvSplitAware, "reply_speedup_speed_sized")] {
        let runs = group(&rows, algorithm, WORKERS);
        for r in &runs {
            let (state, _, _, speedup) = HASAN_STATES[r.position];
            let published = (algorithm == Algorithm::PvSplitAvailable).then_some(speedup);
            out.push(position_row(measure, WORKERS, &format!("state {state}"), r.speedup(), published));
        }
        out.push(row(measure, WORKERS, Totals::of(&runs).speedup(), None));
    }
    let aware = Totals::of(&group(&rows, Algorithm::PvSplitAvailable, WORKERS));
    let [one_pc, three_pcs] = HASAN_NODES_PER_SECOND;
    out.push(row("nps_one_pc", 1, aware.n1 * NS / aware.t1.max(1.0), Some(one_pc)));
    out.push(row("nps_three_pcs", WORKERS, aware.np * NS / aware.tp.max(1.0), Some(three_pcs)));
    Ok(out)
}
