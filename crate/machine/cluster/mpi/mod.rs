//! The MPI link: frames between ranks, one MPI message each, on one tag of the world
//! communicator, so MPI's order per sender and receiver is the order of everything a rank
//! says to another. It also carries Zugzwang's distributed table ([`table`]), whose
//! lookups wait for their answers inside a searcher's step.
//!
//! Sends are non-blocking and their buffers are kept until MPI is done with them: a
//! blocking send of a message past MPI's eager limit waits for its receiver, and two
//! ranks sending each other such messages at once would wait for ever. Every rank keeps
//! receiving while its sends are pending, so they all complete.

mod table;

pub use table::{table_part, ANSWER_TIMEOUT_MS};

use super::link::{Arrival, Link};
use crate::machine::frame::{Frame, SmallFrame};
use crate::machine::Counters;
use crate::tt::TranspositionTable;
use std::sync::Arc;
use mpi::datatype::Equivalence;
use mpi::point_to_point::{Destination, Source};
use mpi::request::{Request, StaticScope};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::collections::VecDeque;
use std::sync::Mutex;

/// Frames taken off MPI by a reader that was waiting for another one (a lookup in the
/// distributed table waits inside a searcher's step), for the next [`MpiLink::receive`]:
/// every reader of this process sees every frame once, in the order it came.
static SET_ASIDE: Mutex<VecDeque<Frame>> = Mutex::new(VecDeque::new());

/// Leaves `frame` for the next [`MpiLink::receive`] of this process.
fn set_aside(frame: Frame) {
    SET_ASIDE.lock().unwrap_or_else(|e| e.into_inner()).push_back(frame);
}

/// A send MPI has not finished with.
struct Sending {
    request: Request<'static, [u8]>,
    /// The buffer it reads: leaked in [`MpiLink::send`], freed once the request completes.
    buffer: *mut [u8],
    to: usize,
}

/// A rank's end of the link: its sends in flight, and the world it talks to.
pub struct MpiLink {
    world: SimpleCommunicator,
    pending: Vec<Sending>,
}

// SAFETY: MPI is initialised with multiple-thread support (meshmate-cluster refuses
// less than serialized), and one thread at a time uses a link (the machine behind its
// mutex); the buffers of sends in flight are the link's own, leaked until MPI is done.
unsafe impl Send for MpiLink {}

impl MpiLink {
    /// The world communicator, seen from the calling thread (MPI is initialised with
    /// multiple-thread support; one thread at a time uses it). No `Default`: a link needs
    /// MPI initialised first, which a default value would hide.
    #[allow(clippy::new_without_default)]
    pub fn new() -> MpiLink {
        MpiLink { world: SimpleCommunicator::world(), pending: Vec::new() }
    }

    /// Sends a small frame at once, from the caller's stack: MPI sends a message that
    /// small eagerly, so this never waits for the receiver.
    fn send_small(&self, to: usize, frame: &SmallFrame) {
        self.world.process_at_rank(to as i32).send(frame.bytes());
    }

    /// The next frame that has arrived off MPI, if any, passing over those set aside. A
    /// frame that does not parse is dropped with a message on standard error (a rank of
    /// another build, or corruption).
    fn receive_new(&mut self) -> Option<Frame> {
        loop {
            let (message, status) = self.world.any_process().immediate_matched_probe()?;
            let mut bytes = vec![0u8; status.count(u8::equivalent_datatype()).max(0) as usize];
            message.matched_receive_into(&mut bytes[..]);
            let from = status.source_rank() as usize;
            match Frame::parse(from, bytes) {
                Ok(frame) => return Some(frame),
                Err(e) => eprintln!("meshmate-cluster: rank {}: a frame from rank {from} dropped: {e}", self.rank()),
            }
        }
    }

    /// Ends the whole job at once with `message` on standard error (a rank that does not
    /// answer: MPI gives no way to go on without it).
    pub fn abort(&self, message: &str) -> ! {
        eprintln!("meshmate-cluster: {message}");
        self.world.abort(70)
    }
}

impl Link for MpiLink {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&mut self, to: usize, bytes: Vec<u8>) {
        let buffer: &'static mut [u8] = Box::leak(bytes.into_boxed_slice());
        let raw: *mut [u8] = buffer;
        // SAFETY: `raw` stays valid until the request completes (see `finish_sends`), and
        // nothing writes it meanwhile.
        let request = self.world.process_at_rank(to as i32).immediate_send(StaticScope, unsafe { &*raw });
        self.pending.push(Sending { request, buffer: raw, to });
    }

    /// Frames set aside first. A rank that dies ends the job (OpenMPI aborts every rank),
    /// so MPI never reports one lost.
    fn receive(&mut self) -> Option<Arrival> {
        let set_aside = SET_ASIDE.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
        set_aside.or_else(|| self.receive_new()).map(Arrival::Frame)
    }

    /// Frees the buffers of completed sends.
    fn finish_sends(&mut self) {
        let mut still = Vec::with_capacity(self.pending.len());
        for Sending { request, buffer, to } in self.pending.drain(..) {
            match request.test() {
                // SAFETY: MPI is done with the buffer, leaked in `send` and freed once here.
                Ok(_) => drop(unsafe { Box::from_raw(buffer) }),
                Err(request) => still.push(Sending { request, buffer, to }),
            }
        }
        self.pending = still;
    }

    fn sending(&self) -> bool {
        !self.pending.is_empty()
    }

    fn sending_to(&self) -> Vec<usize> {
        self.pending.iter().map(|s| s.to).collect()
    }

    /// Requests and buffers are left to MPI (a request may not be dropped unfinished),
    /// which the job's end reclaims: only for a job about to end.
    fn abandon(&mut self) {
        for sending in self.pending.drain(..) {
            std::mem::forget(sending.request);
        }
    }

    fn table_search(&mut self, search: Option<u32>) {
        match search {
            Some(search) => {
                table::forget_counts();
                table::begin(search);
            }
            None => table::end(),
        }
    }

    fn serve_table(&mut self, frame: &Frame) {
        table::serve(self, frame);
    }

    fn count_table_into(&self, counters: &Counters, id: usize) {
        table::count_into(counters, id);
    }

    fn table_part(&self, mib: usize) -> Result<Arc<TranspositionTable>, String> {
        table_part(mib).map_err(|e| e.to_string())
    }
}

impl Drop for MpiLink {
    /// Waits for the sends still in flight: MPI must not be left reading freed buffers.
    fn drop(&mut self) {
        for Sending { request, buffer, .. } in self.pending.drain(..) {
            request.wait();
            // SAFETY: as in `finish_sends`.
            drop(unsafe { Box::from_raw(buffer) });
        }
    }
}
