//! Processors that leave mid-search, as a class's do (a tab closed, a laptop asleep).
//!
//! The rules, as the relay keeps them (crate/relay): processor p leaving at t stops being
//! stepped (what its step under way sends still goes), messages to it are dropped, and
//! every other processor gets `Payload::lost(p)` once the machine has noticed
//! ([`LossNotice`]) and every message p sent it has arrived. Processor 0 never leaves: a
//! class without its lecturer is over. Nobody waits for a departed processor at the end.

use super::SimError;

/// How long after a processor leaves the others hear it is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LossNotice {
    /// Its connection closed (a tab shut, a process killed): the relay sees it at once.
    pub closed_ns: u64,
    /// It fell silent (a frozen tab): the relay waits for its beats that long.
    pub silent_ns: u64,
}

/// How a processor leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaving {
    /// Its connection closes.
    Closed,
    /// It stops answering, its connection still open.
    Silent,
}

/// One processor leaving a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    /// Which (never 0).
    pub processor: usize,
    /// When, in virtual nanoseconds from the run's start.
    pub at_ns: u64,
    /// Closed or silent (how soon the others notice).
    pub how: Leaving,
}

impl LossNotice {
    /// The delay before the others hear of a processor that left `how`.
    pub fn after(&self, how: Leaving) -> u64 {
        match how {
            Leaving::Closed => self.closed_ns,
            Leaving::Silent => self.silent_ns,
        }
    }
}

/// Refuses departures a machine of `processors` processors noticing losses as `notice`
/// cannot have.
pub(super) fn check(departures: &[Departure], processors: usize, notice: Option<LossNotice>, preset: &'static str) -> Result<(), SimError> {
    if notice.is_none() && !departures.is_empty() {
        return Err(SimError::Departure(format!("the {preset} machine's processors do not leave (its preset notices no loss)")));
    }
    for d in departures {
        if d.processor == 0 || d.processor >= processors {
            return Err(SimError::Departure(format!("processor {} cannot leave: processors 1 to {} may", d.processor, processors - 1)));
        }
        if departures.iter().filter(|o| o.processor == d.processor).count() > 1 {
            return Err(SimError::Departure(format!("processor {} leaves once", d.processor)));
        }
    }
    Ok(())
}
