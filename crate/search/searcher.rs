//! The sequential searcher as a resumable state machine.
//!
//! The tree lives in an explicit stack of [`Frame`]s, not on the Rust call stack, so a
//! search can be paused after any [`Searcher::step`], a subtree (a frame with its window
//! and depth) can be handed to another processor, and a thousand simulated processors
//! can take turns on one thread. The algorithm is principal variation search
//! (NegaScout), fail-soft, with the pruning and ordering of DESIGN.md. Leaves call the
//! quiescence search, a bounded inner loop.
//!
//! Each node goes through these phases (the "Step N" comments in the code):
//! 1. enter: draw rules, mate distance, table probe, leaf → quiescence, reverse
//!    futility, internal iterative reduction
//! 2. null move (with a verification search when material is low)
//! 3. generate and order the moves
//! 4. for each move: late-move, futility and static-exchange pruning, extension and reduction, push
//!    the child
//! 5. take the child's value: re-search failed reductions and zero windows, raise alpha
//! 6. finish: mate or stalemate, store in the table, return the value to the parent
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

mod span;
mod split;
mod tree;
pub use split::{Notice, SplitCandidate, SplitWindow, Subproblem};
pub use tree::{TreeEvent, TreePath, MAX_TREE_PLY};

/// Reverse futility pruning applies up to this depth, with this margin per ply.
const RFP_MAX_DEPTH: i32 = 7;
const RFP_MARGIN: i32 = 75;
/// Late move pruning applies up to this depth.
const LMP_MAX_DEPTH: i32 = 5;
/// Futility pruning of quiet moves: up to this depth, with margin base + per-depth.
const FUTILITY_MAX_DEPTH: i32 = 4;
const FUTILITY_BASE: i32 = 90;
const FUTILITY_PER_DEPTH: i32 = 110;
/// Static exchange pruning: up to this depth, a late quiet move losing more than
/// `SEE_QUIET_MARGIN` per ply, or a late capture losing more than `SEE_TACTICAL_MARGIN`
/// per ply squared, is skipped (the margins of Ethereal's search).
const SEE_PRUNE_MAX_DEPTH: i32 = 8;
const SEE_QUIET_MARGIN: i32 = 64;
const SEE_TACTICAL_MARGIN: i32 = 20;
/// ProbCut: from this depth on, a capture whose search at `PROBCUT_REDUCTION` plies less
/// beats beta by `PROBCUT_MARGIN` is taken to cut the node (Ethereal's values).
const PROBCUT_MIN_DEPTH: i32 = 5;
const PROBCUT_MARGIN: i32 = 100;
const PROBCUT_REDUCTION: i32 = 4;

/// Switches that change what the search computes, not only how fast.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Turns off everything whose result depends on search order or window (table
    /// cutoffs, null move, reductions, mate-distance pruning), so the root value at a
    /// fixed depth is the exact minimax value of the search with check extensions and
    /// quiescence at the leaves.
    pub pure: bool,
    /// The static evaluation: hand-written (the default here) or the network (the engine's).
    pub evaluation: Evaluation,
}

/// How StarTech ordered and serialized its search (Kuszmaul 1995, section "Improving
/// the search"): a parallel program sets them for its searchers; the serial search and
/// the other algorithms keep them off. None changes a value at fixed depth in Pure mode,
/// only the order in which moves are searched and when they are given away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StarTechRules {
    /// Recursive iterative deepening: a node the table knows nothing of from a search at
    /// least one ply shallower is first searched one ply shallower, to find its best
    /// move. Pure mode only: the modern search has internal iterative reduction instead.
    pub recursive_deepening: bool,
    /// The serialization heuristic: at a node expected to be cut whose shallower search
    /// beat alpha, a first move that fails low is followed by a second one searched
    /// alone before any move is given away. Needs `recursive_deepening`.
    pub serialize: bool,
    /// Deferred reads (with a busy table): a move whose position another processor is
    /// searching is put off, as ABDADA does, and then waited for until that processor
    /// has finished it, rather than searched a second time beside it.
    pub deferred_reads: bool,
    /// Moves ordered by the table's move and the captures' order alone: no killers, no
    /// counter moves, no history ("StarTech uses no other move-ordering tables").
    pub table_ordering_only: bool,
}

impl StarTechRules {
    /// The serial search's ordering, no serialization.
    pub const OFF: StarTechRules = StarTechRules { recursive_deepening: false, serialize: false, deferred_reads: false, table_ordering_only: false };
}

/// What the child being searched is for, decided when it was pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// The null-move search: fails high ⇒ this node is cut.
    NullMove,
    /// Verification of a null-move cutoff at reduced depth, same side to move.
    NullVerify,
    /// A capture's ProbCut search: beats the raised beta ⇒ this node is cut.
    ProbCut,
    /// A move searched at reduced depth with a zero window.
    Reduced,
    /// A move searched at full depth with a zero window (PV nodes only).
    ZeroWindow,
    /// Recursive iterative deepening: this same node searched one ply shallower, to find
    /// the best move to try first (StarTech).
    Deepen,
    /// The move's final search; its value counts.
    Final,
}

/// Where a frame stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Not entered yet.
    Enter,
    /// Ready to try the next capture for ProbCut (the move list holds the captures).
    ProbCut,
    /// Ready to try the next move.
    NextMove,
    /// Waiting for a child's value.
    Awaiting(Pending),
    /// Its own moves are done; children searched by other processors are still out.
    Waiting,
}

/// A node's expected type (Knuth and Moore): on the principal variation, expected to
/// be cut by one move, or expected to need all its moves. Parallel algorithms choose
/// where to split by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// On the principal variation.
    Pv,
    /// Expected to fail high after its first move.
    Cut,
    /// Expected to fail low: every move must be searched.
    All,
}

/// One node of the tree being searched. Everything needed to resume or hand off the
/// node is here: position, window, depth, ordered moves and the best result so far.
pub struct Frame {
    board: Board,
    /// The network's sums of `board` (kept only when the network evaluates).
    accumulator: Accumulator,
    /// Tells this node apart from earlier nodes in the same frame (results from other
    /// processors name it).
    serial: u32,
    kind: NodeKind,
    alpha: i32,
    beta: i32,
    original_alpha: i32,
    depth: i32,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    null_allowed: bool,
    /// The move that led here, as the counter-move table keys it (none at the root of a
    /// search or subproblem, and after a null move).
    follows: Option<FollowUp>,
    /// Whether this node's hash is on the path stack (pushed on entry, popped on return).
    on_path: bool,
    /// The evaluation function's value (what the table stores).
    static_eval: i32,
    /// The static evaluation, or the table's score where its bound says the node is
    /// worth at least (or at most) that much more (or less): what pruning weighs.
    eval_estimate: i32,
    phase: Phase,
    moves: MoveList,
    tt_move: Option<Move>,
    /// The depth of the search that left the table's entry for this node (-1: none).
    table_depth: i32,
    /// This frame searches its parent's position one ply shallower (recursive iterative
    /// deepening): it is not on the path a second time and is not reported.
    repeats_parent: bool,
    /// Moves searched one at a time before any is given away: 1 (Young Brothers Wait),
    /// or 2 where StarTech's serialization heuristic applies.
    serial_moves: usize,
    best_score: i32,
    best_move: Option<Move>,
    /// The best score known to be a lower bound (from a child that beat alpha). Windows
    /// narrowed by others raise alpha without proving anything; this keeps what is proven.
    proven: i32,
    moves_searched: usize,
    /// Children being searched by other processors.
    remote: usize,
    quiets_tried: [Move; 64],
    quiets_count: usize,
    current: Option<Move>,
    current_depth: i32,
    current_quiet: bool,
    /// Alpha when the current child was pushed: its zero-window test is against this.
    current_alpha: i32,
    /// Whether this node is marked in the busy table (ABDADA).
    marked: bool,
    /// Moves put off because another processor is searching their position (ABDADA).
    deferred: [Move; MAX_DEFERRED],
    /// The positions ABDADA's deferred moves lead to, beside them in `deferred` (the
    /// work-splitting algorithms' re-searches, also kept there, have 0).
    deferred_hashes: [u64; MAX_DEFERRED],
    /// Where each deferred move stands in the node's list (its iteration of the loop).
    deferred_order: [u16; MAX_DEFERRED],
    /// What a failed test proved of each deferred move (a lower bound; `-INFINITY`: none).
    deferred_bound: [i32; MAX_DEFERRED],
    deferred_count: usize,
    /// Deferred moves already taken up, at the front of `deferred`: in list order in the
    /// second pass, or earlier once another processor has finished them (ABDADA).
    deferred_taken: usize,
    /// Whether the first pass over the move list is done and deferred moves are next.
    second_pass: bool,
    /// Looks at a deferred move another processor is still searching (deferred reads).
    busy_polls: u32,
    /// It waits for such a move (deferred reads), not for a message.
    polling: bool,
    /// Moves started so far, here or elsewhere: the next one's place in the list.
    started: u16,
    /// Its critical path so far (the `span` submodule).
    span: Span,
}

/// Looks a node takes at a deferred move another processor still searches before it
/// searches the move itself: two processors can wait for each other's positions (a
/// transposition leads each into the other's path), and this ends such a wait.
const MAX_BUSY_POLLS: u32 = 256;

/// Moves a node can put off (ABDADA) or get back from other processors for a
/// re-search; further busy moves are searched at once, and no more moves are given away.
const MAX_DEFERRED: usize = 64;

impl Frame {
    /// Exchanges two entries of the deferred list.
    fn swap_deferred(&mut self, i: usize, j: usize) {
        self.deferred.swap(i, j);
        self.deferred_hashes.swap(i, j);
        self.deferred_order.swap(i, j);
        self.deferred_bound.swap(i, j);
    }

    fn empty() -> Frame {
        let a1 = cozy_chess::Square::A1;
        Frame {
            board: Board::default(),
            accumulator: Accumulator::default(),
            serial: 0,
            kind: NodeKind::Pv,
            alpha: 0,
            beta: 0,
            original_alpha: 0,
            depth: 0,
            ply: 0,
            pv_node: false,
            in_check: false,
            null_allowed: true,
            follows: None,
            on_path: false,
            static_eval: 0,
            eval_estimate: 0,
            phase: Phase::Enter,
            moves: MoveList::default(),
            tt_move: None,
            table_depth: -1,
            repeats_parent: false,
            serial_moves: 1,
            best_score: -INFINITY,
            best_move: None,
            proven: -INFINITY,
            moves_searched: 0,
            remote: 0,
            quiets_tried: [Move { from: a1, to: a1, promotion: None }; 64],
            quiets_count: 0,
            current: None,
            current_depth: 0,
            current_quiet: false,
            current_alpha: 0,
            marked: false,
            deferred: [Move { from: a1, to: a1, promotion: None }; MAX_DEFERRED],
            deferred_hashes: [0; MAX_DEFERRED],
            deferred_order: [0; MAX_DEFERRED],
            deferred_bound: [-INFINITY; MAX_DEFERRED],
            deferred_count: 0,
            deferred_taken: 0,
            second_pass: false,
            busy_polls: 0,
            polling: false,
            started: 0,
            span: Span::default(),
        }
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

/// Nodes this shallow are not worth marking in the busy table.
const MIN_BUSY_DEPTH: i32 = 2;

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
        if rules.table_ordering_only && !self.startech.table_ordering_only {
            // Nothing trains them from now on: empty, they order nothing.
            self.heuristics.clear();
        }
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

    fn is_repetition(&self, board: &Board) -> bool {
        let hash = board.hash();
        let len = self.hashes.len();
        let window = (board.halfmove_clock() as usize).min(len);
        (2..=window).step_by(2).any(|back| self.hashes[len - back] == hash)
    }

    /// Step 1: entering a node: settled at once (by rule, at the horizon, by the table),
    /// cut off by its static evaluation, or on to the null move.
    fn enter(&mut self) -> Progress {
        self.nodes += 1;
        let top = self.top;
        if self.frames[top].ply < self.tree_plies {
            self.report_enter();
        }
        if let Some(value) = self.value_without_moves(top) {
            return self.finish_with(value);
        }
        if let Some(score) = self.look_up(top) {
            return self.finish_as(score, true);
        }
        let pure = self.options.pure;
        let f = &mut self.frames[top];
        if !pure && !f.pv_node && !f.in_check {
            // Reverse futility: far above beta at shallow depth, assume the node holds.
            if f.depth <= RFP_MAX_DEPTH && f.eval_estimate - RFP_MARGIN * f.depth >= f.beta && f.beta.abs() < MATE_BOUND {
                let v = f.eval_estimate;
                return self.finish_node_with_cutoff(v);
            }
        }
        if !pure && f.depth >= 4 && f.tt_move.is_none() && f.kind != NodeKind::All {
            // Internal iterative reduction: without a table move, ordering is poor and
            // a shallower search is the cheaper way to find one for next time. Not at an
            // expected ALL node, where every move is searched whatever the order: there
            // it would only cut the tree by what the table happens to hold, and so make
            // a parallel search, whose table the other processors fill, search another
            // tree than the serial one (see `crate::parallel::abdada`).
            f.depth -= 1;
        }
        self.try_null_move()
    }

    /// The value of the node at `top` when it is settled before any move is searched: a
    /// draw by rule, the ply limit, a window closed by the distance to mate, or the
    /// horizon (the quiescence search's value). Sets the node's check and the seldepth.
    #[inline(always)]
    fn value_without_moves(&mut self, top: usize) -> Option<i32> {
        let pure = self.options.pure;
        let f = &mut self.frames[top];
        let ply = f.ply;
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = 0;
        f.in_check = !f.board.checkers().is_empty();
        if ply > 0 {
            let f = &self.frames[top];
            if f.board.halfmove_clock() >= 100 || has_insufficient_material(&f.board) || self.is_repetition(&f.board) {
                return Some(0);
            }
            if ply >= MAX_PLY - 1 {
                return Some(evaluate_by(&f.board, Self::sums(&self.options, f)));
            }
        }
        let f = &mut self.frames[top];
        if !pure && ply > 0 {
            f.alpha = f.alpha.max(-MATE + ply as i32);
            f.beta = f.beta.min(MATE - ply as i32 - 1);
            if f.alpha >= f.beta {
                return Some(f.alpha);
            }
        }
        if f.depth <= 0 {
            let mut stats = QuiescenceStats::default();
            let v = quiescence(&f.board, Self::sums(&self.options, f), f.alpha, f.beta, ply, &mut stats);
            self.nodes += stats.nodes.saturating_sub(1);
            f.span.add_own(stats.nodes.saturating_sub(1));
            self.seldepth = self.seldepth.max(stats.seldepth);
            return Some(v);
        }
        None
    }

    /// Puts the node at `top` on the path (and on the busy table) and looks it up in the
    /// transposition table: sets its table move and static evaluation, and returns the
    /// table's score when that settles the node.
    #[inline(always)]
    fn look_up(&mut self, top: usize) -> Option<i32> {
        let pure = self.options.pure;
        let f = &mut self.frames[top];
        let hash = f.board.hash();
        if !f.repeats_parent {
            f.on_path = true;
            self.hashes.push(hash);
        }
        if let Some(busy) = &self.busy {
            f.marked = f.depth >= MIN_BUSY_DEPTH && busy.mark(hash);
        }
        let entry = self.tt.probe(hash);
        if self.record_accesses {
            self.accesses.push(Access { kind: AccessKind::Probe, hash });
        }
        let f = &mut self.frames[top];
        let ply = f.ply;
        f.tt_move = entry.and_then(|e| e.mv).filter(|&m| f.board.is_legal(m));
        f.table_depth = entry.map_or(-1, |e| i32::from(e.depth));
        if let Some(e) = entry {
            let score = from_table(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= f.beta,
                Bound::Upper => score <= f.alpha,
            };
            if !pure && !f.pv_node && ply > 0 && e.depth as i32 >= f.depth && usable {
                return Some(score);
            }
        }
        f.static_eval = if f.in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate_by(&f.board, Self::sums(&self.options, f)), |e| e.eval as i32)
        };
        f.eval_estimate = f.static_eval;
        if let Some(e) = entry.filter(|_| !f.in_check) {
            let score = from_table(e.score, ply);
            let sharper = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score > f.static_eval,
                Bound::Upper => score < f.static_eval,
            };
            if sharper && score.abs() < MATE_BOUND {
                f.eval_estimate = score;
            }
        }
        None
    }

    /// Step 2: null move. If passing the move still fails high at reduced depth, the
    /// node is assumed to fail high; with little material (zugzwang danger) a search
    /// without null move at reduced depth verifies it first.
    fn try_null_move(&mut self) -> Progress {
        let top = self.top;
        let f = &self.frames[top];
        let pieces = non_pawn_pieces(&f.board);
        let allowed = !self.options.pure
            && !f.pv_node
            && !f.in_check
            && f.null_allowed
            && f.depth >= 3
            && f.eval_estimate >= f.beta
            && !pieces.is_empty()
            && f.beta.abs() < MATE - MAX_PLY as i32;
        if !allowed {
            return self.try_probcut();
        }
        let Some(child) = f.board.null_move() else { return self.try_probcut() };
        let r = 3 + f.depth / 4;
        let (beta, depth) = (f.beta, f.depth);
        self.frames[top].phase = Phase::Awaiting(Pending::NullMove);
        self.push(child, -beta, -beta + 1, depth - 1 - r, false, false);
        Progress::Running
    }

    /// Step 2b: ProbCut. At a non-PV node deep enough, a capture that wins enough by
    /// exchange is searched shallower against a beta raised by the margin; if it holds
    /// there, the node is taken to hold at full depth too. The captures go through the
    /// move list first; it is filled again for the real move loop.
    fn try_probcut(&mut self) -> Progress {
        let f = &mut self.frames[self.top];
        let allowed = !self.options.pure && !f.pv_node && !f.in_check && f.depth >= PROBCUT_MIN_DEPTH && f.beta.abs() < MATE_BOUND;
        if !allowed {
            return self.generate();
        }
        f.moves.generate(&f.board, true, f.tt_move, Refutations::default(), &self.heuristics, |_| true);
        f.phase = Phase::ProbCut;
        Progress::Running
    }

    /// The next ProbCut capture: one whose quiescence value already beats the raised beta
    /// is searched at reduced depth; when none is left, the real move loop starts.
    fn next_probcut(&mut self) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        let beta = probcut_beta(f.beta);
        while let Some(sm) = f.moves.pick() {
            if !see_at_least(&f.board, sm.mv, beta - f.eval_estimate) {
                continue;
            }
            let mut child = f.board.clone();
            child.play_unchecked(sm.mv);
            let mut stats = QuiescenceStats::default();
            let child_sums = Self::sums(&self.options, f).map(|sums| Accumulator::updated(default_network(), sums, &f.board, &child));
            let value = -quiescence(&child, child_sums.as_ref(), -beta, -beta + 1, f.ply + 1, &mut stats);
            self.nodes += stats.nodes;
            f.span.add_own(stats.nodes);
            self.seldepth = self.seldepth.max(stats.seldepth);
            if value >= beta {
                f.current = Some(sm.mv);
                f.phase = Phase::Awaiting(Pending::ProbCut);
                let depth = f.depth - PROBCUT_REDUCTION;
                self.push(child, -beta, -beta + 1, depth, false, true);
                return Progress::Running;
            }
        }
        f.current = None;
        self.generate()
    }

    /// Step 3: generate and order the moves. With a table move, that move alone: the
    /// others are generated once it has not cut the node off ([`Searcher::generate_rest`]).
    fn generate(&mut self) -> Progress {
        let top = self.top;
        if self.needs_deepening(top) {
            return self.deepen(top);
        }
        let refutations = self.heuristics.refutations(self.frames[top].ply, self.frames[top].follows);
        self.heuristics.clear_killers(self.frames[top].ply + 2);
        let f = &mut self.frames[top];
        let filter = &self.root_filter;
        let at_root = f.ply == 0 && !filter.is_empty();
        match f.tt_move {
            Some(mv) if !at_root => f.moves.start_with(mv),
            _ => f.moves.generate(&f.board, false, f.tt_move, refutations, &self.heuristics, |m| !at_root || filter.contains(&m)),
        }
        f.phase = Phase::NextMove;
        Progress::Running
    }

    /// Recursive iterative deepening (StarTech): whether the node at `top` should first be
    /// searched a ply shallower, the table holding nothing from a search that deep (its
    /// best move, or that none stood out: a shallower search would not find one either). Not at the root of the whole search, which the iterative deepening already
    /// searched a ply shallower, nor so deep in the stack that the extra frames would not fit.
    /// Only in Pure mode, the search StarTech ran: the modern search has internal iterative
    /// reduction for the same purpose, and both together made Jamboree visit 2.1 times
    /// the serial tree on 2 processors (SPE 0.91; 1.48 without), depth 14, `multicore`.
    fn needs_deepening(&self, top: usize) -> bool {
        let f = &self.frames[top];
        self.startech.recursive_deepening && self.options.pure && f.depth >= 2 && f.ply > 0 && f.table_depth < f.depth - 1 && top < MAX_PLY / 2
    }

    /// Searches the node at `top` one ply shallower with its own window, in a frame above
    /// it; its best move is then tried first ([`Searcher::deepened`]).
    fn deepen(&mut self, top: usize) -> Progress {
        let f = &mut self.frames[top];
        let (board, alpha, beta, depth, pv_node, null_allowed) = (f.board.clone(), f.alpha, f.beta, f.depth, f.pv_node, f.null_allowed);
        let (kind, follows, ply) = (f.kind, f.follows, f.ply);
        f.phase = Phase::Awaiting(Pending::Deepen);
        self.push(board, alpha, beta, depth - 1, pv_node, null_allowed);
        let copy = &mut self.frames[self.top];
        copy.repeats_parent = true;
        copy.kind = kind;
        copy.follows = follows;
        copy.ply = ply;
        Progress::Running
    }

    /// The shallower search of the top frame returned `value`: its best move goes first,
    /// and StarTech's serialization heuristic decides how many moves go before any is
    /// given away: two at a node expected to be cut (Knuth and Moore's type 2) whose
    /// shallower search beat alpha, where a first move that fails low means the
    /// ordering was wrong and a second is likely the refutation.
    fn deepened(&mut self, value: i32) -> Progress {
        let top = self.top;
        let best = self.frames[top + 1].best_move;
        let f = &mut self.frames[top];
        // Without a move (every one pruned, or the table settled it) the table's stays:
        // the node is not searched a ply shallower again either way.
        f.tt_move = best.or(f.tt_move);
        f.table_depth = f.depth - 1;
        if self.startech.serialize && f.kind == NodeKind::Cut && value > f.alpha {
            f.serial_moves = 2;
        }
        // The shallower search's line is not this node's.
        self.pv_len[f.ply] = 0;
        self.generate()
    }

    /// The moves of frame `index` after its table move, if they are still to generate.
    fn generate_rest(&mut self, index: usize) {
        let f = &mut self.frames[index];
        if f.moves.rest_pending() {
            let refutations = self.heuristics.refutations(f.ply, f.follows);
            let tt_move = f.tt_move;
            f.moves.generate(&f.board, false, None, refutations, &self.heuristics, |m| Some(m) != tt_move);
        }
    }

    /// Step 4: pick the next move, choose its depth and window, push the child.
    fn next_move(&mut self) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        f.polling = false;
        let finished_elsewhere = self.busy.as_ref().and_then(|busy| take_finished_elsewhere(f, busy));
        let mv = if let Some(mv) = finished_elsewhere {
            mv
        } else if !f.second_pass {
            match f.moves.pick() {
                Some(sm) => sm.mv,
                None if f.moves.rest_pending() => {
                    // The table move was put off (ABDADA): the others go on meanwhile.
                    self.generate_rest(top);
                    return Progress::Running;
                }
                None => {
                    f.second_pass = true;
                    return Progress::Running;
                }
            }
        } else if f.deferred_taken < f.deferred_count {
            match self.take_deferred(top) {
                Some(mv) => mv,
                None => {
                    self.frames[top].phase = Phase::Waiting;
                    return Progress::Waiting;
                }
            }
        } else if f.remote > 0 {
            f.phase = Phase::Waiting;
            return Progress::Waiting;
        } else {
            return self.finish_node();
        };
        let f = &mut self.frames[top];
        let order = f.started;
        if !f.second_pass && finished_elsewhere.is_none() {
            f.started = f.started.saturating_add(1);
        }
        if self.tests_first && f.second_pass && f.deferred_bound[f.deferred_taken - 1] > f.alpha {
            // Jamboree: a test that failed high above alpha is searched again with the
            // full window at once (a zero-window test at this alpha would fail high too).
            return self.search_again_in_full(top, mv);
        }
        if self.pruned(top, mv) {
            return Progress::Running;
        }
        let f = &mut self.frames[top];
        let mut child = f.board.clone();
        child.play_unchecked(mv);
        self.tt.prefetch(child.hash());
        if let Some(busy) = &self.busy {
            // ABDADA: a move whose position another processor is searching waits until
            // the first pass is done; by then its result is likely in the table. The
            // first move waits only at a node expected to need all its moves: at a PV node
            // it sets the bound and at a CUT node it is the likely refutation, so there
            // the processor joins the other one in it instead of guessing further moves.
            // Children of shallower nodes are too shallow to be marked (but for a check
            // extension): looking would cost a shared cache line per move for nothing.
            let markable = f.depth > MIN_BUSY_DEPTH;
            let may_wait = f.moves_searched > 0 || f.kind == NodeKind::All;
            if markable && may_wait && !f.second_pass && f.deferred_count < MAX_DEFERRED && busy.busy_elsewhere(child.hash()) {
                f.deferred[f.deferred_count] = mv;
                f.deferred_hashes[f.deferred_count] = child.hash();
                f.deferred_order[f.deferred_count] = order;
                f.deferred_bound[f.deferred_count] = -INFINITY;
                f.deferred_count += 1;
                if self.startech.deferred_reads && self.record_accesses {
                    // StarTech kept the mark in the position's table entry: finding it
                    // busy took a read there (a read that finds it free is the child's own).
                    self.accesses.push(Access { kind: AccessKind::Probe, hash: child.hash() });
                }
                return Progress::Running;
            }
        }
        let plan = self.plan(top, mv, child, SplitWindow::Test);
        self.start_child(top, mv, plan)
    }

    /// Pushes the child `mv` of the node at `top`, searched as `plan` says.
    fn start_child(&mut self, top: usize, mv: Move, plan: ChildPlan) -> Progress {
        let f = &mut self.frames[top];
        f.current = Some(mv);
        f.current_depth = plan.full_depth;
        f.current_quiet = plan.quiet;
        f.current_alpha = f.alpha;
        if f.ply == 0 {
            self.root_move = Some(RootMove { mv, number: f.moves_searched + 1 });
        }
        f.phase = Phase::Awaiting(plan.pending);
        self.push(plan.child, plan.alpha, plan.beta, plan.depth, plan.pv_child, true);
        Progress::Running
    }

    /// The second pass: the next deferred move of the node at `top`, or `None` when it must
    /// wait. Jamboree takes the earliest in the list first, once every test before it in
    /// the list is back (the earlier iterations of its parallel loop), so that full-window
    /// re-searches go one at a time, in order. With deferred reads, a move another
    /// processor still searches is waited for (a bounded number of looks).
    fn take_deferred(&mut self, top: usize) -> Option<Move> {
        let f = &mut self.frames[top];
        let next = f.deferred_taken;
        if self.tests_first {
            let earliest = (next..f.deferred_count).min_by_key(|&i| f.deferred_order[i]).expect("a deferred move is left");
            f.swap_deferred(earliest, next);
            let (serial, order) = (f.serial, f.deferred_order[next]);
            if self.remotes.iter().any(|r| r.is_earlier_test(top, serial, order)) {
                return None;
            }
        }
        let hash = f.deferred_hashes[next];
        if self.startech.deferred_reads && f.busy_polls < MAX_BUSY_POLLS && hash != 0 && self.busy.as_ref().is_some_and(|b| b.busy_elsewhere(hash)) {
            // A deferred read: wait for the other processor's search of this move. Each
            // look reads the position's entry (where StarTech kept the mark) again.
            f.busy_polls += 1;
            f.polling = true;
            self.deferred_read_polls += 1;
            if self.record_accesses {
                self.accesses.push(Access { kind: AccessKind::Probe, hash });
            }
            return None;
        }
        f.deferred_taken += 1;
        Some(f.deferred[next])
    }

    /// Searches move `mv` of the node at `top` with the node's full window at full depth,
    /// its value final (Jamboree's re-search of a failed test).
    fn search_again_in_full(&mut self, top: usize, mv: Move) -> Progress {
        let f = &mut self.frames[top];
        let mut child = f.board.clone();
        child.play_unchecked(mv);
        let plan = self.plan(top, mv, child, SplitWindow::Test);
        let f = &self.frames[top];
        let plan = ChildPlan { alpha: -f.beta, beta: -f.alpha, depth: plan.full_depth, pending: Pending::Final, pv_child: f.pv_node, ..plan };
        self.start_child(top, mv, plan)
    }

    /// Whether pruning skips move `mv` of frame `index`: only late moves, at a non-PV node
    /// not in check that already has a move not leading to mate. Decided before the move
    /// is made: near the horizon most moves looked at are skipped, and making one costs
    /// more than deciding.
    fn pruned(&mut self, index: usize, mv: Move) -> bool {
        let f = &mut self.frames[index];
        let late = f.moves_searched + f.remote;
        if self.options.pure || late == 0 || f.in_check || f.pv_node || f.best_score <= -MATE_BOUND {
            return false;
        }
        if !is_tactical(&f.board, mv) {
            // Late move pruning: deep in the list at low depth, quiet moves rarely matter.
            let late_move = f.depth <= LMP_MAX_DEPTH && late as i32 >= 3 + f.depth * f.depth;
            // Futility pruning: a quiet move cannot lift a hopeless static eval to alpha.
            let futile = f.eval_estimate + FUTILITY_BASE + FUTILITY_PER_DEPTH * f.depth;
            let hopeless = f.depth <= FUTILITY_MAX_DEPTH && futile <= f.alpha;
            if (late_move || hopeless) && !gives_check(&f.board, mv) {
                if !late_move {
                    f.best_score = f.best_score.max(futile);
                }
                return true;
            }
            // Static exchange pruning: a late move that loses material at shallow depth.
            return f.depth <= SEE_PRUNE_MAX_DEPTH && !see_at_least(&f.board, mv, -SEE_QUIET_MARGIN * f.depth);
        }
        f.depth <= SEE_PRUNE_MAX_DEPTH && !see_at_least(&f.board, mv, -SEE_TACTICAL_MARGIN * f.depth * f.depth)
    }

    /// How to search move `mv` (leading to `child`) of frame `index`, which pruning has
    /// not skipped: depth, window and what its value will be for. The first move gets the
    /// full window; later ones a zero window ([`SplitWindow::Test`], principal variation
    /// search) or, when given to another processor, possibly the full one.
    fn plan(&mut self, index: usize, mv: Move, child: Board, window: SplitWindow) -> ChildPlan {
        let pure = self.options.pure;
        let f = &self.frames[index];
        let gives_check = !child.checkers().is_empty();
        let quiet = !is_tactical(&f.board, mv);
        let extension = i32::from(gives_check && f.ply < MAX_PLY / 2);
        let new_depth = f.depth - 1 + extension;
        // Moves finished or under way elsewhere: this move's place in the list.
        let late = f.moves_searched + f.remote;
        let (alpha, beta, pv_node) = (f.alpha, f.beta, f.pv_node);
        let plan = |alpha, beta, depth, pending, pv_child| ChildPlan { child, alpha, beta, depth, full_depth: new_depth, pending, pv_child, quiet };
        if late == 0 {
            return plan(-beta, -alpha, new_depth, Pending::Final, pv_node);
        }
        let reduction = if !pure && quiet && !gives_check && !f.in_check && f.depth >= 3 && late >= 2 + usize::from(pv_node) {
            let mut r = self.lmr[(f.depth as usize).min(63)][late.min(63)] as i32;
            r -= i32::from(pv_node);
            // More at a node expected to fail high (its late moves rarely matter), less
            // for the killers and the counter move (they refuted a sibling).
            r += i32::from(f.kind == NodeKind::Cut);
            let refutations = self.heuristics.refutations(f.ply, f.follows);
            r -= i32::from(refutations.killers.contains(&Some(mv)) || refutations.counter == Some(mv));
            r -= self.heuristics.history(f.board.side_to_move(), mv) / 8192;
            r.clamp(0, new_depth - 1)
        } else {
            0
        };
        if window == SplitWindow::Full && pv_node {
            let pending = if reduction > 0 { Pending::Reduced } else { Pending::Final };
            return plan(-beta, -alpha, new_depth - reduction, pending, true);
        }
        let pending = if reduction > 0 {
            Pending::Reduced
        } else if pv_node {
            Pending::ZeroWindow
        } else {
            Pending::Final
        };
        plan(-alpha - 1, -alpha, new_depth - reduction, pending, false)
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
            Pending::NullMove => {
                let score = -child_value;
                if score < f.beta {
                    return self.try_probcut();
                }
                if non_pawn_pieces(&f.board).len() > 1 || f.depth < 6 {
                    let v = if score >= MATE - MAX_PLY as i32 { f.beta } else { score };
                    return self.finish_node_with_cutoff(v);
                }
                let (board, beta, depth) = (f.board.clone(), f.beta, f.depth);
                f.phase = Phase::Awaiting(Pending::NullVerify);
                let r = 3 + depth / 4;
                // The verification child is this same position: its frame sits one ply
                // deeper only so the stack stays uniform; its value is not negated.
                self.push(board, beta - 1, beta, depth - 1 - r, false, false);
                Progress::Running
            }
            Pending::NullVerify => {
                if child_value >= f.beta {
                    self.finish_node_with_cutoff(child_value)
                } else {
                    self.try_probcut()
                }
            }
            Pending::ProbCut => {
                let score = -child_value;
                if score >= probcut_beta(f.beta) {
                    f.best_move = f.current;
                    f.best_score = score;
                    return self.finish_node();
                }
                f.phase = Phase::ProbCut;
                Progress::Running
            }
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
                    if f.current_quiet && !self.startech.table_ordering_only {
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

/// ABDADA: a deferred move of `f` whose position the other processor has finished since,
/// taken off the deferred list. It goes next: its value is in the table by now, and it
/// may cut this node off before the rest of the list is searched for nothing (the serial
/// search would have searched it in its place).
fn take_finished_elsewhere(f: &mut Frame, busy: &BusyMarks) -> Option<Move> {
    // A hash of 0 marks a move sent back for a re-search, not a busy position.
    let i = (f.deferred_taken..f.deferred_count).find(|&i| f.deferred_hashes[i] != 0 && !busy.busy_elsewhere(f.deferred_hashes[i]))?;
    f.swap_deferred(i, f.deferred_taken);
    f.deferred_taken += 1;
    Some(f.deferred[f.deferred_taken - 1])
}

/// The side to move's pieces other than pawns and king: null move is unsafe without
/// them (zugzwang) and needs verification with only one.
/// ProbCut's raised beta.
fn probcut_beta(beta: i32) -> i32 {
    (beta + PROBCUT_MARGIN).min(MATE_BOUND - 1)
}

fn non_pawn_pieces(board: &Board) -> cozy_chess::BitBoard {
    board.colors(board.side_to_move()) & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King))
}

/// The expected type of a child: the principal variation continues through PV children;
/// below it, cut and all nodes alternate.
fn child_kind(parent: NodeKind, pv_child: bool) -> NodeKind {
    match (pv_child, parent) {
        (true, _) => NodeKind::Pv,
        (false, NodeKind::Cut) => NodeKind::All,
        (false, _) => NodeKind::Cut,
    }
}

/// How a move will be searched: decided by [`Searcher::plan`].
struct ChildPlan {
    child: Board,
    alpha: i32,
    beta: i32,
    depth: i32,
    /// The depth without reduction (for a re-search).
    full_depth: i32,
    pending: Pending,
    pv_child: bool,
    quiet: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::legal_moves;
    use crate::tt::BusyTable;

    /// The root moves in the order a searcher (processor 0) starts them while processor 1
    /// holds marks on every position one move from the start, and lets go of the one
    /// `finished` leads to (it has searched it) once processor 0 is on its second root
    /// move, the first it had deferred.
    fn root_order(finished: Option<Move>) -> Vec<Move> {
        let board = Board::default();
        // Roomy enough that no two of the twenty root children share a slot.
        let busy = Arc::new(BusyTable::new(16));
        let other = BusyMarks::new(busy.clone(), 1);
        for mv in legal_moves(&board) {
            assert!(other.mark(child_hash(&board, mv)), "{mv}: every root child gets a slot of its own");
        }
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_busy_table(Some(BusyMarks::new(busy, 0)));
        searcher.start(&board, &[], -INFINITY, INFINITY, 5, &[]);
        moves_started(&mut searcher, |order| {
            if let (2, Some(mv)) = (order.len(), finished) {
                other.unmark(child_hash(&board, mv));
            }
        })
    }

    /// The hash of the position `mv` leads to from `board`.
    fn child_hash(board: &Board, mv: Move) -> u64 {
        let mut child = board.clone();
        child.play_unchecked(mv);
        child.hash()
    }

    /// Runs `searcher` to the end and returns the moves its top node started, in order,
    /// calling `on_start` with them each time it starts another.
    fn moves_started(searcher: &mut Searcher, mut on_start: impl FnMut(&[Move])) -> Vec<Move> {
        let mut order: Vec<Move> = Vec::new();
        while !matches!(searcher.step(), Progress::Done(_)) {
            if let Some(root) = searcher.root_move().filter(|r| order.last() != Some(&r.mv)) {
                order.push(root.mv);
                on_start(&order);
            }
        }
        order
    }

    /// The moves a searcher (processor 0) starts, in order, at a node of `kind` at the start
    /// position where every move fails low (window 500..501, depth 5, `Pure`, so that no
    /// move is pruned), while processor 1 holds a mark on the position after `busy_first`
    /// (if any).
    fn order_at(kind: NodeKind, busy_first: Option<Move>) -> Vec<Move> {
        let problem = failing_low(kind);
        let busy = Arc::new(BusyTable::new(16));
        if let Some(mv) = busy_first {
            assert!(BusyMarks::new(busy.clone(), 1).mark(child_hash(&problem.board, mv)));
        }
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_busy_table(Some(BusyMarks::new(busy, 0)));
        searcher.set_options(SearchOptions { pure: true, ..SearchOptions::default() });
        searcher.start_subproblem(&problem);
        moves_started(&mut searcher, |_| {})
    }

    /// A node of `kind` at the start position, depth 5, where every move fails low
    /// (window 500..501).
    fn failing_low(kind: NodeKind) -> Subproblem {
        Subproblem { board: Board::default(), path: Vec::new(), alpha: 500, beta: 501, depth: 5, ply: 0, kind, line: TreePath::default(), killers: [[None; 2]; 2] }
    }

    /// ABDADA: the first move of a node expected to need all its moves waits like any
    /// other while another processor searches it, and is still searched; at a CUT node,
    /// where it is the likely refutation, it goes first all the same.
    #[test]
    fn a_busy_first_move_waits_only_at_all_nodes() {
        for kind in [NodeKind::All, NodeKind::Cut] {
            let alone = order_at(kind, None);
            assert!(alone.len() > 2, "{kind:?}: every move fails low, so several are searched");
            let order = order_at(kind, Some(alone[0]));
            assert!(order.contains(&alone[0]), "{kind:?}: the busy move is still searched ({order:?})");
            assert_eq!(order[0] == alone[0], kind == NodeKind::Cut, "{kind:?}: {:?} against {:?}", &order[..2], &alone[..2]);
        }
    }

    /// Internal iterative reduction: without a table move, a node whose move order decides
    /// its cost (here a CUT node) is searched a ply shallower, while a node expected to
    /// need all its moves keeps its depth, so what the table holds does not shape it. The
    /// depth a node was searched to is the depth of the entry it leaves.
    #[test]
    fn without_a_table_move_only_nodes_whose_order_matters_are_reduced() {
        for (kind, searched_to) in [(NodeKind::Cut, 4), (NodeKind::All, 5)] {
            let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
            let mut searcher = Searcher::new(tt.clone());
            let problem = failing_low(kind);
            searcher.start_subproblem(&problem);
            moves_started(&mut searcher, |_| {});
            let entry = tt.probe(problem.board.hash()).expect("the node leaves an entry");
            assert_eq!(i32::from(entry.depth), searched_to, "{kind:?}");
        }
    }

    /// ABDADA: a deferred move waits while the other processor searches its position, and
    /// goes next once that processor is done with it (its value is then in the table).
    #[test]
    fn a_deferred_move_goes_next_once_the_other_processor_has_finished_it() {
        let while_busy = root_order(None);
        assert_eq!(while_busy.len(), legal_moves(&Board::default()).len(), "every root move is searched, the deferred ones last");
        let finished = while_busy[3];
        let order = root_order(Some(finished));
        assert_eq!(order[..2], while_busy[..2]);
        assert_eq!(order[2], finished, "the finished move comes before the deferred moves still busy ({:?})", &while_busy[2..4]);
    }

    /// The pure value of `problem`, and the nodes it took, searched with `rules`.
    fn pure_search(problem: &Subproblem, rules: StarTechRules) -> (i32, u64) {
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
        searcher.set_startech_rules(rules);
        searcher.start_subproblem(problem);
        loop {
            if let Progress::Done(value) = searcher.step() {
                return (value, searcher.nodes());
            }
        }
    }

    const RECURSIVE_DEEPENING: StarTechRules = StarTechRules { recursive_deepening: true, ..StarTechRules::OFF };

    /// Recursive iterative deepening: a node without a table move from a search a ply
    /// shallower first searches its own position a ply shallower (a frame above it, at the
    /// same ply and off the path), and the value stays the serial one.
    #[test]
    fn recursive_deepening_searches_a_node_a_ply_shallower_first() {
        let problem = Subproblem { ply: 1, ..failing_low(NodeKind::Pv) };
        let problem = Subproblem { alpha: -INFINITY, beta: INFINITY, depth: 4, ..problem };
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
        searcher.set_startech_rules(RECURSIVE_DEEPENING);
        searcher.start_subproblem(&problem);
        while searcher.top == 0 {
            assert_eq!(searcher.step(), Progress::Running);
        }
        let (node, copy) = (&searcher.frames[0], &searcher.frames[1]);
        assert_eq!(node.phase, Phase::Awaiting(Pending::Deepen));
        assert!(copy.repeats_parent && copy.board == node.board && copy.depth == 3 && copy.ply == node.ply);
        assert_eq!(searcher.hashes.len(), 1, "the position is on the path once");
        let (plain, plain_nodes) = pure_search(&problem, StarTechRules::OFF);
        let (deepened, deepened_nodes) = pure_search(&problem, RECURSIVE_DEEPENING);
        assert_eq!(deepened, plain);
        assert_ne!(deepened_nodes, plain_nodes, "another tree");
    }

    /// StarTech's serialization heuristic: at a node expected to be cut (type 2) whose
    /// search a ply shallower beat alpha but whose first move fails low, a second move is
    /// searched before the node offers any to other processors.
    #[test]
    fn a_type_2_node_whose_first_move_fails_low_searches_a_second_one_before_splitting() {
        let at = |board: &Board, alpha: i32, depth: i32| Subproblem { board: board.clone(), alpha, beta: alpha + 1, depth, ply: 1, ..failing_low(NodeKind::Cut) };
        let exact = |board: &Board, depth| pure_search(&Subproblem { alpha: -INFINITY, beta: INFINITY, kind: NodeKind::Pv, ..at(board, 0, depth) }, StarTechRules::OFF).0;
        // A position whose value falls from one depth to the next.
        let fens = ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"];
        let falling = fens.iter().map(|fen| fen.parse::<Board>().unwrap()).flat_map(|b| (3..=4).map(move |d| (b.clone(), d)));
        let (board, depth, full) = falling.into_iter().find_map(|(b, d)| (exact(&b, d - 1) > exact(&b, d)).then(|| (b.clone(), d, exact(&b, d)))).expect("a value that falls with depth");
        // Between the two: the shallower search beats alpha and the full one fails low.
        let problem = at(&board, full, depth);
        for (serialize, serial_moves) in [(false, 1), (true, 2)] {
            let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
            searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
            searcher.set_startech_rules(StarTechRules { serialize, ..RECURSIVE_DEEPENING });
            searcher.start_subproblem(&problem);
            let mut first_offer = None;
            while !matches!(searcher.step(), Progress::Done(_)) {
                if first_offer.is_none() && searcher.split_candidates().any(|c| c.frame == 0) {
                    first_offer = Some(searcher.frames[0].moves_searched);
                }
            }
            assert_eq!(first_offer, Some(serial_moves), "serialize: {serialize}");
        }
    }

    /// Deferred reads: where ABDADA searches a move another processor is still searching
    /// once the rest of the list is done, StarTech's node waits for that processor to
    /// finish it (looking again at each step), then goes on.
    #[test]
    fn a_deferred_read_waits_for_the_other_processor() {
        let problem = failing_low(NodeKind::All);
        let first = order_at(NodeKind::All, None)[0];
        let busy = Arc::new(BusyTable::new(16));
        let other = BusyMarks::new(busy.clone(), 1);
        assert!(other.mark(child_hash(&problem.board, first)));
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_busy_table(Some(BusyMarks::new(busy, 0)));
        searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
        searcher.set_startech_rules(StarTechRules { deferred_reads: true, ..StarTechRules::OFF });
        searcher.start_subproblem(&problem);
        let waited = loop {
            match searcher.step() {
                Progress::Running => {}
                Progress::Waiting => break searcher.deferred_read_polls(),
                Progress::Done(_) => panic!("the busy move was searched without waiting"),
            }
        };
        assert!(waited == 1 && searcher.waits_for_busy_position());
        assert_eq!(searcher.step(), Progress::Waiting, "still busy: it waits again");
        other.unmark(child_hash(&problem.board, first));
        let value = loop {
            if let Progress::Done(value) = searcher.step() {
                break value;
            }
        };
        assert_eq!(searcher.deferred_read_polls(), 2);
        assert_eq!(value, pure_search(&problem, StarTechRules::OFF).0);
    }

    /// StarTech's ordering by the table alone: its search trains no killers (nor history),
    /// where the engine's own search learns them in the same tree.
    #[test]
    fn ordering_by_the_table_alone_learns_no_killers() {
        for table_ordering_only in [false, true] {
            let problem = Subproblem { depth: 4, ..failing_low(NodeKind::Pv) };
            let problem = Subproblem { alpha: -INFINITY, beta: INFINITY, ..problem };
            let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
            searcher.set_startech_rules(StarTechRules { table_ordering_only, ..StarTechRules::OFF });
            searcher.start_subproblem(&problem);
            moves_started(&mut searcher, |_| {});
            let killers: [[Option<Move>; 2]; 3] = searcher.heuristics.killers_from(1);
            assert_eq!(killers.iter().flatten().any(Option::is_some), !table_ordering_only);
        }
    }
}
