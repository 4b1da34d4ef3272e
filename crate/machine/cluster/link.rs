//! The seam between the cluster machine and what carries its frames: MPI between the
//! ranks of a job (`mpi`, feature `cluster`), or the class's relay between browser tabs
//! and processes (`relay`, feature `relay`; the browser's own link in `crate::wasm`).
//! The machine, its processors and the programs are the same over every link.

use crate::machine::frame::Frame;
use crate::machine::Counters;
use crate::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Duration;

/// What arrived on a link.
pub enum Arrival {
    /// A frame from another processor.
    Frame(Frame),
    /// The link declares this processor gone (a tab closed, crashed or went silent):
    /// after every frame it sent, and nothing from it after.
    Lost(usize),
}

/// One processor's end of the link between the processors of a search.
pub trait Link {
    /// This processor's number.
    fn rank(&self) -> usize;
    /// How many processors take part.
    fn size(&self) -> usize;
    /// Sends the frame `bytes` to processor `to` without waiting for it.
    fn send(&mut self, to: usize, bytes: Vec<u8>);
    /// What has arrived, if anything, in the order it came from each sender.
    fn receive(&mut self) -> Option<Arrival>;
    /// Waits up to `within` for something to arrive, without taking it ([`Link::receive`]
    /// does); returns whether this link can wait so. A link whose arrivals come through a
    /// channel (the relay's socket thread) blocks on it and wakes when one comes, using no
    /// processor time meanwhile. The default cannot (MPI's tests return at once): it
    /// returns false, and its caller looks again and again, napping between.
    fn await_arrival(&mut self, _within: Duration) -> bool {
        false
    }
    /// Whether a round trip over this link may cost as much as a subtree's search, so
    /// that processor 0 measures it and the members' speeds when a search starts
    /// (`Processor::round_trip_ns`): a class's relay; not MPI, whose round trips take
    /// microseconds and whose programs follow the papers' rules.
    fn round_trip_matters(&self) -> bool {
        false
    }
    /// Completes what it can of the sends in flight. A link whose sends leave at once
    /// (into a socket's thread or the page's queue) has none: the defaults say so.
    fn finish_sends(&mut self) {}
    /// Whether sends are still in flight.
    fn sending(&self) -> bool {
        false
    }
    /// The processors that sends still in flight go to.
    fn sending_to(&self) -> Vec<usize> {
        Vec::new()
    }
    /// Gives up the sends still in flight, to processors that no longer answer.
    fn abandon(&mut self) {}
    /// Processor `processor` broke the end of a search (`why`: its DONE unreadable, or
    /// none in time). Whether the link goes on without it, as without a processor that
    /// vanished: then it takes part in no later search. A link whose processors are fixed
    /// (MPI: a job's ranks) cannot, and the machine stops searching together.
    fn expel(&mut self, _processor: usize, _why: &str) -> bool {
        false
    }

    /// The number of the search processor 0 starts now: `proposed` (one more than the
    /// last), or the link's own where it numbers searches (the relay does, per session).
    fn next_search(&mut self, proposed: u32) -> u32 {
        proposed
    }
    /// Processor 0's search is over, every DONE in (the relay then lets late joiners in).
    fn search_over(&mut self) {}

    /// A search together starts (`search`) or is over (`None`): where the link carries
    /// Zugzwang's distributed table, it serves it only during one.
    fn table_search(&mut self, _search: Option<u32>) {}
    /// Serves a table frame that reached this processor (MPI only).
    fn serve_table(&mut self, _frame: &Frame) {}
    /// Adds the table frames sent and received since the last call to processor `id`'s
    /// counters.
    fn count_table_into(&self, _counters: &Counters, _id: usize) {}
    /// This processor's part of a distributed table, where the link carries one.
    fn table_part(&self, _mib: usize) -> Result<Arc<TranspositionTable>, String> {
        Err("this link carries no distributed table: each processor keeps a table of its own".to_string())
    }
}
