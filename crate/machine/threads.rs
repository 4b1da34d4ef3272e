//! The real machine: one thread per processor. Processor 0 runs on the calling thread,
//! the helpers on the threads of a rayon pool: natively a pool the machine keeps between
//! searches (so `go` starts no thread), in the browser the web workers of the global pool
//! (wasm-bindgen-rayon), since a wasm module cannot start threads of its own.
//! Mailboxes are std's lock-free channels in shared memory, each with a count of the
//! messages in it, so that a program looking for messages at every node finds an empty
//! mailbox with one load of a cache line nobody writes (a channel's receive costs several
//! atomic operations: 3 % of a node when done at every one).

use super::offers::OfferBoard;
use super::drive::{add_time, Driven};
use super::{Counters, Machine, Note, Payload, Processor, Program};
use crate::clock::now_ms;
use crate::random::Random;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::OnceLock;
use std::thread::Thread;
use std::time::Duration;

/// How many processors can run at once: natively any number (the pool grows to what a
/// search asks for); in the browser the rayon pool's size, or 1 without shared memory.
pub fn available_processors() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    let available = usize::MAX;
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    let available = rayon::current_num_threads().max(1);
    #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
    let available = 1;
    available
}

/// The real machine (see the module documentation). Keep one for many searches: natively
/// it holds the helpers' threads, one per helper of the last parallel search, and starts
/// new ones only when a search asks for another number of processors.
#[derive(Debug, Default)]
pub struct Threads {
    #[cfg(not(target_arch = "wasm32"))]
    pool: Option<rayon::ThreadPool>,
}

impl Machine for Threads {
    fn processors(&self) -> usize {
        available_processors()
    }

    fn run<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters) {
        let count = helpers.len() + 1;
        assert!(count <= counters.len(), "counters for {} processors, {count} asked for", counters.len());
        let (mailboxes, inboxes): (Vec<_>, Vec<_>) = (0..count).map(|_| channel()).unzip();
        let unread: Vec<Unread> = (0..count).map(|_| Unread::default()).collect();
        let offers = OfferBoard::new(count);
        let processors: Vec<ThreadProcessor<'_, M>> = inboxes
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| ThreadProcessor { id, mailboxes: &mailboxes, unread: &unread, inbox, held: None, random: Random::new(0, id), counters, offers: &offers })
            .collect();
        let finish_times = self.run_all(main, helpers, processors);
        let end = now_ms();
        for (id, finished) in finish_times.into_iter().enumerate() {
            add_time(counters, id, false, end - finished);
        }
    }
}

/// How long a waiting processor sleeps at most before it looks again (a message wakes it
/// at once: the sender unparks it, which in the browser is wasm's `memory.atomic.notify`
/// on the worker's `memory.atomic.wait32`; timed channel waits need a clock wasm lacks).
const WAIT: Duration = Duration::from_micros(50);

/// Looks at the inbox before a waiting processor sleeps (some tens of microseconds).
const SPINS: u32 = 2_000;

type Envelope<M> = (usize, M);

/// Messages sent to a processor and not yet received, on a cache line of its own, and
/// the thread that reads them, which a sender wakes when it sleeps.
#[repr(align(128))]
#[derive(Default)]
struct Unread {
    count: AtomicUsize,
    /// Set by the reading processor's thread when it starts.
    reader: OnceLock<Thread>,
}

/// One processor's view of the threads machine.
struct ThreadProcessor<'a, M> {
    id: usize,
    mailboxes: &'a [Sender<Envelope<M>>],
    unread: &'a [Unread],
    inbox: Receiver<Envelope<M>>,
    /// A message taken from the inbox while waiting, not yet handed to the program.
    held: Option<Envelope<M>>,
    /// Its own stream (any seed does: real threads are not reproducible anyway).
    random: Random,
    counters: &'a Counters,
    offers: &'a OfferBoard,
}

impl<M: Payload> Processor<M> for ThreadProcessor<'_, M> {
    fn id(&self) -> usize {
        self.id
    }

    fn count(&self) -> usize {
        self.mailboxes.len()
    }

    fn send(&mut self, to: usize, message: M) {
        self.counters.count_sent(self.id, message.kind());
        // The receiver lives until every processor has finished, so this cannot fail
        // while anyone could still read it.
        if self.mailboxes[to].send((self.id, message)).is_ok() {
            // Counted after it is in the channel: a reader that sees the count finds it.
            let unread = &self.unread[to];
            unread.count.fetch_add(1, Ordering::Release);
            if let Some(reader) = unread.reader.get() {
                reader.unpark();
            }
        }
    }

    fn receive(&mut self) -> Option<(usize, M)> {
        let envelope = self.held.take().or_else(|| self.take_from_inbox())?;
        self.counters.count_received(self.id, envelope.1.kind());
        Some(envelope)
    }

    fn may_go_on(&self) -> bool {
        self.held.is_none() && self.unread[self.id].count.load(Ordering::Acquire) == 0
    }

    fn random(&mut self) -> u64 {
        self.random.next_u64()
    }

    fn note(&mut self, note: Note) {
        self.counters.note(self.id, note);
    }

    fn post_offer(&mut self, offer: Option<i32>) {
        self.offers.post(self.id, offer);
    }

    fn has_offer_board(&self) -> bool {
        true
    }

    fn best_offer(&mut self) -> Option<(usize, i32)> {
        self.offers.best_other(self.id)
    }
}

impl<M> ThreadProcessor<'_, M> {
    /// The next message in the inbox, looking into the channel only when one is there.
    fn take_from_inbox(&mut self) -> Option<Envelope<M>> {
        let unread = &self.unread[self.id].count;
        if unread.load(Ordering::Acquire) == 0 {
            return None;
        }
        let envelope = self.inbox.try_recv().ok()?;
        unread.fetch_sub(1, Ordering::Relaxed);
        Some(envelope)
    }
}

impl<M: Payload> Driven<M> for ThreadProcessor<'_, M> {
    /// Blocks briefly until a message is there (or a short time has passed).
    fn wait(&mut self) {
        if self.held.is_some() {
            return;
        }
        // Answers usually come within microseconds: look again a while before sleeping,
        // since waking a sleeping thread takes longer than a small subtree's search.
        for _ in 0..SPINS {
            if let Some(envelope) = self.take_from_inbox() {
                self.held = Some(envelope);
                return;
            }
            std::hint::spin_loop();
        }
        // A sender unparks this thread; the timeout lets it see the end of the search.
        std::thread::park_timeout(WAIT);
    }
}

/// Runs `main` (processor 0) and `helpers` (processors 1..) each on its own thread until
/// every one has finished, on a machine made for this run alone (natively its helper
/// threads start and end with it). Busy time is time spent working; idle time is time
/// spent waiting for messages or, after finishing, for the others.
pub fn run_on_threads<M: Payload>(main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters) {
    Threads::default().run(main, helpers, counters);
}

/// Gives a closure over one rayon scope its type (its borrows live as long as the scope).
#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
fn in_one_scope<'s, F: FnOnce(&rayon::Scope<'s>)>(body: F) -> F {
    body
}

/// Steps one program to its end on its thread, publishing its counters; returns when it
/// finished.
fn drive<M: Payload>(program: &mut dyn Program<Message = M>, mut processor: ThreadProcessor<'_, M>) -> f64 {
    let _ = processor.unread[processor.id].reader.set(std::thread::current());
    let counters = processor.counters;
    super::drive::drive(program, &mut processor, counters)
}

impl Threads {
    /// Drives every program on its thread; returns when each finished.
    #[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
    fn run_all<'p, M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + 'p>>, processors: Vec<ThreadProcessor<'_, M>>) -> Vec<f64> {
        use std::sync::Mutex;
        let mut processors = processors.into_iter();
        let first = processors.next().expect("processor 0 exists");
        if helpers.is_empty() {
            return vec![drive(main, first)];
        }
        let count = helpers.len();
        let times: Vec<Mutex<f64>> = (0..=count).map(|_| Mutex::new(0.0)).collect();
        // Each helper holds a pool thread for the whole search, and nothing else runs on
        // the pool meanwhile; processor 0 keeps the calling thread (in the browser a pool
        // thread too), where its listener is.
        let all = in_one_scope(|scope| {
            for (i, (mut program, processor)) in helpers.into_iter().zip(processors).enumerate() {
                let times = &times;
                scope.spawn(move |_| *times[i + 1].lock().unwrap_or_else(|e| e.into_inner()) = drive(program.as_mut(), processor));
            }
            *times[0].lock().unwrap_or_else(|e| e.into_inner()) = drive(main, first);
        });
        #[cfg(not(target_arch = "wasm32"))]
        self.pool_of(count).in_place_scope(all);
        #[cfg(target_arch = "wasm32")]
        rayon::in_place_scope(all);
        times.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
    }

    /// The pool with one thread per helper, started anew only when the number of helpers
    /// changed since the last search (`setoption Threads`).
    #[cfg(not(target_arch = "wasm32"))]
    fn pool_of(&mut self, helpers: usize) -> &rayon::ThreadPool {
        if self.pool.as_ref().is_some_and(|pool| pool.current_num_threads() != helpers) {
            self.pool = None;
        }
        self.pool.get_or_insert_with(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(helpers)
                .thread_name(|i| format!("meshmate processor {}", i + 1))
                .build()
                .unwrap_or_else(|e| panic!("cannot start {helpers} helper threads: {e}"))
        })
    }

    /// The single-threaded browser build has one thread: helpers, if any, run after processor 0.
    #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
    fn run_all<'p, M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + 'p>>, processors: Vec<ThreadProcessor<'_, M>>) -> Vec<f64> {
        let mut processors = processors.into_iter();
        let mut times = vec![drive(main, processors.next().expect("processor 0 exists"))];
        for (mut program, processor) in helpers.into_iter().zip(processors) {
            times.push(drive(program.as_mut(), processor));
        }
        times
    }
}
