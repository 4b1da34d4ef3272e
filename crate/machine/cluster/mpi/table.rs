//! Zugzwang's distributed table over MPI: one table split among the ranks, the entry of
//! hash h held by rank h mod p (`tt::owner`), each rank's part `Hash` MiB, so that p
//! ranks keep p times the entries of one.
//!
//! - **Lookup.** A searcher entering a node whose entry another rank holds sends that
//!   rank a TABLE-REQUEST and waits for the TABLE-ANSWER before it goes on (the searcher
//!   reads its table synchronously; Zugzwang overlapped the wait with the node's own
//!   work, which the simulator models: `machine::sim::table`). While it waits it serves
//!   the requests and stores that reach its own part, so two ranks waiting on each other
//!   both get their answers; every other frame is set aside for the processor.
//! - **Store.** A finished node's result goes to its holder as a TABLE-PUT; nobody waits.
//! - **The holder** serves requests and stores between its program's steps (the
//!   processor's every look for messages), and while it waits itself.
//! - **Outside a search of all ranks** (a serial search on rank 0, or after rank 0 has
//!   said FINISHED) the part serves as a whole table of its own: nobody would answer.
//!
//! Frames carry the search's number, and a lookup's its own, so a late answer is never
//! taken for another. A rank that leaves a lookup unanswered for [`ANSWER_TIMEOUT_MS`] is
//! lost (stopped, or cut off): the job ends naming it, as when a rank dies.
//!
//! The state here is the process's, as the MPI world is: one rank per process, one
//! distributed table in use at a time.

use super::{set_aside, MpiLink};
use crate::machine::cluster::link::Link;
use crate::machine::frame::{Frame, FrameKind, SmallFrame};
use crate::machine::wire::Reader;
use crate::machine::{Counters, MessageKind};
use crate::tt::{owner, AllocError, Entry, RemoteParts, TranspositionTable};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Weak};

/// How long a lookup waits for its answer before the holder counts as lost: as long as
/// rank 0 waits for a rank's end of a search (an answer normally takes microseconds).
pub const ANSWER_TIMEOUT_MS: f64 = crate::machine::cluster::DONE_TIMEOUT_MS;

/// Looks for the answer before a waiting lookup yields its core.
const SPINS: u32 = 2_000;

/// The search all ranks are in now, whose table frames this process serves (0: none).
static SEARCH: AtomicU32 = AtomicU32::new(0);

/// The number of this process's last lookup (answers echo it).
static ASKED: AtomicU32 = AtomicU32::new(0);

/// Table frames sent and received since the counters last took them: request, answer,
/// put.
static SENT: [AtomicU64; 3] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
static RECEIVED: [AtomicU64; 3] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];

/// The part this process holds for the current search, whose entries it serves.
static HELD: Mutex<Weak<TranspositionTable>> = Mutex::new(Weak::new());

/// This process's part of a distributed table of `Hash` = `mib` MiB a rank.
pub fn table_part(mib: usize) -> Result<Arc<TranspositionTable>, AllocError> {
    let wire = MpiLink::new();
    Ok(Arc::new(TranspositionTable::try_part(mib, Box::new(OtherRanks { rank: wire.rank(), ranks: wire.size() }))?))
}

/// From now on the ranks search together as search `search`: the table's frames go out.
pub(super) fn begin(search: u32) {
    SEARCH.store(search, Relaxed);
}

/// The search together is over (processor 0 has finished): the part serves alone again.
pub(super) fn end() {
    SEARCH.store(0, Relaxed);
}

/// The table frames counted since the last call, into processor `id`'s counters.
pub(super) fn count_into(counters: &Counters, id: usize) {
    for (i, kind) in [MessageKind::TtRequest, MessageKind::TtAnswer, MessageKind::TtPut].into_iter().enumerate() {
        counters.add_messages(id, kind, SENT[i].swap(0, Relaxed), RECEIVED[i].swap(0, Relaxed));
    }
}

/// Forgets what was counted (a new search starts).
pub(super) fn forget_counts() {
    for counter in SENT.iter().chain(&RECEIVED) {
        counter.store(0, Relaxed);
    }
}

/// Serves a table frame that reached this process: a lookup in its part is answered, a
/// store made. Frames of another search than the current one are dropped (their asker
/// has stopped waiting), and so is an answer no lookup waits for any more.
pub(super) fn serve(wire: &MpiLink, frame: &Frame) {
    let search = SEARCH.load(Relaxed);
    if frame.search != search || search == 0 {
        return;
    }
    let Some(held) = HELD.lock().unwrap_or_else(|e| e.into_inner()).upgrade() else { return };
    let mut r = Reader::new(&frame.body);
    let (Ok(first), Ok(second)) = (r.u64(), r.u64()) else { return };
    match frame.kind {
        FrameKind::TableRequest => {
            RECEIVED[0].fetch_add(1, Relaxed);
            let entry = held.probe_here(second).map_or(0, |e| e.pack());
            wire.send_small(frame.from, &SmallFrame::new(FrameKind::TableAnswer, search, first, entry));
            SENT[1].fetch_add(1, Relaxed);
        }
        FrameKind::TablePut => {
            RECEIVED[2].fetch_add(1, Relaxed);
            if second != 0 {
                held.store_here(first, Entry::unpack(second));
            }
        }
        _ => {}
    }
}

/// The other ranks' parts, seen from this rank's.
struct OtherRanks {
    rank: usize,
    ranks: usize,
}

impl RemoteParts for OtherRanks {
    fn elsewhere(&self, key: u64) -> Option<usize> {
        let part = owner(key, self.ranks);
        (part != self.rank && SEARCH.load(Relaxed) != 0).then_some(part)
    }

    /// A TABLE-REQUEST carries the lookup's number and the key; its answer the number
    /// and the packed entry (0: none).
    fn probe(&self, part: usize, key: u64, here: &TranspositionTable) -> Option<Entry> {
        let search = SEARCH.load(Relaxed);
        let asked = ASKED.fetch_add(1, Relaxed).wrapping_add(1) as u64;
        let mut wire = MpiLink::new();
        wire.send_small(part, &SmallFrame::new(FrameKind::TableRequest, search, asked, key));
        SENT[0].fetch_add(1, Relaxed);
        let start = crate::clock::now_ms();
        let mut looks = 0u32;
        loop {
            while let Some(frame) = wire.receive_new() {
                match frame.kind {
                    FrameKind::TableAnswer => {
                        let mut r = Reader::new(&frame.body);
                        if let (true, Ok(answered), Ok(data)) = (frame.search == search, r.u64(), r.u64()) {
                            if answered == asked {
                                RECEIVED[1].fetch_add(1, Relaxed);
                                return (data != 0).then(|| Entry::unpack(data));
                            }
                        }
                    }
                    FrameKind::TableRequest | FrameKind::TablePut => serve(&wire, &frame),
                    FrameKind::Finished if frame.search == search => {
                        // Processor 0 is done: the holder may have ended its part, so no
                        // answer need come. The processor still sees FINISHED.
                        end();
                        set_aside(frame);
                        return here.probe_here(key);
                    }
                    _ => set_aside(frame),
                }
            }
            looks = looks.wrapping_add(1);
            if looks.is_multiple_of(1024) && crate::clock::now_ms() - start > ANSWER_TIMEOUT_MS {
                wire.abort(&format!("rank {part} did not answer a table lookup within {} s", ANSWER_TIMEOUT_MS / 1000.0));
            }
            // Spin while the answer is likely on its way; then give the core to others
            // (ranks may outnumber cores, and the holder may be waiting for one).
            if looks < SPINS {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// A TABLE-PUT carries the key and the packed entry.
    fn store(&self, part: usize, key: u64, entry: Entry) {
        let search = SEARCH.load(Relaxed);
        MpiLink::new().send_small(part, &SmallFrame::new(FrameKind::TablePut, search, key, entry.pack()));
        SENT[2].fetch_add(1, Relaxed);
    }

    fn serve_from(&self, here: Weak<TranspositionTable>) {
        *HELD.lock().unwrap_or_else(|e| e.into_inner()) = here;
    }
}
