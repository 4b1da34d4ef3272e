//! The APHID table, the master's side: every leaf of the shallow tree it has met, who
//! searches it, and what the slaves reported of it, depth by depth. The master's passes
//! read a leaf's value from here: certain when a report at the depth the pass needs
//! decides the pass's window, otherwise the best guess, marked uncertain.
//!
//! Invariants: a leaf's bounds at a depth only tighten while they agree (reports of one
//! function in pure mode always do; without pure mode a report that contradicts them
//! replaces them); an exact value is kept; a leaf has one owner, never a lost processor;
//! only its owner's reports are taken.

use super::message::{LeafProblem, LeafValue, Want};
use crate::eval::evaluate;
use crate::search::INFINITY;
use cozy_chess::{Board, Move};
use std::collections::HashMap;

/// Wants at one depth with a narrow window before the master asks for the leaf's exact
/// value (the full window): windows that keep moving between passes cannot keep a pass
/// uncertain for ever, as an exact value decides every window. One: a leaf whose window
/// moved once is likely to move again (`meshmate sim --algo aphid --procs 4,16 --preset
/// multicore --depth 5 --pure --seed 1`, Bratko-Kopec 1-8: time-to-depth speedup 0.59 /
/// 1.55 against 0.53 / 1.35 with two).
const NARROW_ASKS: u32 = 1;

/// What the slaves found of a leaf at one remaining depth: `lower <= value <= upper`.
struct Bounds {
    depth: i32,
    lower: i32,
    upper: i32,
    /// The best line below the leaf, when the value is exact.
    pv: Vec<Move>,
}

impl Bounds {
    fn exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The leaf's value for a pass whose window at the leaf is `alpha..beta`, when these
    /// bounds decide it (fail-soft: a bound beyond the window is as good as the value).
    fn decide(&self, alpha: i32, beta: i32) -> Option<i32> {
        if self.lower >= beta || self.exact() {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }

    /// The single number that best stands for these bounds.
    fn guess(&self) -> i32 {
        if self.lower > -INFINITY {
            self.lower
        } else {
            self.upper
        }
    }
}

/// One leaf of the master's tree.
struct Leaf {
    problem: LeafProblem,
    owner: usize,
    /// Reports by depth, shallowest first.
    bounds: Vec<Bounds>,
    /// The want last sent to the owner (`None`: the leaf was never sent).
    sent: Option<Want>,
    /// Wants sent at the depth of `sent`.
    asks: u32,
}

/// How a pass takes a leaf.
pub(super) enum Verdict {
    /// Its value at the depth needed, decided for the pass's window.
    Certain(i32),
    /// No report decides it yet: the best guess.
    Uncertain(i32),
}

/// The APHID table.
pub(super) struct LeafTable {
    leaves: Vec<Leaf>,
    by_moves: HashMap<Vec<Move>, u32>,
    /// Leaves owned, by processor; `None`: the processor is gone.
    loads: Vec<Option<u32>>,
}

impl LeafTable {
    /// An empty table for a search on `processors` processors.
    pub(super) fn new(processors: usize) -> LeafTable {
        LeafTable { leaves: Vec::new(), by_moves: HashMap::new(), loads: vec![Some(0); processors.max(1)] }
    }

    /// The leaf reached by `moves` from the root, `board` after them and `path` the
    /// hashes above it; added, and given to the processor owning the fewest leaves, when
    /// the master meets it for the first time.
    pub(super) fn find_or_add(&mut self, moves: &[Move], board: &Board, path: &[u64]) -> u32 {
        if let Some(&id) = self.by_moves.get(moves) {
            return id;
        }
        let id = self.leaves.len() as u32;
        let owner = self.least_loaded();
        // Repetitions reach back at most a hundred plies (the fifty-move rule).
        let path = path[path.len().saturating_sub(crate::search::MAX_PLY + 100)..].to_vec();
        let want = Want { depth: 0, alpha: -INFINITY, beta: INFINITY, most: 0, order: 0 };
        let problem = LeafProblem { board: board.clone(), path, moves: moves.to_vec(), want };
        self.leaves.push(Leaf { problem, owner, bounds: Vec::new(), sent: None, asks: 0 });
        self.by_moves.insert(moves.to_vec(), id);
        id
    }

    fn least_loaded(&mut self) -> usize {
        let (owner, load) = self.loads.iter_mut().enumerate().filter_map(|(p, l)| l.as_mut().map(|l| (p, l))).min_by_key(|(p, l)| (**l, *p)).expect("processor 0 is never gone");
        *load += 1;
        owner
    }

    /// How a pass needing leaf `id` at remaining `depth` within `alpha..beta` takes it.
    /// Only a report at that very depth makes it certain in pure mode (a deeper search
    /// has another value); otherwise the deepest report at that depth or deeper that
    /// decides the window does.
    pub(super) fn judge(&self, id: u32, depth: i32, alpha: i32, beta: i32, pure: bool) -> Verdict {
        let leaf = &self.leaves[id as usize];
        let deciding = leaf.bounds.iter().rev().filter(|b| b.depth == depth || (!pure && b.depth > depth)).find_map(|b| b.decide(alpha, beta));
        if let Some(value) = deciding {
            return Verdict::Certain(value);
        }
        // The guess: the deepest report's, kept within what is known at this depth.
        let guess = leaf.bounds.last().map_or_else(|| evaluate(&leaf.problem.board), Bounds::guess);
        let guess = match leaf.bounds.iter().find(|b| b.depth == depth) {
            Some(b) => guess.clamp(b.lower, b.upper),
            None => guess,
        };
        Verdict::Uncertain(guess)
    }

    /// The best line below leaf `id` at `depth`, when its value there is exact.
    pub(super) fn pv(&self, id: u32, depth: i32) -> &[Move] {
        self.leaves[id as usize].bounds.iter().find(|b| b.depth == depth).map_or(&[], |b| &b.pv)
    }

    /// The want to send for leaf `id` now that a pass needs `want`, or `None` when its
    /// owner already has it. The exact value (the full window) is asked for once
    /// [`NARROW_ASKS`] narrower wants at the same depth did not settle the leaf.
    pub(super) fn want(&mut self, id: u32, mut want: Want) -> Option<(usize, Want)> {
        let leaf = &mut self.leaves[id as usize];
        let held = |w: &Want| leaf.sent.is_some_and(|s| (s.depth, s.alpha, s.beta, s.most) == (w.depth, w.alpha, w.beta, w.most));
        if held(&want) {
            return None;
        }
        let same_depth = leaf.sent.is_some_and(|s| s.depth == want.depth);
        if same_depth && leaf.asks >= NARROW_ASKS {
            (want.alpha, want.beta) = (-INFINITY, INFINITY);
            if held(&want) {
                return None;
            }
        }
        leaf.asks = if same_depth { leaf.asks + 1 } else { 1 };
        leaf.sent = Some(want);
        leaf.problem.want = want;
        Some((leaf.owner, want))
    }

    /// Whether leaf `id` has been sent to its owner before.
    pub(super) fn was_sent(&self, id: u32) -> bool {
        self.leaves[id as usize].sent.is_some()
    }

    /// Leaf `id` as its owner needs it (with the last want).
    pub(super) fn problem(&self, id: u32) -> &LeafProblem {
        &self.leaves[id as usize].problem
    }

    /// Takes `report` on leaf `id` from processor `from`. `false`: no such leaf, or not
    /// `from`'s (a class's peer cannot answer for another's leaf).
    pub(super) fn record(&mut self, from: usize, id: u32, report: LeafValue) -> bool {
        let Some(leaf) = self.leaves.get_mut(id as usize).filter(|l| l.owner == from) else { return false };
        let (lower, upper) = if report.value <= report.alpha {
            (-INFINITY, report.value)
        } else if report.value >= report.beta {
            (report.value, INFINITY)
        } else {
            (report.value, report.value)
        };
        let fresh = Bounds { depth: report.depth, lower, upper, pv: if lower == upper { report.pv } else { Vec::new() } };
        match leaf.bounds.iter().position(|b| b.depth >= report.depth) {
            Some(i) if leaf.bounds[i].depth == report.depth => {
                let known = &mut leaf.bounds[i];
                let (lower, upper) = (known.lower.max(fresh.lower), known.upper.min(fresh.upper));
                if known.exact() {
                    // Kept: nothing is sharper.
                } else if lower > upper {
                    *known = fresh;
                } else {
                    (known.lower, known.upper) = (lower, upper);
                    if fresh.lower == fresh.upper {
                        known.pv = fresh.pv;
                    }
                }
            }
            Some(i) => leaf.bounds.insert(i, fresh),
            None => leaf.bounds.push(fresh),
        }
        true
    }

    /// Processor `gone` has left the search: its leaves go to the others, each with the
    /// last want it was sent. Returns those leaves.
    pub(super) fn reassign(&mut self, gone: usize) -> Vec<u32> {
        if gone == 0 || self.loads.get(gone).is_none_or(|l| l.is_none()) {
            return Vec::new();
        }
        self.loads[gone] = None;
        let moved: Vec<u32> = (0..self.leaves.len() as u32).filter(|&id| self.leaves[id as usize].owner == gone).collect();
        for &id in &moved {
            let owner = self.least_loaded();
            self.leaves[id as usize].owner = owner;
        }
        moved
    }

    /// The processor owning leaf `id`.
    pub(super) fn owner(&self, id: u32) -> usize {
        self.leaves[id as usize].owner
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_fen;

    fn table_with_a_leaf() -> (LeafTable, u32) {
        let mut table = LeafTable::new(2);
        let board = parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap();
        let id = table.find_or_add(&["e2e4".parse().unwrap(), "e7e5".parse().unwrap()], &board, &[1, 2]);
        (table, id)
    }

    fn report(depth: i32, alpha: i32, beta: i32, value: i32) -> LeafValue {
        LeafValue { depth, alpha, beta, value, pv: Vec::new() }
    }

    #[test]
    fn a_leaf_is_certain_only_at_the_depth_the_pass_needs_when_its_bounds_decide_the_window() {
        let (mut table, id) = table_with_a_leaf();
        let owner = table.owner(id);
        assert!(!table.record(1 - owner, id, report(3, -10, 10, 5)), "only the owner answers for a leaf");
        assert!(table.record(owner, id, report(3, 0, 1, 40)), "a lower bound: at least 40");
        assert!(matches!(table.judge(id, 3, -5, 30, true), Verdict::Certain(40)));
        assert!(matches!(table.judge(id, 3, -5, 50, true), Verdict::Uncertain(40)), "40 does not decide a window reaching 50");
        assert!(matches!(table.judge(id, 2, -5, 30, true), Verdict::Uncertain(_)), "another depth is another value");
        assert!(matches!(table.judge(id, 2, -5, 30, false), Verdict::Certain(40)), "without pure mode a deeper report serves");
        table.record(owner, id, report(3, 60, 61, 45));
        assert!(matches!(table.judge(id, 3, -5, 50, true), Verdict::Uncertain(40)), "between 40 and 45");
        assert!(matches!(table.judge(id, 3, 45, 50, true), Verdict::Certain(45)), "at most 45 decides a window from 45 up");
        table.record(owner, id, report(3, 40, 41, 40));
        assert!(matches!(table.judge(id, 3, -5, 50, true), Verdict::Certain(40)), "the bounds met: exact");
    }

    #[test]
    fn windows_that_keep_moving_end_in_a_request_for_the_exact_value() {
        let (mut table, id) = table_with_a_leaf();
        let want = |alpha| Want { depth: 4, alpha, beta: alpha + 1, most: 4, order: 0 };
        assert!(table.want(id, want(0)).is_some());
        assert!(table.want(id, want(0)).is_none(), "the owner has it already");
        for k in 1..NARROW_ASKS as i32 {
            assert!(table.want(id, want(10 * k)).is_some_and(|(_, w)| w.alpha == 10 * k), "narrow want {k}");
        }
        let (_, wide) = table.want(id, want(500)).unwrap();
        assert_eq!((wide.alpha, wide.beta), (-INFINITY, INFINITY));
        assert!(table.want(id, want(600)).is_none(), "the exact value answers every window");
        assert!(table.want(id, Want { depth: 5, ..want(600) }).is_some_and(|(_, w)| w.alpha == 600), "a new depth starts narrow");
    }

    #[test]
    fn a_lost_processors_leaves_go_to_the_others() {
        let (mut table, first) = table_with_a_leaf();
        let board = parse_fen("rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2").unwrap();
        let second = table.find_or_add(&["e2e4".parse().unwrap(), "d2d4".parse().unwrap()], &board, &[1, 3]);
        assert_eq!((table.owner(first), table.owner(second)), (0, 1), "the least loaded processor takes a new leaf");
        assert_eq!(table.reassign(0), Vec::<u32>::new(), "processor 0, the master, is never reassigned");
        assert_eq!(table.reassign(1), vec![second]);
        assert_eq!(table.owner(second), 0);
        let third = table.find_or_add(&["d2d4".parse().unwrap()], &board, &[1]);
        assert_eq!(table.owner(third), 0, "a lost processor gets no new leaves");
    }
}
