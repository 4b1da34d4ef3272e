//! The real machine: one thread per processor. Natively these are scoped std threads;
//! in the browser they are the web workers of the rayon pool (wasm-bindgen-rayon), since
//! a wasm module cannot start threads of its own. Processor 0 runs on the calling thread.

use super::{Activity, Counters, Processor, Program};
use crate::clock::now_ms;

/// How many processors can run at once: natively any number (threads are started per
/// search); in the browser the rayon pool's size, or 1 without shared memory.
pub fn available_processors() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    let available = usize::MAX;
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    let available = rayon::current_num_threads().max(1);
    #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
    let available = 1;
    available
}

/// Steps between two updates of a processor's node counter.
const PUBLISH_INTERVAL: u32 = 256;

/// Runs `main` (processor 0) and `helpers` (processors 1..) each on its own thread until
/// every one has finished. Idle time is the time a processor waits for the others.
pub fn run_on_threads(main: &mut dyn Program, helpers: Vec<Box<dyn Program + Send + '_>>, counters: &Counters) {
    let count = helpers.len() + 1;
    assert!(count <= counters.len(), "counters for {} processors, {count} asked for", counters.len());
    let start = now_ms();
    let finish_times = spawn_all(helpers, counters, count, start, main);
    let end = now_ms();
    for (id, finished) in finish_times.into_iter().enumerate() {
        let busy = (finished - start).max(0.0);
        let idle = (end - finished).max(0.0);
        counters.add_time(id, (busy * 1000.0) as u64, (idle * 1000.0) as u64);
    }
}

/// Steps one program to its end, publishing its counters; returns when it finished.
fn drive(program: &mut dyn Program, id: usize, count: usize, counters: &Counters) -> f64 {
    let processor = Processor { id, count, counters };
    counters.set_working(id, true);
    let mut until_publish = PUBLISH_INTERVAL;
    while program.step(&processor) == Activity::Working {
        until_publish -= 1;
        if until_publish == 0 {
            counters.set_nodes(id, program.nodes());
            until_publish = PUBLISH_INTERVAL;
        }
    }
    counters.set_nodes(id, program.nodes());
    counters.set_working(id, false);
    now_ms()
}

#[cfg(not(target_arch = "wasm32"))]
fn spawn_all(helpers: Vec<Box<dyn Program + Send + '_>>, counters: &Counters, count: usize, _start: f64, main: &mut dyn Program) -> Vec<f64> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .into_iter()
            .enumerate()
            .map(|(i, mut program)| scope.spawn(move || drive(program.as_mut(), i + 1, count, counters)))
            .collect();
        let mut times = vec![drive(main, 0, count, counters)];
        times.extend(handles.into_iter().map(|h| h.join().expect("a processor panicked")));
        times
    })
}

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
fn spawn_all(helpers: Vec<Box<dyn Program + Send + '_>>, counters: &Counters, count: usize, start: f64, main: &mut dyn Program) -> Vec<f64> {
    use std::sync::Mutex;
    let times: Vec<Mutex<f64>> = (0..count).map(|_| Mutex::new(start)).collect();
    // in_place_scope: processor 0 keeps running on this (pool) thread, with its listener.
    rayon::in_place_scope(|scope| {
        for (i, mut program) in helpers.into_iter().enumerate() {
            let times = &times;
            scope.spawn(move |_| {
                let t = drive(program.as_mut(), i + 1, count, counters);
                *times[i + 1].lock().unwrap_or_else(|e| e.into_inner()) = t;
            });
        }
        *times[0].lock().unwrap_or_else(|e| e.into_inner()) = drive(main, 0, count, counters);
    });
    times.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

/// The single-threaded browser build has one thread: helpers, if any, run after processor 0.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
fn spawn_all(helpers: Vec<Box<dyn Program + Send + '_>>, counters: &Counters, count: usize, _start: f64, main: &mut dyn Program) -> Vec<f64> {
    let mut times = vec![drive(main, 0, count, counters)];
    for (i, mut program) in helpers.into_iter().enumerate() {
        times.push(drive(program.as_mut(), i + 1, count, counters));
    }
    times
}
