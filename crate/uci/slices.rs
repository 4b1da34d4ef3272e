//! Searches run in slices, for a host with one thread that must go back to its event loop
//! to hear `stop` (the browser's single build: without shared memory no other thread can
//! set a stop flag while a search holds the thread). A [`SlicedSearch`] owns iterative
//! deepening and its searcher between slices; the runner advances it slice by slice, and
//! `stop`, `ponderhit` and `isready` are handled in between.
//!
//! One processor searches: the serial search, which is what every algorithm but the
//! work-splitting ones and TDSAB runs on one processor, and the only one a single thread
//! can interleave with its event loop (the others run on a machine until they end).

use super::search_job::SearchJob;
use super::Host;
use crate::clock::now_ms;
use crate::search::{Deepening, Searcher};

/// Steps (about one node each) between two looks at the clock.
const STEPS_PER_CLOCK_LOOK: u32 = 512;

/// What a host driving sliced searches should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slice {
    /// No search is left: wait for input.
    Idle,
    /// A search is under way: give it another slice soon (after looking at the input).
    Searching,
    /// The search is over but its answer waits for `stop` or `ponderhit` (`go infinite`,
    /// `go ponder`): wait for input.
    Held,
}

/// A search in progress between two slices.
pub struct SlicedSearch {
    job: SearchJob,
    deepening: Deepening,
    searcher: Searcher,
    /// Whether iterative deepening has ended (limits, `stop`, or nothing to search).
    ended: bool,
}

impl SlicedSearch {
    /// Starts `job` on `searcher` (processor 0's, kept between searches).
    pub fn start(job: SearchJob, mut searcher: Searcher) -> SlicedSearch {
        let (limits, settings) = job.effective_limits();
        searcher.set_table(job.tt.clone());
        searcher.set_busy_table(None);
        searcher.set_tree_plies(0);
        job.tt.new_search();
        let deepening = Deepening::new(job.game.board(), job.game.history(), &limits, &settings);
        SlicedSearch { job, deepening, searcher, ended: false }
    }

    /// Searches for about `slice_ms` milliseconds (less when the search ends). Returns
    /// [`Slice::Idle`] once the search is over and may be answered.
    pub fn advance(&mut self, host: &dyn Host, slice_ms: f64) -> Slice {
        let start = now_ms();
        let mut printer = self.job.printer(host);
        while !self.ended {
            for _ in 0..STEPS_PER_CLOCK_LOOK {
                if self.deepening.step(&mut self.searcher, &self.job.tt, &self.job.control, &mut printer) {
                    self.ended = true;
                    break;
                }
            }
            if !self.ended && now_ms() - start >= slice_ms {
                return Slice::Searching;
            }
        }
        let control = &self.job.control;
        if !control.stopped() && (self.job.limits.infinite || control.pondering()) {
            Slice::Held
        } else {
            Slice::Idle
        }
    }

    /// The job being searched.
    pub fn job(&self) -> &SearchJob {
        &self.job
    }

    /// The `bestmove` answer of the ended search, and the searcher to keep.
    pub fn finish(self) -> (super::Event, Searcher) {
        let result = self.deepening.finish(&self.searcher);
        (self.job.answer(&result), self.searcher)
    }
}
