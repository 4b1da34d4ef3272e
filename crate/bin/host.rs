//! The UCI session on standard input and output, for both binaries (`meshmate` on
//! threads, `meshmate-cluster` on MPI ranks).

use meshmate::uci::{Engine, Event, Host};
use std::io::{BufRead, Write};
use std::sync::mpsc::{channel, Sender};

/// Prints to stdout and runs the engine's jobs, one after another, on a thread started
/// with the engine (so `go` starts none).
pub struct StdHost {
    jobs: Sender<Box<dyn FnOnce() + Send + 'static>>,
}

impl StdHost {
    pub fn new() -> StdHost {
        let (jobs, queue) = channel::<Box<dyn FnOnce() + Send + 'static>>();
        std::thread::Builder::new()
            .name("meshmate search".into())
            .spawn(move || queue.into_iter().for_each(|job| job()))
            .expect("cannot start the search thread");
        StdHost { jobs }
    }
}

impl Host for StdHost {
    fn report(&self, event: Event) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(out, "{event}").and_then(|_| out.flush());
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        // The search thread lives as long as the process.
        let _ = self.jobs.send(job);
    }
}

/// Feeds standard input to `engine` line by line until `quit` or the end of input, then
/// waits for its searches to end (at the end of input, those only `stop` would end are
/// stopped; the others finish and answer).
pub fn speak_uci(mut engine: Engine) {
    let mut quit = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !engine.handle_line(&line) {
            quit = true;
            break;
        }
    }
    if !quit {
        engine.end_of_input();
    }
    while !engine.idle() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}
