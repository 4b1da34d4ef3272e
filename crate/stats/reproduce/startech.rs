//! StarTech (Kuszmaul, "The StarTech Massively Parallel Chess Program"): Jamboree on a
//! CM-5, Kaufman's 25 positions. The measure is the time until the program settles on the
//! correct move: each position is searched to every depth from 1 up, and its time is the
//! time to the first depth from which the best move is the correct one at every depth up
//! to the deepest searched. t20 sums the 20 fastest, beside the sum of all 25; the ratios
//! T(1)/T(p) are against the same program on one processor, as Figure 5's. Also W, C,
//! W/C and the fit T ≈ c1·W/P + c2·C of Eq. 2, and the share of cycles in chess work.

use super::{group, position_row, row, Runner, Plan, Row, NS};
use crate::chess::{parse_san, Epd, Move};
use crate::machine::sim::{fit_work_span, WorkSpan};
use crate::parallel::Algorithm;
use crate::search::SearchOptions;
use crate::stats::papers::{number, startech_cycles, startech_rating, CycleUse, STARTECH_FIGURE_5, STARTECH_FIT, STARTECH_RATIOS};
use crate::stats::SimRow;
use crate::tt::{Placement, TableSize};

pub(super) const NOTES: &[&str] = &[
    "Search: StarTech had no null move, killers or history and searched with recursive iterative deepening; pure mode (full width, quiescence, no table cutoffs, null move or reductions) is the nearest we have, with moves ordered as StarTech's were, by the table's move and the captures alone (no killers, no history)",
    "Measure: the paper ran each position until the program settled on the correct move, minutes on its machine; we search every depth up to the deepest that fits here and take the time to the depth from which the bm stays best; a position whose bm is not best at the deepest depth counts its full time (a lower bound) and is counted in `unsolved`",
    "t20: the fastest 80 % of the positions (20 of 25; fewer with --quick); rating is Eq. 1 applied to our t20 in virtual seconds, so it measures our tree on the CM-5 model, not a chess strength",
    "Table: the distributed table of the CM-5 (--tt distributed), 64 MiB in all (16 with --quick), 4 M entries: fewer than the paper's 2^26 and than the nodes of our deepest searches; in pure mode the table only orders moves, so its size can change a tree's size but never a value",
    "Fit: least squares of T(p) over the deepest runs of every p, without the constant 4.3 s of Eq. 2 (our searches do no start-up analysis)",
    "With setup: the ratios again with Eq. 2's constant added to every position's time on every p, as the paper's searches paid it (board analysis and the evaluation tables' set-up at the start of each search, the same on any number of processors); at 512 it is a quarter of the paper's t20",
    "Cycles: at the largest p, Figure 8's shares summed by what the simulator can tell apart: chess work (busy, less messages), messages (busy sending and answering: the paper's answering table look-ups and work requests) and waiting (asleep: the paper's table reads, deliberate idling, searching for work, waiting for a child or an abort); ours count each processor's own sends under messages, the paper's an idle processor's requests under waiting",
];

pub(super) fn plan(quick: bool) -> Plan {
    let (positions, depth, procs) = if quick { ((0..6).collect(), 4, vec![1, 16, 64]) } else { ((0..25).collect(), 8, vec![1, 16, 64, 512]) };
    let title = "StarTech (Kuszmaul): Jamboree on a CM-5, Kaufman's 25 positions, Figure 5 and Eq. 1-2";
    // Every depth up to the last: the time to settle on the key move.
    let plan = Plan::new(title, "cm5", &[Algorithm::Jamboree], TableSize::Mib(if quick { 16 } else { 64 }), positions, depth, procs);
    Plan { placement: Placement::Distributed, depths: (1..=depth).collect(), options: SearchOptions { table_ordering_only: true, ..plan.options }, ..plan }
}

pub(super) fn run(runner: &mut Runner<'_>, positions: &[Epd]) -> Result<Vec<Row>, String> {
    let plan = runner.plan;
    let correct: Vec<Vec<Move>> = positions
        .iter()
        .map(|e| e.get("bm").unwrap_or("").split_whitespace().map(|san| parse_san(&e.board, san)).collect::<Result<Vec<_>, _>>())
        .collect::<Result<_, _>>()?;
    let by_depth: Vec<Vec<SimRow>> = plan.depths.iter().map(|&d| runner.run(positions, d)).collect::<Result<_, _>>()?;
    let deepest = by_depth.last().ok_or("no depth to search")?;
    let mut out = Vec::new();
    // (p, t20, all 25, positions kept in t20)
    let mut sums: Vec<(usize, f64, f64, usize)> = Vec::new();
    for &p in &plan.procs {
        let mut times = Vec::new();
        let mut unsolved = 0;
        for (i, good) in correct.iter().enumerate() {
            let runs: Vec<&SimRow> = by_depth.iter().map(|rows| group(rows, Algorithm::Jamboree, p)[i]).collect();
            let bests: Vec<Option<Move>> = runs.iter().map(|r| r.best).collect();
            let settled = settled_depth(&bests, good);
            let run = runs[settled.unwrap_or(runs.len() - 1)];
            unsolved += usize::from(settled.is_none());
            let id = positions[i].get("id").unwrap_or("-").replace("position ", "k");
            out.push(position_row("settle_time", p, &id, run.time_ns as f64 / NS, None));
            times.push(run.time_ns as f64 / NS);
        }
        times.sort_by(f64::total_cmp);
        let kept = times.len() - times.len() / 5;
        let (t20, all) = (times[..kept].iter().sum::<f64>(), times.iter().sum::<f64>());
        let paper = STARTECH_FIGURE_5.iter().find(|f| f.0 == p);
        out.push(row("t20", p, t20, paper.map(|f| f.1)));
        out.push(row("t25", p, all, paper.map(|f| f.3)));
        out.push(row("rating", p, startech_rating(t20), paper.map(|f| f.2)));
        out.push(row("unsolved", p, unsolved as f64, None));
        sums.push((p, t20, all, kept));
    }
    if let Some(&(1, t20_1, all_1, _)) = sums.first() {
        // Eq. 2's constant: the start-up analysis every one of the paper's searches paid,
        // on any number of processors, and ours do not.
        let setup = number(STARTECH_FIT[2]);
        let n = correct.len() as f64;
        for &(p, t20, all, kept) in sums.iter().skip(1) {
            let paper = STARTECH_RATIOS.iter().find(|r| r.0 == p);
            out.push(row("t20_ratio", p, t20_1 / t20.max(1e-12), paper.map(|r| r.1)));
            out.push(row("all25_ratio", p, all_1 / all.max(1e-12), paper.map(|r| r.2)));
            let with_setup = |sum: f64, count: f64| sum + setup * count;
            out.push(row("t20_ratio_with_setup", p, with_setup(t20_1, kept as f64) / with_setup(t20, kept as f64), paper.map(|r| r.1)));
            out.push(row("all25_ratio_with_setup", p, with_setup(all_1, n) / with_setup(all, n), paper.map(|r| r.2)));
        }
    }
    out.extend(work_and_span(plan, deepest));
    Ok(out)
}

/// Of the best moves of the searches to depth 1, 2, ..., the index of the first from which
/// every best move is a correct one (the program has settled on it); `None` when the
/// deepest is wrong.
fn settled_depth(bests: &[Option<Move>], correct: &[Move]) -> Option<usize> {
    let first_right = bests.iter().rposition(|m| !m.is_some_and(|m| correct.contains(&m))).map_or(0, |last_wrong| last_wrong + 1);
    (first_right < bests.len()).then_some(first_right)
}

/// W, C and W/C at the largest p, the fit of Eq. 2, and where the cycles went.
fn work_and_span(plan: &Plan, deepest: &[SimRow]) -> Vec<Row> {
    let mut out = Vec::new();
    let largest = *plan.procs.iter().max().unwrap_or(&1);
    let runs = group(deepest, Algorithm::Jamboree, largest);
    let work: f64 = runs.iter().map(|r| r.work_ns as f64).sum();
    let spans: Vec<f64> = runs.iter().filter_map(|r| r.critical_path_ns).map(|c| c as f64).collect();
    out.push(row("work", largest, work / NS, None));
    if spans.len() == runs.len() {
        let span: f64 = spans.iter().sum();
        out.push(row("critical_path", largest, span / NS, None));
        out.push(row("parallelism", largest, work / span.max(1.0), None));
    }
    out.extend(cycles(largest, &runs));
    let points: Vec<WorkSpan> = deepest.iter().filter(|r| r.algorithm == Algorithm::Jamboree.name()).filter_map(SimRow::work_span).collect();
    if let Some(fit) = fit_work_span(&points) {
        let [c1, c2, _] = STARTECH_FIT;
        out.push(Row { p: None, ..row("fit_c1", 0, fit.a, Some(c1)) });
        out.push(Row { p: None, ..row("fit_c2", 0, fit.b, Some(c2)) });
    }
    out
}

/// Figure 8 beside ours: the shares of all processors' cycles at `p` spent on chess work,
/// on messages and waiting, over the runs weighted by their times.
fn cycles(p: usize, runs: &[&SimRow]) -> Vec<Row> {
    let time: f64 = runs.iter().map(|r| r.time_ns as f64).sum();
    let share = |of: fn(&SimRow) -> f64| 100.0 * runs.iter().map(|r| of(r) * r.time_ns as f64).sum::<f64>() / time.max(1.0);
    let (messages, waiting) = (share(|r| r.overheads.communication), share(|r| r.overheads.synchronization));
    [("chess_work_pct", CycleUse::ChessWork, 100.0 - messages - waiting), ("messages_pct", CycleUse::Messages, messages), ("waiting_pct", CycleUse::Waiting, waiting)]
        .into_iter()
        .map(|(measure, used, ours)| Row { published: Some(startech_cycles(used)), ..row(measure, p, ours, None) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::settled_depth;
    use crate::chess::{parse_san, parse_fen, START_FEN};

    #[test]
    fn the_time_to_settle_counts_from_the_last_change_to_the_correct_move() {
        let board = parse_fen(START_FEN).unwrap();
        let [e4, d4] = ["e4", "d4"].map(|m| parse_san(&board, m).unwrap());
        assert_eq!(settled_depth(&[Some(e4), Some(e4), Some(e4)], &[e4]), Some(0));
        assert_eq!(settled_depth(&[Some(e4), Some(d4), Some(e4), Some(e4)], &[e4]), Some(2));
        assert_eq!(settled_depth(&[Some(e4), Some(d4)], &[e4]), None, "wrong at the deepest: not settled");
        assert_eq!(settled_depth(&[None, Some(d4)], &[e4, d4]), Some(1));
    }
}
