//! The sequential searcher as a resumable state machine.
//!
//! The tree lives in an explicit stack of [`Frame`]s, not on the Rust call stack, so a
//! search can be paused after any [`Searcher::step`], a subtree (a frame with its window
//! and depth) can be handed to another processor, and a thousand simulated processors
//! can take turns on one thread. The algorithm is principal variation search
//! (NegaScout), fail-soft, with the pruning and ordering of DESIGN.md. Leaves call the
//! quiescence search, a bounded inner loop.
//!
//! Each node goes through these phases (the "Step N" comments in the code), each in
//! its submodule:
//! 1. enter (`enter`): draw rules, mate distance, table probe, leaf → quiescence, reverse
//!    futility, internal iterative reduction
//! 2. null move and ProbCut (`pruning`, with a verification search when material is low)
//! 3. generate and order the moves (`moves`; StarTech's recursive deepening first,
//!    `startech`)
//! 4. for each move (`moves`): late-move, futility and static-exchange pruning
//!    (`pruning`), moves put off while another processor searches them (`deferral`),
//!    extension and reduction, push the child
//! 5. take the child's value (here): re-search failed reductions and zero windows, raise alpha
//! 6. finish (here): mate or stalemate, store in the table, return the value to the parent
//!
//! A node's state is its [`Frame`] (`frame`).
//!
//! Parallel algorithms hand later moves of a node to other processors and feed their
//! values back (the `split` submodule); a node whose own moves are done but whose remote
//! children are still out waits ([`Progress::Waiting`]).

use super::heuristics::{FollowUp, Heuristics, Refutations};
use super::ordering::{is_tactical, MoveList};
use super::qsearch::{quiescence, QuiescenceStats};
use super::see::see_at_least;
use super::score::{from_table, to_table, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::chess::{gives_check, has_insufficient_material};
use crate::eval::nnue::{default_network, Accumulator};
use crate::eval::{evaluate_by, Evaluation};
use crate::tt::{Access, AccessKind, Bound, BusyMarks, Entry, TranspositionTable};
use cozy_chess::{Board, Move, Piece};
use span::Span;
use std::sync::Arc;

mod deferral;
mod enter;
mod frame;
mod moves;
mod pruning;
mod span;
mod split;
mod startech;
mod tree;
use frame::{child_kind, Frame, Pending, Phase};
pub use frame::NodeKind;
pub use startech::StarTechRules;
pub use split::{Notice, SplitCandidate, SplitWindow, Subproblem};
pub use tree::{TreeEvent, TreePath, MAX_TREE_PLY};

/// Switches that change what the search computes, not only how fast.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Turns off everything whose result depends on search order or window (table
    /// cutoffs, null move, reductions, mate-distance pruning), so the root value at a
    /// fixed depth is the exact minimax value of the search with check extensions and
    /// quiescence at the leaves.
    pub pure: bool,
    /// In pure mode, still end a node on a table entry deep enough to settle it, as the
    /// period's programs did (Zugzwang's NegaScout, whose distributed table grew with the
    /// machine and so could shrink the parallel tree). The value then depends on what the
    /// table holds, so it is no longer the exact minimax value. Outside pure mode the
    /// search always takes these cutoffs.
    pub table_cutoffs: bool,
    /// Orders moves by the table's move and the captures alone: no killers, no counter
    /// moves, no history, as StarTech did ("StarTech uses no other move-ordering
    /// tables"). Off everywhere but the StarTech reproduction; it changes the tree's
    /// order, never a value in pure mode.
    pub table_ordering_only: bool,
    /// The static evaluation: hand-written (the default here) or the network (the engine's).
    pub evaluation: Evaluation,
}

impl SearchOptions {
    /// Whether a table entry deep enough may end a node: always outside pure mode, and in
    /// pure mode only when asked for (`table_cutoffs`).
    pub fn takes_table_cutoffs(&self) -> bool {
        !self.pure || self.table_cutoffs
    }
}

/// What a call to [`Searcher::step`] left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// More steps are needed.
    Running,
    /// The root's value is known.
    Done(i32),
    /// Nothing to do until other processors return the values of children they search.
    Waiting,
}

/// The root's move that is being searched, for `info currmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its 1-based position in the root's order.
    pub number: usize,
}

/// A sequential PVS searcher that advances one node per [`Searcher::step`]. Aligned to
/// cache lines so that neighbouring searchers of a parallel search (a `Vec`) never write
/// to the same line.
#[repr(align(128))]
pub struct Searcher {
    frames: Vec<Frame>,
    top: usize,
    /// Hashes of the game before the root, then of each position on the current path.
    hashes: Vec<u64>,
    game_len: usize,
    root_filter: Vec<Move>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    tt: Arc<TranspositionTable>,
    heuristics: Box<Heuristics>,
    lmr: [[u8; 64]; 64],
    options: SearchOptions,
    nodes: u64,
    seldepth: usize,
    root_move: Option<RootMove>,
    busy: Option<BusyMarks>,
    /// Ply of frame 0: 0 at the root of the game tree, deeper for a subproblem.
    base_ply: usize,
    next_serial: u32,
    /// Children given to other processors, with what is needed to take their values.
    remotes: Vec<split::Remote>,
    /// Messages the processor program must send on the searcher's behalf.
    notices: Vec<Notice>,
    /// The root's value, when it became known outside `step` (a remote result cut it).
    done: Option<i32>,
    /// Jamboree: a failed test is searched again only when the tests before it are in.
    tests_first: bool,
    /// Expected ALL nodes may give moves away before their eldest son is back (DTS).
    eager_all_nodes: bool,
    /// StarTech's move ordering and serialization (off: the serial search's own).
    startech: StarTechRules,
    /// Looks at positions other processors were still searching (deferred reads), since
    /// the last `reset_counters`.
    deferred_read_polls: u64,
    /// Critical path of the root searches since `reset_counters`, and of the last one.
    span_total: u64,
    root_span: u64,
    /// Whether table accesses are recorded: only for a table split among processors,
    /// whose machine may charge for them (never for the engine's own table).
    record_accesses: bool,
    /// Table accesses since the program last took them (capacity reserved once).
    accesses: Vec<Access>,
    /// Nodes of plies below this are reported as tree events (0: none; the `tree` submodule).
    tree_plies: usize,
    tree_events: Vec<TreeEvent>,
    /// Moves from the root of the whole search to frame 0 (a subproblem's line).
    tree_base: TreePath,
}

/// Accesses a searcher's record holds without growing: one step makes at most one probe
/// and a store per frame it finishes, and programs take the record after every step.
const ACCESS_CAPACITY: usize = 2 * MAX_PLY + 8;

impl Searcher {
    /// A searcher sharing `tt`. Allocates all its frames once, here.
    pub fn new(tt: Arc<TranspositionTable>) -> Searcher {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Searcher {
            frames: (0..=MAX_PLY + 1).map(|_| Frame::empty()).collect(),
            top: 0,
            hashes: Vec::with_capacity(1024 + MAX_PLY),
            game_len: 0,
            root_filter: Vec::with_capacity(256),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 1],
            heuristics: Box::default(),
            lmr,
            options: SearchOptions::default(),
            nodes: 0,
            seldepth: 0,
            root_move: None,
            busy: None,
            base_ply: 0,
            next_serial: 0,
            remotes: Vec::with_capacity(64),
            notices: Vec::with_capacity(64),
            done: None,
            tests_first: false,
            eager_all_nodes: false,
            startech: StarTechRules::default(),
            deferred_read_polls: 0,
            span_total: 0,
            root_span: 0,
            record_accesses: tt.parts() > 1,
            accesses: Vec::with_capacity(ACCESS_CAPACITY),
            tt,
            tree_plies: 0,
            tree_events: Vec::new(),
            tree_base: TreePath::default(),
        }
    }

    /// Shares a busy table with other processors (ABDADA): positions they are searching
    /// are deferred.
    pub fn set_busy_table(&mut self, busy: Option<BusyMarks>) {
        self.busy = busy;
    }

    /// Whether a node re-searches a move whose test failed high only once the tests
    /// before it in the list are back, earliest first, with the full window at once when
    /// the test beat alpha (Jamboree), rather than as soon as it can and by a zero-window
    /// test first.
    pub fn set_tests_first(&mut self, tests_first: bool) {
        self.tests_first = tests_first;
    }

    /// Lets expected ALL nodes give moves away as soon as their eldest son is under way,
    /// not only once it is back (Cray Blitz's DTS; the others wait for the eldest).
    pub fn set_eager_all_nodes(&mut self, eager: bool) {
        self.eager_all_nodes = eager;
    }

    /// Sets StarTech's rules for the following searches (see [`StarTechRules`]).
    pub fn set_startech_rules(&mut self, rules: StarTechRules) {
        self.startech = rules;
    }

    /// Uses another table (after a Hash resize).
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.record_accesses = tt.parts() > 1;
        self.tt = tt;
    }

    /// The table accesses made since [`Searcher::forget_accesses`], recorded only when the
    /// table is split among processors (a distributed table on a simulated machine).
    pub fn accesses(&self) -> &[Access] {
        &self.accesses
    }

    /// Empties the record of table accesses (its program has passed them on).
    pub fn forget_accesses(&mut self) {
        self.accesses.clear();
    }

    /// Sets the switches for the following searches.
    pub fn set_options(&mut self, options: SearchOptions) {
        if options.table_ordering_only && !self.options.table_ordering_only {
            // Nothing trains them from now on: empty, they order nothing.
            self.heuristics.clear();
        }
        self.options = options;
    }

    /// Forgets killers and history (new game).
    pub fn clear_heuristics(&mut self) {
        self.heuristics.clear();
    }

    /// Reads and trains `other`'s history table from now on (ABDADA's processors share
    /// one).
    pub fn share_history_of(&mut self, other: &Searcher) {
        self.heuristics.use_history(other.heuristics.history_table().clone());
    }

    /// Whether this searcher reads and trains `other`'s history table.
    pub fn shares_history_with(&self, other: &Searcher) -> bool {
        Arc::ptr_eq(self.heuristics.history_table(), other.heuristics.history_table())
    }

    /// Starts a history table of its own, leaving the one it shared.
    pub fn use_own_history(&mut self) {
        self.heuristics.use_history(Arc::default());
    }

    /// Positions visited since the last [`Searcher::reset_counters`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Times since the last [`Searcher::reset_counters`] a node found a position it had
    /// deferred still searched by another processor and waited for it (deferred reads).
    pub fn deferred_read_polls(&self) -> u64 {
        self.deferred_read_polls
    }

    /// Whether the search waits for another processor to finish a position (a deferred
    /// read), which no message will announce: its program must step it again to look.
    pub fn waits_for_busy_position(&self) -> bool {
        let f = &self.frames[self.top];
        f.phase == Phase::Waiting && f.polling
    }

    /// Deepest ply reached since the last [`Searcher::reset_counters`].
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// Zeroes the node and selective-depth counters.
    pub fn reset_counters(&mut self) {
        self.nodes = 0;
        self.seldepth = 0;
        self.span_total = 0;
        self.deferred_read_polls = 0;
    }

    /// The root move being searched.
    pub fn root_move(&self) -> Option<RootMove> {
        self.root_move
    }

    /// The principal variation of the last finished root search.
    pub fn pv(&self) -> &[Option<Move>] {
        &self.pv[self.base_ply][..self.pv_len[self.base_ply]]
    }

    /// The root's best move so far (after at least one move was fully searched).
    pub fn root_best(&self) -> Option<(Move, i32)> {
        let root = &self.frames[0];
        root.best_move.map(|m| (m, root.best_score))
    }

    /// Prepares a search of `board` (reached after positions with hashes `history`)
    /// to `depth` within `alpha..beta`. `root_moves`, if not empty, restricts the moves
    /// searched at the root (UCI `searchmoves`, MultiPV exclusions).
    pub fn start(&mut self, board: &Board, history: &[u64], alpha: i32, beta: i32, depth: i32, root_moves: &[Move]) {
        self.prepare(history, 0, TreePath::default());
        self.root_filter.extend_from_slice(root_moves);
        self.init_frame(board.clone(), alpha, beta, depth, true, true);
        self.frames[0].kind = NodeKind::Pv;
    }

    /// Forgets the previous search (abandoning what is left of it) and sets the path.
    fn prepare(&mut self, history: &[u64], base_ply: usize, line: TreePath) {
        self.abandon();
        self.tree_base = line;
        self.hashes.clear();
        self.hashes.extend_from_slice(history);
        self.game_len = history.len();
        self.root_filter.clear();
        self.top = 0;
        self.base_ply = base_ply;
        self.root_move = None;
        self.done = None;
        self.pv_len = [0; MAX_PLY + 1];
    }

    /// Pushes a child of the top frame.
    fn push(&mut self, board: Board, alpha: i32, beta: i32, depth: i32, pv_node: bool, null_allowed: bool) {
        let parent = &self.frames[self.top];
        let (kind, follows) = (child_kind(parent.kind, pv_node), parent.current.and_then(|mv| FollowUp::of(&board, mv)));
        let ply = parent.ply + 1;
        self.top += 1;
        self.init_frame(board, alpha, beta, depth, pv_node, null_allowed);
        let f = &mut self.frames[self.top];
        f.kind = kind;
        f.follows = follows;
        // A frame's ply is its parent's plus one, not its index: a frame repeating its
        // parent (recursive iterative deepening) takes a frame but no ply.
        f.ply = ply;
    }

    /// Sets up the top frame for a node of `board` to search to `depth` within `alpha..beta`.
    fn init_frame(&mut self, board: Board, alpha: i32, beta: i32, depth: i32, pv_node: bool, null_allowed: bool) {
        let index = self.top;
        let f = &mut self.frames[index];
        f.board = board;
        f.alpha = alpha;
        f.beta = beta;
        f.original_alpha = alpha;
        f.depth = depth;
        f.ply = self.base_ply + index;
        f.serial = self.next_serial;
        self.next_serial = self.next_serial.wrapping_add(1);
        f.pv_node = pv_node;
        f.null_allowed = null_allowed;
        f.follows = None;
        f.on_path = false;
        f.phase = Phase::Enter;
        f.best_score = -INFINITY;
        f.best_move = None;
        f.proven = -INFINITY;
        f.moves_searched = 0;
        f.remote = 0;
        f.quiets_count = 0;
        f.current = None;
        f.table_depth = -1;
        f.repeats_parent = false;
        f.serial_moves = 1;
        f.marked = false;
        f.deferred_count = 0;
        f.deferred_taken = 0;
        f.second_pass = false;
        f.busy_polls = 0;
        f.polling = false;
        f.started = 0;
        f.span = Span::entered();
        if self.options.evaluation == Evaluation::Nnue {
            self.update_accumulator(index);
        }
    }

    /// Brings the network's sums of frame `index` up to date: updated from its parent's
    /// with the move between them, or computed afresh at the bottom of the stack.
    #[inline(always)]
    fn update_accumulator(&mut self, index: usize) {
        let network = default_network();
        if index == 0 {
            let f = &mut self.frames[0];
            f.accumulator.refresh(network, &f.board);
        } else {
            let (below, above) = self.frames.split_at_mut(index);
            let (parent, child) = (&below[index - 1], &mut above[0]);
            child.accumulator = parent.accumulator;
            child.accumulator.update(network, &parent.board, &child.board);
        }
    }

    /// The table the quiescence search reads and writes: this searcher's, when it is not
    /// pure and whole on this machine.
    #[inline(always)]
    fn quiescence_table<'t>(options: &SearchOptions, tt: &'t Arc<TranspositionTable>) -> Option<&'t TranspositionTable> {
        (!options.pure && tt.parts() == 1).then_some(&**tt)
    }

    /// The network's sums of a frame, when the network evaluates.
    #[inline(always)]
    fn sums<'f>(options: &SearchOptions, f: &'f Frame) -> Option<&'f Accumulator> {
        (options.evaluation == Evaluation::Nnue).then_some(&f.accumulator)
    }

    /// Advances the search by one node (entering it, or taking a child's value and
    /// choosing the next move).
    pub fn step(&mut self) -> Progress {
        if let Some(value) = self.done.take() {
            return Progress::Done(value);
        }
        match self.frames[self.top].phase {
            Phase::Enter => self.enter(),
            Phase::ProbCut => self.next_probcut(),
            Phase::NextMove | Phase::Waiting => self.next_move(),
            Phase::Awaiting(_) => unreachable!("a frame awaiting a child is never on top"),
        }
    }

    /// Pops the top frame and hands `value` (from that frame's side) to its parent.
    fn finish_with(&mut self, value: i32) -> Progress {
        self.finish_as(value, false)
    }

    /// [`Searcher::finish_with`], `from_table` when the table's entry is the value.
    fn finish_as(&mut self, value: i32, from_table: bool) -> Progress {
        if self.frames[self.top].ply < self.tree_plies {
            self.report_leave(self.top, Some(value), from_table);
        }
        self.leave_top();
        let span = self.frames[self.top].span.total();
        if self.top == 0 {
            self.frames[0].phase = Phase::Enter;
            self.root_finished(span);
            return Progress::Done(value);
        }
        self.top -= 1;
        self.child_returned(value, span)
    }

    /// Undoes what the top frame holds outside itself: its hash on the path, its busy
    /// mark, and children given to other processors (they are told to stop).
    fn leave_top(&mut self) {
        let top = self.top;
        let f = &mut self.frames[top];
        if f.on_path {
            f.on_path = false;
            self.hashes.pop();
        }
        if f.marked {
            f.marked = false;
            if let Some(busy) = &self.busy {
                busy.unmark(f.board.hash());
            }
        }
        if f.remote > 0 {
            self.cancel_remotes(top);
        }
    }

    /// Step 5: the child of the top frame returned `child_value`, its critical path `span`.
    fn child_returned(&mut self, child_value: i32, span: u64) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        let Phase::Awaiting(pending) = f.phase else { unreachable!("only awaiting frames receive values") };
        match pending {
            Pending::NullMove | Pending::NullVerify | Pending::ProbCut | Pending::Deepen => f.span.add_serial(span),
            Pending::Reduced | Pending::ZeroWindow | Pending::Final => f.span.add_to_move(span),
        }
        match pending {
            Pending::NullMove => self.null_move_returned(-child_value),
            // The same position: its value is not negated.
            Pending::NullVerify => self.null_move_verified(child_value),
            Pending::ProbCut => self.probcut_returned(-child_value),
            Pending::Reduced | Pending::ZeroWindow => {
                let score = -child_value;
                let (alpha, beta, depth, pv_node) = (f.alpha, f.beta, f.current_depth, f.pv_node);
                // A test fails low against the alpha it was made with (alpha may have
                // risen since, when other processors returned values).
                if score <= f.current_alpha || (pending == Pending::ZeroWindow && score >= beta) {
                    return self.take_score(score);
                }
                // A re-search: only now is the child position needed again.
                let mut child = f.board.clone();
                child.play_unchecked(f.current.expect("a move is being searched"));
                f.current_alpha = alpha;
                if pending == Pending::Reduced {
                    f.phase = Phase::Awaiting(if pv_node { Pending::ZeroWindow } else { Pending::Final });
                    self.push(child, -alpha - 1, -alpha, depth, false, true);
                } else {
                    f.phase = Phase::Awaiting(Pending::Final);
                    self.push(child, -beta, -alpha, depth, true, true);
                }
                Progress::Running
            }
            Pending::Final => self.take_score(-child_value),
            // The same position: its value is not negated.
            Pending::Deepen => self.deepened(child_value),
        }
    }

    /// A move's final score: raise best and alpha; a cutoff finishes the node.
    fn take_score(&mut self, score: i32) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        let mv = f.current.expect("a move is being searched");
        f.span.move_done(f.moves_searched == 0);
        f.moves_searched += 1;
        f.phase = Phase::NextMove;
        if score > f.best_score {
            f.best_score = score;
            if score > f.alpha {
                f.best_move = Some(mv);
                f.alpha = score;
                f.proven = f.proven.max(score);
                let ply = f.ply;
                self.pv[ply][0] = Some(mv);
                let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
                self.pv_len[ply] = child_len + 1;
                if score >= self.frames[top].beta {
                    let f = &self.frames[top];
                    if f.current_quiet && !self.options.table_ordering_only {
                        self.heuristics.reward(f.board.side_to_move(), f.ply, f.depth, f.follows, mv, &f.quiets_tried[..f.quiets_count]);
                    }
                    return self.finish_node();
                }
                if self.frames[top].remote > 0 {
                    self.window_changed(top);
                }
            }
        }
        // No cutoff: the moves after the table move are needed now (and a parallel search
        // may give them away before this node's next step).
        self.generate_rest(top);
        let f = &mut self.frames[top];
        if f.current_quiet && f.quiets_count < f.quiets_tried.len() {
            f.quiets_tried[f.quiets_count] = mv;
            f.quiets_count += 1;
        }
        Progress::Running
    }

    /// A null-move cutoff: store a lower bound and return.
    fn finish_node_with_cutoff(&mut self, score: i32) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        f.best_score = score;
        f.best_move = None;
        self.finish_node()
    }

    /// Step 6: all moves searched or a cutoff; mate/stalemate, store and return.
    fn finish_node(&mut self) -> Progress {
        let top = self.top;
        let f = &self.frames[top];
        let score = if f.moves_searched == 0 && f.best_score == -INFINITY {
            if f.in_check {
                -MATE + f.ply as i32
            } else {
                0
            }
        } else {
            f.best_score
        };
        // Exact only when the score was proven by a move: a window narrowed by another
        // processor can leave a higher fail-low bound as the best score.
        let bound = if score >= f.beta {
            Bound::Lower
        } else if f.best_move.is_some() && score == f.proven && score > f.original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if f.in_check { 0 } else { f.static_eval };
        if self.record_accesses {
            self.accesses.push(Access { kind: AccessKind::Store, hash: f.board.hash() });
        }
        self.tt.store(
            f.board.hash(),
            Entry {
                mv: f.best_move,
                score: to_table(score, f.ply),
                eval: eval as i16,
                depth: f.depth.clamp(0, 255) as u8,
                bound,
                generation: 0,
            },
        );
        self.finish_with(score)
    }
}

#[cfg(test)]
mod tests;
