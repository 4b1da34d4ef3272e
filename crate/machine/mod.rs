//! Where processors run. An algorithm is a set of processor programs ([`Program`]); a
//! machine runs them. This session has the `threads` machine (real threads natively,
//! the web workers of the rayon pool in the browser); the simulated machine comes next
//! and runs the same programs in virtual time. Programs see only [`Processor`]: their
//! id, the processor count, and their counters — never threads or wasm.

mod counters;
mod threads;

pub use counters::{Counters, ProcessorSnapshot};
pub use threads::{available_processors, run_on_threads};

/// What a program's step left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// It has more work.
    Working,
    /// It is done with this search.
    Finished,
}

/// The code one processor runs: a resumable piece of an algorithm.
pub trait Program {
    /// Advances by one unit of work (one node of a searcher).
    fn step(&mut self, processor: &Processor<'_>) -> Activity;
    /// Positions this processor visited in the current search.
    fn nodes(&self) -> u64;
}

/// A program's view of the machine.
pub struct Processor<'a> {
    /// This processor's number, 0 for the one that reports to the user.
    pub id: usize,
    /// How many processors take part.
    pub count: usize,
    /// The machine's counters (this processor's and the others').
    pub counters: &'a Counters,
}
