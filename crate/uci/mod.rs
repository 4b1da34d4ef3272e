//! The UCI protocol, shared by the native binary and the browser worker.
//!
//! [`Engine`] takes input lines on the caller's thread and answers through a [`Host`].
//! Searches run on threads the host provides (see `runner`), so `stop`, `isready` and
//! new commands are handled while a search runs. Bad input is answered with
//! `info string error: ...` and changes nothing.

mod command;
mod options;
mod report;
mod runner;
mod search_job;
mod site;
mod slices;

pub use command::{parse, Command, MAX_SPEEDUP_ROUNDS};
pub use options::{declarations, Options, MAX_HASH_MIB, MAX_THREADS};
pub use report::Event;
pub use site::Site;
pub use slices::Slice;

use crate::chess::Game;
use crate::search::{SearchOptions, SearchSettings, Strength, DEFAULT_BENCH_DEPTH};
use crate::tt::{Placement, TranspositionTable};
use options::Effect;
use runner::{Job, Runner};
use search_job::SearchJob;
use std::sync::Arc;

/// What the protocol needs from the place it runs in: a way to report one output line,
/// and a way to run a search off the input thread so `stop` stays responsive.
pub trait Host: Send + Sync + 'static {
    /// Reports one output line as the values it is written from: a text host prints
    /// `event`'s UCI text (its `Display`); the browser worker posts the event, its text beside it.
    fn report(&self, event: Event);
    /// Runs `job` on another thread (natively a thread kept for the engine's jobs, a rayon pool thread in wasm).
    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>);
    /// Whether searches run in slices the host drives with [`Engine::resume`], going back
    /// to its event loop in between: for a host with one thread and no shared memory, where
    /// `stop` can only arrive between slices (the browser's single build). A spawned job
    /// then only starts the search.
    fn sliced(&self) -> bool {
        false
    }
}

/// The engine's name and authors as `uci` reports them.
pub const ENGINE_NAME: &str = concat!("meshmate ", env!("CARGO_PKG_VERSION"));

/// A UCI engine session: feed it input lines, it answers through its [`Host`].
pub struct Engine {
    host: Arc<dyn Host>,
    game: Game,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// Where the table lives (`Table`, offered on the cluster only).
    table: Placement,
    runner: Arc<Runner>,
    site: Site,
}

impl Engine {
    /// Creates a session that answers through `host` and searches on this process's threads.
    pub fn new(host: Arc<dyn Host>) -> Engine {
        Engine::at(host, Site::Threads)
    }

    /// Creates a session that answers through `host` and searches at `site`, with the
    /// site's defaults ([`Options::at`]).
    pub fn at(host: Arc<dyn Host>, site: Site) -> Engine {
        let options = Options::at(&site);
        let tt = TranspositionTable::try_new(options.hash_mib)
            .or_else(|_| TranspositionTable::try_new(1))
            .expect("a 1 MiB table can be allocated");
        let table = site.default_table();
        Engine { host, game: Game::default(), options, tt: Arc::new(tt), table, runner: Arc::new(Runner::new(site.clone())), site }
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Per-processor counters of the running (or last) search, sampled without locks.
    pub fn processors(&self) -> Vec<crate::machine::ProcessorSnapshot> {
        self.runner.processors()
    }

    /// Sliced host (see [`Host::sliced`]): searches for about `slice_ms` milliseconds,
    /// answering the search if it ends, and says what to do next.
    pub fn resume(&self, slice_ms: f64) -> Slice {
        self.runner.resume(&self.host, slice_ms)
    }

    /// Whether no search is queued or running.
    pub fn idle(&self) -> bool {
        self.runner.idle()
    }

    /// The input ended: searches that only `stop` could end are stopped; the others
    /// finish and answer.
    pub fn end_of_input(&self) {
        self.runner.stop_unbounded();
    }

    fn error(&self, message: &str) {
        self.host.report(Event::message(format!("error: {message}")));
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let command = match parse(line, &self.game) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return true;
            }
        };
        match command {
            Command::Uci => {
                self.host.report(Event::IdName { name: ENGINE_NAME.to_string() });
                self.host.report(Event::IdAuthor { author: "the meshmate developers".to_string() });
                declarations(&self.site).into_iter().chain(self.site.table_declaration()).for_each(|option| self.host.report(option));
                self.host.report(Event::Uciok);
            }
            Command::IsReady => self.host.report(Event::Readyok),
            Command::NewGame => {
                self.runner.stop_all();
                self.tt.clear();
                self.runner.submit(Job::ForgetHeuristics, &self.host);
            }
            Command::Position(game) => self.game = game,
            Command::Go(limits) => {
                self.runner.stop_all();
                let (algorithm, threads) = self.options.search_processors();
                let job = SearchJob {
                    game: self.game.clone(),
                    control: Arc::new(crate::search::Control::default()),
                    settings: SearchSettings {
                        multipv: self.options.multipv,
                        move_overhead: self.options.move_overhead,
                        options: SearchOptions { pure: self.options.pure, evaluation: self.options.search_evaluation(), ..SearchOptions::default() },
                    },
                    strength: self.options.limit_strength.then(|| Strength::new(self.options.elo)),
                    algorithm,
                    threads,
                    tt: self.tt.clone(),
                    limits,
                };
                job.control.reset(job.limits.ponder);
                self.runner.submit(Job::Search(Box::new(job)), &self.host);
            }
            Command::Stop => self.runner.stop_all(),
            Command::PonderHit => self.runner.ponderhit_all(),
            Command::SetOption { name, value } if name.eq_ignore_ascii_case("table") && self.site.table_declaration().is_some() => {
                if let Err(e) = self.set_table(value.as_deref()) {
                    self.error(&e);
                }
            }
            Command::SetOption { name, value } => match self.set_option_here(&name, value.as_deref()) {
                Ok(Effect::None) => {}
                Ok(Effect::ClearHash) => self.tt.clear(),
                Ok(Effect::ResizeHash(mib)) => self.resize_hash(mib),
                Err(e) => self.error(&e),
            },
            Command::Bench(depth) => self.runner.submit(Job::Bench(depth.unwrap_or(DEFAULT_BENCH_DEPTH), self.options.evaluation), &self.host),
            Command::Speedup(mut request) => {
                if let Err(e) = self.site_runs(&request.plan) {
                    self.error(&format!("speedup: {e}"));
                    return true;
                }
                if request.boards.is_empty() {
                    request.boards.push(self.game.board().clone());
                }
                // A table of the measurement's own, placed as the engine's is.
                let tt = match self.site.table(self.table, request.plan.hash_mib) {
                    Ok(tt) => tt,
                    Err(e) => {
                        self.error(&format!("speedup: {e}"));
                        return true;
                    }
                };
                self.runner.submit(Job::Speedup(Box::new(request), tt, Arc::new(crate::search::Control::default())), &self.host);
            }
            Command::Display => {
                self.host.report(Event::message(format!("fen {}", self.game.board())));
            }
            Command::Quit => {
                self.runner.stop_all();
                return false;
            }
            Command::Nothing => {}
        }
        true
    }

    /// Applies `setoption` unless the site cannot honour it (a cluster: a shared-memory
    /// algorithm, or another processor count than its ranks); a refusal changes nothing.
    fn set_option_here(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let mut changed = self.options.clone();
        let effect = changed.set(name, value)?;
        if let Some(why) = self.site.refuses(changed.algorithm) {
            return Err(format!("{why}; keeping {}", self.options.algorithm.name()));
        }
        if self.table != self.site.default_table() {
            changed.algorithm.accepts(self.table).map_err(|why| format!("{why}; keeping {} (Table is {})", self.options.algorithm.name(), self.table))?;
        }
        if let Some(processors) = self.site.fixed_processors().filter(|&p| p != changed.threads) {
            return Err(format!("Threads: every search uses all {processors} ranks of the cluster (mpirun -np sets them); threads per rank are not supported"));
        }
        self.options = changed;
        Ok(effect)
    }

    /// Whether the site can run every search of `plan`, or why not.
    fn site_runs(&self, plan: &crate::stats::SpeedupPlan) -> Result<(), String> {
        if let Some(why) = plan.algorithms.iter().find_map(|&a| self.site.refuses(a)) {
            return Err(why);
        }
        if self.table != self.site.default_table() {
            plan.algorithms.iter().try_for_each(|&a| a.accepts(self.table))?;
        }
        match self.site.fixed_processors() {
            Some(ranks) if plan.threads.iter().any(|&p| p != 1 && p != ranks) => Err(format!("threads: a parallel search on the cluster uses all {ranks} ranks (mpirun -np sets them); ask for 1 or {ranks}")),
            _ => Ok(()),
        }
    }

    /// `setoption name Table`: places the table as asked (an empty one of the same size),
    /// unless the site or the algorithm cannot; a refusal changes nothing.
    fn set_table(&mut self, value: Option<&str>) -> Result<(), String> {
        let placement: Placement = value.unwrap_or_default().parse()?;
        if !self.site.offers_table(placement) {
            return Err(format!("Table: '{placement}' is not offered here; keeping {}", self.table));
        }
        if placement != self.site.default_table() {
            self.options.algorithm.accepts(placement).map_err(|why| format!("Table: {why}; keeping {}", self.table))?;
        }
        if placement != self.table {
            self.runner.stop_all();
            self.tt = self.site.table(placement, self.tt.mib()).map_err(|e| format!("Table: {e}; keeping {}", self.table))?;
            self.table = placement;
        }
        Ok(())
    }

    /// Replaces the table; on refusal keeps the old one and says so.
    fn resize_hash(&mut self, mib: usize) {
        if mib == self.tt.mib() {
            return;
        }
        match self.site.table(self.table, mib) {
            Ok(tt) => {
                self.tt = tt;
                self.options.hash_mib = mib;
            }
            Err(e) => self.error(&format!("{e}; keeping the {} MiB table", self.tt.mib())),
        }
    }
}
