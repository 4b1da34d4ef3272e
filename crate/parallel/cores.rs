//! The other cores of one processor: while its program searches a job another processor
//! gave it (a work-splitting subproblem, an APHID leaf), helper threads search the same
//! job over the processor's table, as Play's threads search one root (Lazy SMP,
//! [`super::lazysmp`]). A class member that is a laptop of four cores is then four cores
//! at every job, not one, and no algorithm changes: the job's value is still the one its
//! program's own searcher finds; the helpers only fill the table it reads.
//!
//! The idea: the helpers' entries give the program's searcher best moves and (outside pure
//! mode) cutoffs ahead of it, so its tree shrinks. Odd helpers search one ply deeper than
//! the job asks, as Lazy SMP's odd threads do, so the helpers do not all repeat one
//! search; a helper done with its search goes one ply deeper still, until the job ends.
//!
//! Invariants:
//! - the job's value is its program's searcher's: in pure mode the table only orders
//!   moves, so the value stays the serial one whatever the helpers stored;
//! - helpers search the newest job the program holds that has not ended (a split program
//!   may hold several, and steps the oldest that can go on: the newest is the one that
//!   most often can); with none they sleep on a condition variable;
//! - threads start once, with the processor ([`Cores::new`]), never per job or search; a
//!   job costs one copy of its subproblem, a node nothing but the search itself;
//! - a search's node count includes its helpers' ([`OnCores`]): a processor that ends
//!   its search first waits until every helper has stopped ([`Cores::settle`]), within a
//!   few hundred nodes, so that its count is whole.

use crate::machine::{Activity, Processor, Program};
use crate::search::{SearchOptions, Subproblem, TreePath};
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The most threads a processor searches with: far more cores than any laptop or tab
/// has, and few enough that a typing slip (`--threads 1000`) is refused, not obeyed.
pub const MAX_THREADS: usize = 64;

/// A node count on a cache line of its own (each helper writes its own often).
#[repr(align(128))]
#[derive(Default)]
struct Count(AtomicU64);

/// What the helpers read under the lock.
struct State {
    /// The jobs the program holds, oldest first, each with its key.
    jobs: Vec<(u64, Arc<Subproblem>)>,
    table: Option<Arc<TranspositionTable>>,
    options: SearchOptions,
    /// Raised whenever the newest job changes (or the processor ends): a helper whose
    /// number differs drops its search and takes the new one.
    generation: u64,
    /// Helpers searching now.
    searching: usize,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    /// A new job, or the processor's end.
    changed: Condvar,
    /// A helper stopped searching.
    stopped: Condvar,
    /// `State::generation`, readable without the lock at every look.
    generation: AtomicU64,
    /// Each helper's nodes since it started.
    nodes: Vec<Count>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The newest job changed (or the end came): helpers take it at their next look.
    fn bump(&self, state: &mut State) {
        state.generation += 1;
        self.generation.store(state.generation, Ordering::Release);
        self.changed.notify_all();
    }
}

/// A processor's helper threads (none for a processor of one core).
pub struct Cores {
    shared: Arc<Shared>,
    /// Each helper's count when the current search began.
    base: Vec<u64>,
    #[cfg(not(target_arch = "wasm32"))]
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Cores {
    /// A processor searching on `threads` threads: its program's, and `threads - 1`
    /// helpers started here. More than [`MAX_THREADS`], none, or more than one where
    /// threads cannot start (a tab without shared memory) is an error.
    pub fn new(threads: usize) -> Result<Cores, String> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("{threads} threads: a processor searches on 1 to {MAX_THREADS}"));
        }
        let helpers = threads - 1;
        let state = State { jobs: Vec::new(), table: None, options: SearchOptions::default(), generation: 0, searching: 0, quit: false };
        let nodes = (0..helpers).map(|_| Count::default()).collect();
        let shared = Arc::new(Shared { state: Mutex::new(state), changed: Condvar::new(), stopped: Condvar::new(), generation: AtomicU64::new(0), nodes });
        #[cfg(not(target_arch = "wasm32"))]
        let threads = (0..helpers)
            .map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new().name(format!("meshmate core {}", i + 1)).spawn(move || helper::help(&shared, i)).map_err(|e| format!("cannot start a helper thread: {e}"))
            })
            .collect::<Result<Vec<_>, String>>()?;
        // In the browser a wasm module starts no thread: the helpers take workers of the
        // rayon pool (wasm-bindgen-rayon's), which must have room for them.
        #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
        {
            if helpers >= rayon::current_num_threads() {
                return Err(format!("{threads} threads, and the page's pool has {}", rayon::current_num_threads()));
            }
            for i in 0..helpers {
                let shared = shared.clone();
                rayon::spawn(move || helper::help(&shared, i));
            }
        }
        #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
        if helpers > 0 {
            return Err("a page without shared memory searches on one thread".to_string());
        }
        Ok(Cores { base: vec![0; helpers], shared, #[cfg(not(target_arch = "wasm32"))] threads })
    }

    /// A search begins: helpers search over `table` with `options` from now on, and
    /// their node counts start from zero.
    pub fn start_search(&mut self, table: &Arc<TranspositionTable>, options: SearchOptions) {
        let mut state = self.shared.lock();
        state.table = Some(table.clone());
        state.options = options;
        drop(state);
        self.base = self.shared.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).collect();
    }

    /// The program starts job `key` (unique among the jobs it holds): helpers search it.
    pub fn begin(&self, key: u64, job: &Subproblem) {
        if self.shared.nodes.is_empty() {
            return;
        }
        let mut state = self.shared.lock();
        state.jobs.push((key, Arc::new(job.clone())));
        self.shared.bump(&mut state);
    }

    /// Job `key` has ended (searched, cut, or given up): helpers go back to the newest
    /// job still held, or sleep.
    pub fn end(&self, key: u64) {
        if self.shared.nodes.is_empty() {
            return;
        }
        let mut state = self.shared.lock();
        let Some(i) = state.jobs.iter().position(|&(k, _)| k == key) else { return };
        state.jobs.remove(i);
        if i == state.jobs.len() {
            self.shared.bump(&mut state);
        }
    }

    /// Ends every job and waits until every helper has stopped, so that their node
    /// counts are whole (the processor's search is over).
    pub fn settle(&self) {
        if self.shared.nodes.is_empty() {
            return;
        }
        let mut state = self.shared.lock();
        if !state.jobs.is_empty() {
            state.jobs.clear();
            self.shared.bump(&mut state);
        }
        while state.searching > 0 {
            state = self.shared.stopped.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Each helper's nodes in the current search.
    pub fn nodes_by_helper(&self) -> Vec<u64> {
        self.shared.nodes.iter().zip(&self.base).map(|(c, base)| c.0.load(Ordering::Relaxed) - base).collect()
    }

    /// The helpers' nodes in the current search.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.iter().zip(&self.base).map(|(c, base)| c.0.load(Ordering::Relaxed) - base).sum()
    }
}

impl Drop for Cores {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.quit = true;
        self.shared.bump(&mut state);
        drop(state);
        #[cfg(not(target_arch = "wasm32"))]
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The helper threads' side (none start where threads cannot: a page without shared memory).
#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
mod helper {
    use super::super::lazysmp;
    use super::Shared;
    use crate::search::{Progress, Searcher, StarTechRules, Subproblem, MAX_PLY};
    use std::sync::atomic::Ordering;

    /// Nodes a helper searches between two looks at whether its job has changed (a few tens
    /// of microseconds), and between two updates of its node count.
    const NODES_PER_LOOK: u32 = 256;

    /// Plies a helper searches beyond the job's depth at most: the job is long over before a
    /// search that deep ends.
    const MAX_PLIES_AHEAD: i32 = 6;

    /// Helper `index`'s life: waits for a job, searches it until the job changes, again.
    pub(super) fn help(shared: &Shared, index: usize) {
        let mut searcher: Option<Searcher> = None;
        let mut seen = 0;
        loop {
            let mut state = shared.lock();
            while state.generation == seen && !state.quit {
                state = shared.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.quit {
                return;
            }
            seen = state.generation;
            let (Some((_, job)), Some(table)) = (state.jobs.last().cloned(), state.table.clone()) else { continue };
            let options = state.options;
            state.searching += 1;
            drop(state);
            let searcher = searcher.get_or_insert_with(|| Searcher::new(table.clone()));
            searcher.set_table(table);
            searcher.set_options(options);
            searcher.set_startech_rules(StarTechRules::OFF);
            search_until_changed(shared, index, searcher, &job, seen);
            shared.lock().searching -= 1;
            shared.stopped.notify_all();
        }
    }

    /// Searches `job` ever deeper, from Lazy SMP's depth for helper `index`, until the
    /// generation moves past `seen`.
    fn search_until_changed(shared: &Shared, index: usize, searcher: &mut Searcher, job: &Subproblem, seen: u64) {
        let count = &shared.nodes[index].0;
        let mut problem = job.clone();
        problem.depth += lazysmp::depth_offset(index + 1);
        let deepest = (job.depth + MAX_PLIES_AHEAD).min((MAX_PLY - 1 - job.ply) as i32);
        let mut counted = searcher.nodes();
        while problem.depth <= deepest {
            searcher.start_subproblem(&problem);
            let mut until_look = NODES_PER_LOOK;
            loop {
                let done = !matches!(searcher.step(), Progress::Running);
                until_look -= 1;
                if until_look == 0 || done {
                    until_look = NODES_PER_LOOK;
                    count.fetch_add(searcher.nodes() - counted, Ordering::Relaxed);
                    counted = searcher.nodes();
                    if !done && shared.generation.load(Ordering::Acquire) != seen {
                        searcher.abandon();
                        return;
                    }
                }
                if done {
                    break;
                }
            }
            if shared.generation.load(Ordering::Acquire) != seen {
                return;
            }
            problem.depth += 1;
        }
    }
}

/// A program whose processor searches on several threads: its node count includes the
/// helpers', and it ends only once they have stopped. The program itself marks its jobs
/// ([`Cores::begin`], [`Cores::end`]).
pub(super) struct OnCores<'a, P> {
    pub program: P,
    pub cores: &'a Cores,
}

impl<P: Program> Program for OnCores<'_, P> {
    type Message = P::Message;

    fn step(&mut self, processor: &mut dyn Processor<Self::Message>) -> Activity {
        let activity = self.program.step(processor);
        if activity == Activity::Finished {
            self.cores.settle();
        }
        activity
    }

    fn nodes(&self) -> u64 {
        self.program.nodes() + self.cores.nodes()
    }

    fn line(&self) -> Option<TreePath> {
        self.program.line()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{NodeKind, INFINITY};
    use cozy_chess::Board;

    fn job(depth: i32) -> Subproblem {
        Subproblem { board: Board::default(), path: Vec::new(), alpha: -INFINITY, beta: INFINITY, depth, ply: 0, kind: NodeKind::Pv, line: TreePath::default(), killers: Default::default() }
    }

    #[test]
    fn no_threads_or_too_many_is_an_error() {
        assert!(Cores::new(0).err().is_some_and(|e| e.contains("1 to 64")));
        assert!(Cores::new(MAX_THREADS + 1).is_err());
    }

    #[test]
    fn helpers_follow_the_newest_open_job_and_settle_stops_even_a_search_that_would_not_end() {
        let table = Arc::new(TranspositionTable::try_new(1).unwrap());
        let mut cores = Cores::new(2).unwrap();
        cores.start_search(&table, SearchOptions::default());
        let newest = |cores: &Cores| cores.shared.lock().jobs.last().map(|&(key, _)| key);
        let generation = |cores: &Cores| cores.shared.generation.load(Ordering::Acquire);
        cores.begin(1, &job(40));
        cores.begin(2, &job(40));
        let on_two = generation(&cores);
        cores.end(1);
        assert_eq!((newest(&cores), generation(&cores)), (Some(2), on_two), "an older job's end leaves the helpers where they are");
        cores.end(2);
        assert_eq!((newest(&cores), generation(&cores)), (None, on_two + 1), "the newest job's end stops them");
        // A 40-ply search of the start position does not end: only the settle stops it.
        cores.begin(3, &job(40));
        while cores.nodes() == 0 {
            std::thread::yield_now();
        }
        cores.settle();
        let state = cores.shared.lock();
        assert_eq!((state.searching, state.jobs.len()), (0, 0));
    }
}
