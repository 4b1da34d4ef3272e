//! Frames between ranks: one MPI message each, on one tag of the world communicator, so
//! MPI's order per sender and receiver is the order of everything a rank says to
//! another. A frame is a kind byte, the number of the search it belongs to, and bytes.
//!
//! Sends are non-blocking and their buffers are kept until MPI is done with them: a
//! blocking send of a message past MPI's eager limit waits for its receiver, and two
//! ranks sending each other such messages at once would wait for ever. Every rank keeps
//! receiving while its sends are pending, so they all complete.

pub(super) use crate::machine::frame::{frame, Frame, FrameKind, SmallFrame};
use mpi::datatype::Equivalence;
use mpi::point_to_point::{Destination, Source};
use mpi::request::{Request, StaticScope};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::collections::VecDeque;
use std::sync::Mutex;

/// Frames taken off MPI by a reader that was waiting for another one (a lookup in the
/// distributed table waits inside a searcher's step), for the next [`Wire::receive`]:
/// every reader of this process sees every frame once, in the order it came.
static SET_ASIDE: Mutex<VecDeque<Frame>> = Mutex::new(VecDeque::new());

/// Leaves `frame` for the next [`Wire::receive`] of this process.
pub(super) fn set_aside(frame: Frame) {
    SET_ASIDE.lock().unwrap_or_else(|e| e.into_inner()).push_back(frame);
}

/// A send MPI has not finished with.
struct Sending {
    request: Request<'static, [u8]>,
    /// The buffer it reads: leaked in [`Wire::send`], freed once the request completes.
    buffer: *mut [u8],
    to: usize,
}

/// A rank's end of the wire: its sends in flight, and the world it talks to.
pub(super) struct Wire {
    world: SimpleCommunicator,
    pending: Vec<Sending>,
}

impl Wire {
    /// The world communicator, seen from the calling thread (MPI is initialised with
    /// multiple-thread support; one thread at a time uses it).
    pub fn new() -> Wire {
        Wire { world: SimpleCommunicator::world(), pending: Vec::new() }
    }

    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Sends `bytes` to rank `to` without waiting for it.
    pub fn send(&mut self, to: usize, bytes: Vec<u8>) {
        let buffer: &'static mut [u8] = Box::leak(bytes.into_boxed_slice());
        let raw: *mut [u8] = buffer;
        // SAFETY: `raw` stays valid until the request completes (see `finish_sends`), and
        // nothing writes it meanwhile.
        let request = self.world.process_at_rank(to as i32).immediate_send(StaticScope, unsafe { &*raw });
        self.pending.push(Sending { request, buffer: raw, to });
    }

    /// Sends a small frame at once, from the caller's stack: MPI sends a message that
    /// small eagerly, so this never waits for the receiver.
    pub fn send_small(&self, to: usize, frame: &SmallFrame) {
        self.world.process_at_rank(to as i32).send(frame.bytes());
    }

    /// Frees the buffers of completed sends.
    pub fn finish_sends(&mut self) {
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

    /// Whether sends are still in flight.
    pub fn sending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The ranks that sends still in flight go to.
    pub fn sending_to(&self) -> impl Iterator<Item = usize> + '_ {
        self.pending.iter().map(|s| s.to)
    }

    /// Gives up the sends still in flight, to a rank that no longer answers: their
    /// requests and buffers are left to MPI (a request may not be dropped unfinished),
    /// which the job's end reclaims. Only for a job about to end.
    pub fn abandon(&mut self) {
        for sending in self.pending.drain(..) {
            std::mem::forget(sending.request);
        }
    }

    /// The next frame that has arrived, if any (frames set aside first). A frame that
    /// does not parse is dropped with a message on standard error (a rank of another
    /// build, or corruption).
    pub fn receive(&mut self) -> Option<Frame> {
        if let Some(frame) = SET_ASIDE.lock().unwrap_or_else(|e| e.into_inner()).pop_front() {
            return Some(frame);
        }
        self.receive_new()
    }

    /// The next frame that has arrived off MPI, if any, passing over those set aside.
    pub fn receive_new(&mut self) -> Option<Frame> {
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

impl Drop for Wire {
    /// Waits for the sends still in flight: MPI must not be left reading freed buffers.
    fn drop(&mut self) {
        for Sending { request, buffer, .. } in self.pending.drain(..) {
            request.wait();
            // SAFETY: as in `finish_sends`.
            drop(unsafe { Box::from_raw(buffer) });
        }
    }
}
