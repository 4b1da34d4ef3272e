//! TDSAB (Kishimoto and Schaeffer, "Distributed Game-Tree Search Using Transposition
//! Table Driven Work Scheduling"): MTD(f) with transposition-driven scheduling on a
//! Pentium III cluster on 100 Mb Ethernet. Measures of Tables 1 (Awari) and 2 (Amazons)
//! at 8, 16, 32 and 64 processors: speedup, search, synchronization and communication
//! overhead. The paper searched Awari and Amazons, not chess: each of our chess figures
//! is printed beside both games' (the `_amazons` measures).

use super::{group, row, Runner, Plan, Totals};
use crate::chess::Epd;
use crate::parallel::Algorithm;
use crate::stats::papers::{TdsabRow, TDSAB_AMAZONS, TDSAB_AWARI};
use crate::tt::{Placement, TableSize};

/// A measure printed beside the paper's: its name against Awari, against Amazons, our
/// value, and the paper's cell in a row of its table.
type Measure = (&'static str, &'static str, f64, fn(&TdsabRow) -> &'static str);

pub(super) const NOTES: &[&str] = &[
    "Game: the paper measured Awari (24 plies) and Amazons (5 plies), not chess; we search Bratko-Kopec (chess), so each figure is printed beside both tables",
    "Search: pure mode (full width, quiescence, no table cutoffs, null move or reductions) inside the MTD(f) driver; each node's table entry lives at its home processor (--tt tds)",
    "Overheads: synchronization is the idle share of all processors' time, communication the share spent sending and handling messages, search overhead N(p)/N(1) - 1 (the paper's definitions)",
];

pub(super) fn plan(quick: bool) -> Plan {
    let (positions, depth, procs) = if quick { ((0..6).collect(), 5, vec![8, 16]) } else { ((0..24).collect(), 8, vec![8, 16, 32, 64]) };
    let title = "TDSAB (Kishimoto, Schaeffer): transposition-driven MTD(f) on a Pentium III cluster, Tables 1-2";
    Plan { placement: Placement::Tds, ..Plan::new(title, "p3-ethernet", &[Algorithm::Tdsab], TableSize::Mib(if quick { 16 } else { 64 }), positions, depth, procs) }
}

pub(super) fn run(runner: &mut Runner<'_>, positions: &[Epd]) -> Result<Vec<super::Row>, String> {
    let plan = runner.plan;
    let rows = runner.run(positions, plan.depth)?;
    let mut out = Vec::new();
    for &p in &plan.procs {
        let totals = Totals::of(&group(&rows, Algorithm::Tdsab, p));
        let paper = |table: &[TdsabRow; 4]| table.iter().find(|r| r.0 == p).copied();
        let (awari, amazons) = (paper(&TDSAB_AWARI), paper(&TDSAB_AMAZONS));
        let measures: [Measure; 4] = [
            ("spe", "spe_amazons", totals.speedup(), |r| r.2),
            ("so_pct", "so_pct_amazons", totals.search_overhead_pct(), |r| r.3),
            ("sync_pct", "sync_pct_amazons", 100.0 * totals.sync, |r| r.4),
            ("comm_pct", "comm_pct_amazons", 100.0 * totals.comm, |r| r.5),
        ];
        for (measure, amazons_measure, ours, column) in measures {
            out.push(row(measure, p, ours, awari.as_ref().map(column)));
            out.push(row(amazons_measure, p, ours, amazons.as_ref().map(column)));
        }
        out.push(row("ld_pct", p, 100.0 * totals.load, None));
    }
    Ok(out)
}
