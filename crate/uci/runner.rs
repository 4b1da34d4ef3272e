//! Runs searches off the input thread, one at a time and in the order the `go`
//! commands came, so a burst of `position`/`go`/`stop` from a GUI ends with the last
//! search answered last. Jobs run on a thread the [`Host`] provides, which is not kept
//! busy while the queue is empty.

use super::command::SpeedupRequest;
use super::report::Event;
use super::search_job::SearchJob;
use super::slices::{Slice, SlicedSearch};
use super::Host;
use super::options::MAX_THREADS;
use super::site::Site;
use crate::eval::Evaluation;
use crate::machine::{Counters, Machine, ProcessorSnapshot, Threads};
use crate::parallel::{self, SearchRequest};
use crate::search::{bench, Control, Searcher, Task};
use crate::stats::{measure_speedup_on, SpeedupRow};
use crate::tt::TranspositionTable;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

/// Work for the search thread, in input order.
pub enum Job {
    /// Run a search and print `bestmove`.
    Search(Box<SearchJob>),
    /// Forget killers and history (new game).
    ForgetHeuristics,
    /// Run the bench at this depth with this evaluation (queued like a search, so `isready`
    /// stays answered).
    Bench(i32, Evaluation),
    /// Measure speedups, each row printed as `info string speedup {json}` and the end as
    /// `info string speedup done`; `stop` ends it early.
    Speedup(Box<SpeedupRequest>, Arc<TranspositionTable>, Arc<Control>),
}

struct State {
    queue: VecDeque<Job>,
    /// Controls of searches queued or running, so `stop` reaches all of them, each
    /// with whether it can only end by `stop` (infinite or ponder).
    active: Vec<(Arc<Control>, bool)>,
    /// Whether a thread is draining the queue.
    draining: bool,
}

/// The queue and the searchers it feeds (one per processor, kept between searches).
pub struct Runner {
    state: Mutex<State>,
    searchers: Mutex<Vec<Searcher>>,
    counters: Counters,
    site: Site,
    /// The threads machine of the searches at [`Site::Threads`], kept so that its helper
    /// threads outlive a search.
    threads: Mutex<Threads>,
    /// The search running in slices, if the host runs them so (see [`Host::sliced`]).
    sliced: Mutex<Option<SlicedSearch>>,
}

/// Locks a mutex, recovering it if a panicking thread poisoned it: the data behind
/// these locks stays consistent between operations.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Runner {
    /// An idle runner whose searches run at `site`.
    pub fn new(site: Site) -> Runner {
        Runner {
            state: Mutex::new(State { queue: VecDeque::new(), active: Vec::new(), draining: false }),
            searchers: Mutex::new(Vec::new()),
            counters: Counters::new(MAX_THREADS),
            site,
            threads: Mutex::new(Threads::default()),
            sliced: Mutex::new(None),
        }
    }

    /// Queues `job` and makes sure a thread is draining the queue.
    pub fn submit(self: &Arc<Self>, job: Job, host: &Arc<dyn Host>) {
        let mut state = lock(&self.state);
        match &job {
            Job::Search(s) => state.active.push((s.control.clone(), s.limits.infinite || s.limits.ponder)),
            Job::Speedup(_, _, control) => state.active.push((control.clone(), false)),
            Job::Bench(..) | Job::ForgetHeuristics => {}
        }
        state.queue.push_back(job);
        if !state.draining {
            state.draining = true;
            let runner = self.clone();
            let host2 = host.clone();
            host.spawn(Box::new(move || runner.drain(&host2)));
        }
    }

    /// Stops every queued and running search.
    pub fn stop_all(&self) {
        for (c, _) in &lock(&self.state).active {
            c.stop();
        }
    }

    /// Stops the searches that would otherwise wait for `stop` forever (input ended).
    pub fn stop_unbounded(&self) {
        for (c, _) in lock(&self.state).active.iter().filter(|(_, unbounded)| *unbounded) {
            c.stop();
        }
    }

    /// Passes `ponderhit` to the searches.
    pub fn ponderhit_all(&self) {
        for (c, _) in &lock(&self.state).active {
            c.ponderhit();
        }
    }

    /// Per-processor counters of the running (or last) search.
    pub fn processors(&self) -> Vec<ProcessorSnapshot> {
        self.counters.snapshot()
    }

    /// Whether no job is queued or running.
    pub fn idle(&self) -> bool {
        !lock(&self.state).draining
    }

    fn drain(&self, host: &Arc<dyn Host>) {
        loop {
            let job = {
                let mut state = lock(&self.state);
                match state.queue.pop_front() {
                    Some(job) => job,
                    None => {
                        state.draining = false;
                        return;
                    }
                }
            };
            match job {
                Job::Bench(depth, evaluation) => {
                    let result = bench(depth, evaluation, &mut |line| host.report(Event::Text { text: line.to_string() }));
                    host.report(Event::Bench { nodes: result.nodes, nps: result.nps() });
                }
                Job::ForgetHeuristics => {
                    for s in lock(&self.searchers).iter_mut() {
                        s.clear_heuristics();
                    }
                }
                Job::Speedup(request, tt, control) => {
                    let boards = request.boards;
                    let emit = &mut |row: &SpeedupRow| host.report(Event::Speedup { json: row.json() });
                    let measured = match &self.site {
                        Site::Threads => measure_speedup_on(&mut *lock(&self.threads), &tt, &boards, &request.plan, &control, emit),
                        #[cfg(feature = "cluster")]
                        Site::Cluster(cluster) => measure_speedup_on(&mut *lock(cluster), &tt, &boards, &request.plan, &control, emit),
                    };
                    if let Err(e) = measured {
                        host.report(Event::message(format!("error: speedup: {e}")));
                    }
                    lock(&self.state).active.retain(|(c, _)| !Arc::ptr_eq(c, &control));
                    host.report(Event::SpeedupDone);
                }
                Job::Search(job) if host.sliced() => {
                    // The queue waits (still draining) until `resume` has run it to its end.
                    let searcher = self.take_main_searcher(&job.tt);
                    *lock(&self.sliced) = Some(SlicedSearch::start(*job, searcher));
                    return;
                }
                Job::Search(job) => {
                    let control = job.control.clone();
                    let answer = self.run_search(*job, host);
                    lock(&self.state).active.retain(|(c, _)| !Arc::ptr_eq(c, &control));
                    // A processor lost on the way (a cluster's rank that stopped
                    // answering): the move found is still answered, then the engine ends.
                    let fault = self.site.fault();
                    if let Some(why) = &fault {
                        host.report(Event::message(format!("error: {why}; the engine ends")));
                    }
                    host.report(answer);
                    if let Some(why) = fault {
                        self.site.end(&why);
                    }
                }
            }
        }
    }

    /// Sliced host: advances the running search by a slice of about `slice_ms`; when it
    /// ends, answers it and starts the next queued job.
    pub fn resume(&self, host: &Arc<dyn Host>, slice_ms: f64) -> Slice {
        let mut slot = lock(&self.sliced);
        let Some(search) = slot.as_mut() else { return Slice::Idle };
        let slice = search.advance(host.as_ref(), slice_ms);
        if slice != Slice::Idle {
            return slice;
        }
        let search = slot.take().expect("a search was running");
        drop(slot);
        let control = search.job().control.clone();
        let (answer, searcher) = search.finish();
        lock(&self.searchers).insert(0, searcher);
        lock(&self.state).active.retain(|(c, _)| !Arc::ptr_eq(c, &control));
        host.report(answer);
        self.drain(host);
        if lock(&self.sliced).is_some() {
            Slice::Searching
        } else {
            Slice::Idle
        }
    }

    /// Processor 0's searcher, taken out of the pool for a sliced search.
    fn take_main_searcher(&self, tt: &Arc<TranspositionTable>) -> Searcher {
        let mut searchers = lock(&self.searchers);
        if searchers.is_empty() {
            Searcher::new(tt.clone())
        } else {
            searchers.remove(0)
        }
    }

    /// Runs one search at the runner's site and returns its `bestmove` answer.
    fn run_search(&self, job: SearchJob, host: &Arc<dyn Host>) -> Event {
        match &self.site {
            Site::Threads => self.run_search_on(&mut *lock(&self.threads), job, host),
            #[cfg(feature = "cluster")]
            Site::Cluster(cluster) => self.run_search_on(&mut *lock(cluster), job, host),
        }
    }

    fn run_search_on<Mach: Machine>(&self, machine: &mut Mach, job: SearchJob, host: &Arc<dyn Host>) -> Event {
        let mut searchers = lock(&self.searchers);
        let (limits, settings) = job.effective_limits();
        let board = job.game.board();
        let mut listener = job.printer(host.as_ref());
        let result = parallel::search(machine, &mut searchers, &job.tt, &SearchRequest { algorithm: job.algorithm, threads: job.threads, task: Task { board, history: job.game.history(), limits: &limits, settings: &settings } }, &job.control, &mut listener, &self.counters);
        // UCI: in infinite and ponder mode the answer waits for `stop` (or `ponderhit`).
        while !job.control.stopped() && (job.limits.infinite || job.control.pondering()) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        job.answer(&result)
    }
}

impl Default for Runner {
    fn default() -> Self {
        Runner::new(Site::Threads)
    }
}
