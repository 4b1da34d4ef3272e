//! The sequential searcher (a resumable state machine), its move ordering and
//! pruning, the quiescence search, and the iterative-deepening driver with time control.

mod bench;
mod driver;
mod heuristics;
mod ordering;
mod qsearch;
mod score;
mod searcher;
mod see;
mod strength;
mod time;

pub use bench::{bench, BenchResult, BENCH_POSITIONS, DEFAULT_BENCH_DEPTH};
pub use driver::{search, Task, Control, Deepening, Info, Line, Listener, NoReports, ScoreBound, SearchResult, SearchSettings};
pub use ordering::is_tactical;
pub use qsearch::{quiescence, QuiescenceStats};
pub use score::{Score, INFINITY, MATE, MAX_PLY};
pub use searcher::{NodeKind, Notice, Progress, RootMove, SearchOptions, Searcher, SplitCandidate, StarTechRules, SplitWindow, Subproblem, TreeEvent, TreePath, MAX_TREE_PLY};
pub use see::see;
pub use strength::{Strength, CANDIDATE_LINES, MAX_ELO, MIN_ELO};
pub use time::{Budget, Limits, StopRules};
