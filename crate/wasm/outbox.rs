//! The queue of output between the engine and the engine worker's message thread: events,
//! each with the UCI line written from it ([`Output`]).
//!
//! In the threaded build the search runs on rayon pool threads, which are web workers of
//! their own and cannot post to the page. They push output here, in shared memory, and bump
//! `signal`; the engine worker waits on `signal` with `Atomics.waitAsync` (through
//! [`Outbox::signal_view`]) and drains the queue, posting one message per output. The
//! single build uses the same queue until a listener takes the output.
//!
//! Race contract: a producer appends under the lock, releases it, then increments `signal`
//! and notifies. The consumer reads `signal`, drains, then waits while `signal` still holds
//! the value it read, so a line pushed after the read always wakes it. [`Outbox::drain`]
//! never blocks: if the lock is taken it returns nothing and the producer's notify, which
//! follows its unlock, wakes the consumer again.
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, TryLockError};

use serde::Serialize;

use crate::uci::Event;

/// One line of output, as the worker receives it from [`Outbox::drain`].
#[derive(Debug, Serialize)]
pub struct Output {
    /// The UCI text.
    pub line: String,
    /// The values the line was written from.
    pub event: Event,
}

/// One engine's pending output, shared by every thread of the wasm instance.
pub struct Outbox {
    lines: Mutex<VecDeque<Output>>,
    signal: AtomicI32,
    crashed: AtomicBool,
}

/// The instance's outbox: the panic hook must reach it without a handle, and one wasm
/// instance runs one engine.
pub static OUTBOX: Outbox = Outbox {
    lines: Mutex::new(VecDeque::new()),
    signal: AtomicI32::new(0),
    crashed: AtomicBool::new(false),
};

impl Outbox {
    /// Appends one output (an event and its line) and wakes the consumer.
    pub fn push(&self, output: Output) {
        match self.lines.lock() {
            Ok(mut lines) => lines.push_back(output),
            Err(poisoned) => poisoned.into_inner().push_back(output),
        }
        self.wake();
    }

    /// Takes every pending output, oldest first; empty if a producer holds the lock right now.
    pub fn drain(&self) -> Vec<Output> {
        match self.lines.try_lock() {
            Ok(mut lines) => lines.drain(..).collect(),
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner().drain(..).collect(),
            Err(TryLockError::WouldBlock) => Vec::new(),
        }
    }

    /// Records that a thread panicked (the panic hook calls this; it must not take the lock,
    /// which the dying thread may hold) and wakes the consumer so it can report it.
    pub fn mark_crashed(&self) {
        self.crashed.store(true, Ordering::SeqCst);
        self.wake();
    }

    /// Whether any thread of this instance panicked.
    pub fn crashed(&self) -> bool {
        self.crashed.load(Ordering::SeqCst)
    }

    /// A view of the `i32` in shared memory that changes whenever there is news, for
    /// `Atomics.waitAsync` in the engine worker.
    #[cfg(target_feature = "atomics")]
    pub fn signal_view(&self) -> js_sys::Int32Array {
        use wasm_bindgen::JsCast;
        let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        js_sys::Int32Array::new_with_byte_offset_and_length(&memory.buffer(), self.signal.as_ptr() as u32, 1)
    }

    fn wake(&self) {
        self.signal.fetch_add(1, Ordering::SeqCst);
        #[cfg(target_feature = "atomics")]
        self.notify();
    }

    /// `Atomics.notify` on the signal, through this thread's view of the shared memory
    /// (Rust's own `memory.atomic.notify` intrinsic is not stable). The view stays valid
    /// when memory grows: the signal lies below the old end.
    #[cfg(target_feature = "atomics")]
    fn notify(&self) {
        thread_local! {
            static VIEW: std::cell::OnceCell<js_sys::Int32Array> = const { std::cell::OnceCell::new() };
        }
        VIEW.with(|view| {
            // Notifying a view of shared memory cannot fail; there is nothing to do if it did.
            let _ = js_sys::Atomics::notify(view.get_or_init(|| self.signal_view()), 0);
        });
    }
}
