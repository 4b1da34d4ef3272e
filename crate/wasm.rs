//! The browser binding (wasm-bindgen). The engine worker (`www/engine/worker.js`) makes one
//! [`WasmEngine`], hands it each UCI line the page posts (parsed here, nowhere else), and
//! posts back every report it drains from the [`outbox`]: the event
//! ([`crate::uci::Event`]) with the UCI line written from it, plus each processor's
//! [`activity`], for the UI.
//!
//! Two builds of this crate exist for the browser:
//! - threaded (`+atomics`, shared memory): searches run on the rayon pool that
//!   wasm-bindgen-rayon builds from web workers ([`init_thread_pool`]), so the worker's own
//!   message thread stays free to take `stop` and `isready` at any time;
//! - single (no atomics), for pages that are not cross-origin isolated and so have no
//!   `SharedArrayBuffer`: the engine runs in a search worker that may block, and the engine
//!   worker in front of it answers `isready` and `stop` while it searches (see
//!   `www/engine/worker.js`).
pub mod activity;
pub mod class;
pub mod lab;
pub mod outbox;

use std::sync::Arc;

use wasm_bindgen::prelude::*;

use crate::uci::{Engine, Event, Host};
pub use lab::{lab_catalogue, lab_network, lab_panic_message, lab_simulate};
use outbox::{Output, OUTBOX};

#[cfg(target_feature = "atomics")]
pub use wasm_bindgen_rayon::init_thread_pool;

/// Where the UCI engine runs inside the browser: output goes to the shared [`OUTBOX`]
/// (threaded build) or straight to the listener (single build); searches go to the rayon
/// pool (threaded build) or wait until the current input line is handled (single build).
struct WorkerHost;

impl WorkerHost {
    #[cfg(target_feature = "atomics")]
    fn deliver(output: Output) {
        OUTBOX.push(output);
    }

    #[cfg(not(target_feature = "atomics"))]
    fn deliver(output: Output) {
        single::deliver(output);
    }
}

impl Host for WorkerHost {
    fn report(&self, event: Event) {
        WorkerHost::deliver(Output { line: event.to_string(), event });
    }

    #[cfg(target_feature = "atomics")]
    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        rayon::spawn(job);
    }

    #[cfg(not(target_feature = "atomics"))]
    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        single::PENDING.with(|pending| pending.borrow_mut().push_back(job));
    }

    /// The single build searches in slices between which the search worker goes back to
    /// its event loop, so `stop` arrives while a search runs (see [`WasmEngine::resume`]).
    fn sliced(&self) -> bool {
        cfg!(not(target_feature = "atomics"))
    }
}

/// The single build has one thread and no shared memory: a search holds it. Searches
/// therefore run in slices the search worker drives (`resume`), taking input in between;
/// the engine worker runs this build in a search worker of its own, as `bench` still
/// blocks, and output is handed to a JavaScript listener at once, so it streams.
#[cfg(not(target_feature = "atomics"))]
mod single {
    use std::cell::RefCell;
    use std::collections::VecDeque;

    use super::{Output, OUTBOX};

    thread_local! {
        /// Jobs handed to `Host::spawn`, run in order once the input line is handled (the
        /// engine may hold its own locks while it spawns).
        pub static PENDING: RefCell<VecDeque<Box<dyn FnOnce() + Send>>> = RefCell::new(VecDeque::new());
        /// Called with each output line and its event, as it is emitted.
        pub static LISTENER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    }

    /// Hands `output` to the listener, or queues it in the outbox when there is none.
    pub fn deliver(output: Output) {
        let listener = LISTENER.with(|l| l.borrow().clone());
        match listener {
            Some(f) => {
                let event = serde_wasm_bindgen::to_value(&output.event).unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
                // A throwing listener must not unwind through the search; it reports itself.
                let _ = f.call2(&wasm_bindgen::JsValue::NULL, &wasm_bindgen::JsValue::from_str(&output.line), &event);
            }
            None => OUTBOX.push(output),
        }
    }

    /// Runs every queued job to its end.
    pub fn run_pending() {
        while let Some(job) = PENDING.with(|pending| pending.borrow_mut().pop_front()) {
            job();
        }
    }
}

/// One UCI engine session in this wasm instance.
#[wasm_bindgen]
pub struct WasmEngine {
    engine: Engine,
}

#[wasm_bindgen]
impl WasmEngine {
    /// Creates the session and installs the panic hook (readable panics in the console,
    /// and a crash flag the worker turns into `info string error: engine crashed`).
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmEngine {
        install_panic_hook();
        WasmEngine { engine: Engine::new(Arc::new(WorkerHost)) }
    }

    /// Handles one UCI input line; returns `false` after `quit`. In the single build a
    /// `bench` started by the line runs to its end before this returns, and a search
    /// only starts: [`WasmEngine::resume`] runs it.
    pub fn send(&mut self, line: &str) -> bool {
        let more = self.engine.handle_line(line);
        #[cfg(not(target_feature = "atomics"))]
        single::run_pending();
        more
    }

    /// Single build: searches for about `slice_ms` milliseconds and says what to do next:
    /// `"searching"` (call again after looking at the input), `"held"` (the search is over
    /// but its answer waits for `stop` or `ponderhit`) or `"idle"` (no search left).
    #[cfg(not(target_feature = "atomics"))]
    pub fn resume(&self, slice_ms: f64) -> String {
        let next = match self.engine.resume(slice_ms) {
            crate::uci::Slice::Idle => "idle",
            crate::uci::Slice::Searching => "searching",
            crate::uci::Slice::Held => "held",
        };
        next.to_string()
    }

    /// Single build: calls `listener(line, event)` with each output line and the event it
    /// was written from, as soon as it is emitted, instead of queueing it for
    /// [`WasmEngine::drain`].
    #[cfg(not(target_feature = "atomics"))]
    pub fn listen(&self, listener: js_sys::Function) {
        single::LISTENER.with(|l| *l.borrow_mut() = Some(listener));
    }

    /// Takes every output line produced since the last call, oldest first, as
    /// `[{ line, event }]`: the UCI text and the event it was written from.
    pub fn drain(&self) -> JsValue {
        serde_wasm_bindgen::to_value(&self.take_output()).unwrap_or(JsValue::UNDEFINED)
    }

    /// Threaded build: a view of the `i32` in shared memory that changes whenever output is
    /// pending, for `Atomics.waitAsync` (pool threads cannot post to the page themselves).
    #[cfg(target_feature = "atomics")]
    #[wasm_bindgen(js_name = outputSignal)]
    pub fn output_signal(&self) -> js_sys::Int32Array {
        OUTBOX.signal_view()
    }

    /// Threaded build: what each processor of the running (or last) search is doing,
    /// `[{ busy, nodes, busyMs, idleMs }]`, one per thread the Threads option asks for. The
    /// searches keep these counters in shared memory; sampling them takes no lock.
    #[cfg(target_feature = "atomics")]
    #[wasm_bindgen(js_name = workerActivity)]
    pub fn worker_activity(&self) -> JsValue {
        let threads = self.engine.options().threads;
        let workers: Vec<activity::WorkerActivity> = self.engine.processors().iter().take(threads).map(Into::into).collect();
        serde_wasm_bindgen::to_value(&workers).unwrap_or(JsValue::UNDEFINED)
    }

    /// Whether no search, bench or speedup is queued or running: the worker samples the
    /// processors' activity until this holds (so it never reads the commands itself).
    pub fn idle(&self) -> bool {
        self.engine.idle()
    }

    /// Whether a thread of this instance panicked; the engine is then unusable.
    pub fn crashed(&self) -> bool {
        OUTBOX.crashed()
    }
}

impl WasmEngine {
    /// Takes every output produced since the last call, oldest first, as Rust values
    /// ([`WasmEngine::drain`] hands them to JavaScript).
    pub fn take_output(&self) -> Vec<Output> {
        OUTBOX.drain()
    }
}

/// Whether this is the threaded build (shared memory, rayon pool of web workers).
#[wasm_bindgen]
pub fn threaded() -> bool {
    cfg!(target_feature = "atomics")
}

/// Threaded build: the threads machine's message round trips between two workers of the
/// pool, after each interval of waiting (`crate::machine::costs`), as
/// `RoundTrips` rows (`waited_us`, `rounds`, `median_us`, `mean_us`, `trimmed_us`,
/// `caught_share`, `caught_mean_us`): the source of the simulator's `browser`
/// preset (`node www/tests/thread-costs-wasm.mjs`). It runs on the pool as a search does
/// and blocks the calling worker for some seconds until it is done.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = threadCosts)]
pub fn thread_costs() -> JsValue {
    let rows = rayon::scope(|_| crate::machine::costs::measure(&mut crate::machine::Threads::default()));
    serde_wasm_bindgen::to_value(&rows).unwrap_or(JsValue::UNDEFINED)
}

fn install_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error_panic_hook::hook(info);
            OUTBOX.mark_crashed();
        }));
    });
}
