//! What the relay has yet to send one connection, in two halves: the session holds the
//! [`Outbox`] and puts messages in; the connection's task holds the [`Inbox`] and writes
//! them to its socket when they are due.
//!
//! Order: a frame is due its injected delay after it was accepted, a control message as
//! soon as everything put in before it (so `lost` follows every frame of the lost
//! processor, `ended` every frame of the search), and a frame never before a control
//! message put in before it. The owner's trace and members lists go aside: at once, in
//! no order with the frames. Within one (sender, receiver) pair the delay is the same for
//! every frame of a search, so the pair's frames leave in the order they came.
//!
//! Bound: at most [`Bound::messages`] messages and [`Bound::bytes`] bytes wait (a
//! member's [`Bound::MEMBER`], the owner's larger [`Bound::OWNER`]: every frame of the
//! class passes processor 0), and in all the relay's queues together at most
//! [`Total`]'s bytes; a connection that cannot keep up overflows and is cut off, and
//! memory never grows with a slow tab, nor with many. What may be left out (the owner's trace) goes
//! in only while less than half the bound waits, so it never overflows it.

use super::protocol::Event;
use axum::extract::ws::Message;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// The most a connection's queue holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Messages waiting.
    pub messages: usize,
    /// Bytes waiting.
    pub bytes: usize,
}

impl Bound {
    /// A member's queue.
    pub const MEMBER: Bound = Bound { messages: 8192, bytes: 16 << 20 };
    /// The owner's: processor 0 hears from every member, and its trace waits here too.
    pub const OWNER: Bound = Bound { messages: 4 * 8192, bytes: 64 << 20 };
}

/// Why and how a connection is closed: the code and reason of its close frame, after one
/// last text message if given.
#[derive(Clone, Debug)]
pub struct Closing {
    pub code: u16,
    pub reason: String,
    pub last: Option<String>,
}

/// A connection's queue is full: it cannot keep up.
#[derive(Debug)]
pub struct Overflow;

/// A message waiting in an [`Inbox`].
#[derive(Debug)]
pub struct Queued {
    due: Instant,
    order: u64,
    /// What goes on the socket.
    pub message: Message,
    /// The `deliver` event to record once it is written, for frames.
    pub delivered: Option<Event>,
    bytes: usize,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Queued) -> bool {
        (self.due, self.order) == (other.due, other.order)
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Queued) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    /// Reversed, so the earliest due (first put in on a tie) is the heap's top.
    fn cmp(&self, other: &Queued) -> Ordering {
        (other.due, other.order).cmp(&(self.due, self.order))
    }
}

/// The bytes waiting in all the relay's queues together, and the most there may be.
#[derive(Debug)]
pub struct Total {
    bytes: AtomicUsize,
    max: usize,
}

impl Total {
    /// Room for `max` bytes in all queues together.
    pub fn new(max: usize) -> Arc<Total> {
        Arc::new(Total { bytes: AtomicUsize::new(0), max })
    }
}

/// How much waits for a connection: both halves count it.
#[derive(Debug, Default)]
struct Load {
    messages: AtomicUsize,
    bytes: AtomicUsize,
}

/// The session's half of a connection's queue.
pub struct Outbox {
    queue: mpsc::UnboundedSender<Queued>,
    load: Arc<Load>,
    bound: Bound,
    total: Arc<Total>,
    closing: watch::Sender<Option<Closing>>,
    /// The latest due time put in so far: control messages go after it.
    latest: Instant,
    /// The due time of the last control message: frames go after it.
    barrier: Instant,
    order: u64,
}

/// The connection's half.
pub struct Inbox {
    queue: mpsc::UnboundedReceiver<Queued>,
    load: Arc<Load>,
    total: Arc<Total>,
    closing: watch::Receiver<Option<Closing>>,
    waiting: BinaryHeap<Queued>,
}

/// What an [`Inbox`] has for its connection next.
pub enum Next {
    /// A message due now.
    Send(Queued),
    /// Close: with this close frame, or a plain one (the session let the connection go).
    Close(Option<Closing>),
}

/// A connection's queue, both halves, holding at most `bound` and taking its bytes from
/// `total`.
pub fn queue(bound: Bound, total: Arc<Total>) -> (Outbox, Inbox) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let (closing, closed) = watch::channel(None);
    let load = Arc::new(Load::default());
    let now = Instant::now();
    let outbox = Outbox {
        queue: sender,
        load: load.clone(),
        bound,
        total: total.clone(),
        closing,
        latest: now,
        barrier: now,
        order: 0,
    };
    (outbox, Inbox { queue: receiver, load, total, closing: closed, waiting: BinaryHeap::new() })
}

impl Outbox {
    /// Puts in a control message, due after everything put in before it.
    pub fn control(&mut self, text: &str) -> Result<(), Overflow> {
        let due = self.latest.max(Instant::now());
        self.barrier = due;
        self.put(due, Message::Text(text.into()), None)
    }

    /// Puts in a message that says nothing about the frames (the owner's trace and
    /// members): due at once, and no barrier to the frames after it.
    pub fn aside(&mut self, text: &str) -> Result<(), Overflow> {
        self.put(Instant::now(), Message::Text(text.into()), None)
    }

    /// Puts in a message that may be left out (the owner's trace): due at once like
    /// [`Outbox::aside`], but only while less than half the queue's bound waits. Says
    /// whether it went in; it never overflows the queue.
    pub fn lossy(&mut self, text: String) -> bool {
        let (messages, bytes) = (self.load.messages.load(Relaxed), self.load.bytes.load(Relaxed));
        let total = self.total.bytes.load(Relaxed);
        if 2 * messages >= self.bound.messages
            || 2 * (bytes + text.len()) > self.bound.bytes
            || 2 * (total + text.len()) > self.total.max
        {
            return false;
        }
        self.put(Instant::now(), Message::Text(text.into()), None).is_ok()
    }

    /// Puts in a frame, due `delay` from now but not before the last control message.
    pub fn frame(&mut self, frame: Vec<u8>, delay: Duration, delivered: Event) -> Result<(), Overflow> {
        let due = (Instant::now() + delay).max(self.barrier);
        self.put(due, Message::Binary(frame.into()), Some(delivered))
    }

    fn put(&mut self, due: Instant, message: Message, delivered: Option<Event>) -> Result<(), Overflow> {
        let bytes = match &message {
            Message::Text(text) => text.len(),
            Message::Binary(bytes) => bytes.len(),
            _ => 0,
        };
        if self.load.messages.load(Relaxed) >= self.bound.messages
            || self.load.bytes.load(Relaxed) + bytes > self.bound.bytes
            || self.total.bytes.load(Relaxed) + bytes > self.total.max
        {
            return Err(Overflow);
        }
        self.load.messages.fetch_add(1, Relaxed);
        self.load.bytes.fetch_add(bytes, Relaxed);
        self.total.bytes.fetch_add(bytes, Relaxed);
        self.latest = self.latest.max(due);
        self.order += 1;
        // The connection's task may have ended; then nobody reads, and nothing waits.
        if let Err(mpsc::error::SendError(gone)) =
            self.queue.send(Queued { due, order: self.order, message, delivered, bytes })
        {
            self.load.messages.fetch_sub(1, Relaxed);
            self.load.bytes.fetch_sub(gone.bytes, Relaxed);
            self.total.bytes.fetch_sub(gone.bytes, Relaxed);
        }
        Ok(())
    }

    /// Closes the connection now: what waits is dropped.
    pub fn close(&self, closing: Closing) {
        self.closing.send_replace(Some(closing));
    }
}

async fn closing(receiver: &mut watch::Receiver<Option<Closing>>) -> Option<Closing> {
    // A change, or the outbox gone: either way the value says how (none if let go).
    let _ = receiver.changed().await;
    receiver.borrow().clone()
}

impl Inbox {
    /// Waits for the next message due, or for the session to close the connection.
    /// Cancel safe: a message taken from the channel waits in the heap.
    pub async fn next(&mut self) -> Next {
        loop {
            // What is due already goes at once, unless the session closes the connection:
            // a timer would hold it until the timer wheel's next tick (tokio's timers tick
            // in milliseconds), which was most of a frame's one-way time through the relay
            // without injected delay. What waits in the channel was put in later, so it is
            // due no earlier (but for the owner's aside messages, which have no order).
            while let Ok(queued) = self.queue.try_recv() {
                self.waiting.push(queued);
            }
            if matches!(self.closing.has_changed(), Ok(false)) && self.waiting.peek().is_some_and(|queued| queued.due <= Instant::now()) {
                if let Some(queued) = self.waiting.pop() {
                    return Next::Send(queued);
                }
            }
            let due = self.waiting.peek().map(|queued| queued.due);
            tokio::select! {
                biased;
                closing = closing(&mut self.closing) => return Next::Close(closing),
                queued = self.queue.recv() => match queued {
                    Some(queued) => self.waiting.push(queued),
                    // The outbox is gone. If the session closed it first, that may have
                    // happened after the branch above looked: the value is read here.
                    None => return Next::Close(self.closing.borrow().clone()),
                },
                () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                    if let Some(queued) = self.waiting.pop() {
                        return Next::Send(queued);
                    }
                }
            }
        }
    }

    /// Waits until the session closes the connection (or drops its outbox: `None`).
    pub async fn closing(&mut self) -> Option<Closing> {
        closing(&mut self.closing).await
    }

    /// Counts `queued` as written.
    pub fn sent(&self, queued: &Queued) {
        self.load.messages.fetch_sub(1, Relaxed);
        self.load.bytes.fetch_sub(queued.bytes, Relaxed);
        self.total.bytes.fetch_sub(queued.bytes, Relaxed);
    }
}

impl Drop for Inbox {
    /// What never got written leaves the relay's total.
    fn drop(&mut self) {
        self.queue.close();
        while let Ok(queued) = self.queue.try_recv() {
            self.waiting.push(queued);
        }
        let left: usize = self.waiting.drain().map(|queued| queued.bytes).sum();
        self.total.bytes.fetch_sub(left, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relay::protocol::Ev;

    /// A frame due at once leaves at once: a timer would hold it until the timer wheel's
    /// next tick (tokio's timers tick in milliseconds), and with no injected delay that
    /// tick was most of a frame's one-way time through the relay (1.1 of 1.3 ms). On a
    /// paused clock half a millisecond past a tick, the sleep would advance the clock.
    #[tokio::test(start_paused = true)]
    async fn a_frame_due_at_once_waits_for_no_timer_tick() {
        tokio::time::advance(Duration::from_micros(1_500)).await;
        let (mut outbox, mut inbox) = queue(Bound::MEMBER, Total::new(1 << 20));
        let start = Instant::now();
        outbox.frame(vec![7], Duration::ZERO, Event::new(Ev::Deliver)).unwrap();
        assert!(matches!(inbox.next().await, Next::Send(queued) if queued.message == Message::Binary(vec![7].into())));
        assert_eq!(Instant::now() - start, Duration::ZERO);
        // A frame with a delay still waits it out, and no longer.
        outbox.frame(vec![8], Duration::from_millis(10), Event::new(Ev::Deliver)).unwrap();
        assert!(matches!(inbox.next().await, Next::Send(_)));
        let waited = Instant::now() - start;
        assert!(waited >= Duration::from_millis(10) && waited <= Duration::from_millis(11), "{waited:?}");
    }
}
