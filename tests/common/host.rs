//! A UCI engine session inside the test process: its [`Host`] keeps every output line, and
//! the event it was written from, and runs searches on std threads, as the
//! native binary does.

use meshmate::uci::{Engine, Event, Host};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Collects output; runs searches on std threads.
#[derive(Default)]
pub struct Collecting {
    said: Mutex<Vec<(String, Event)>>,
}

impl Host for Collecting {
    fn report(&self, event: Event) {
        self.said.lock().unwrap().push((event.to_string(), event));
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        std::thread::spawn(job);
    }
}

impl Collecting {
    /// Every line said so far.
    pub fn lines(&self) -> Vec<String> {
        self.said.lock().unwrap().iter().map(|(line, _)| line.clone()).collect()
    }

    /// The events the lines said so far were written from.
    pub fn events(&self) -> Vec<Event> {
        self.said.lock().unwrap().iter().map(|(_, event)| event.clone()).collect()
    }

    /// Waits up to a minute for a `bestmove` line (a hang fails the test).
    pub fn await_bestmove(&self) {
        let start = Instant::now();
        while !self.lines().iter().any(|l| l.starts_with("bestmove")) {
            assert!(start.elapsed() < Duration::from_secs(60), "no bestmove: {:?}", self.lines());
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// A fresh engine that has been given `commands`, and its host.
pub fn engine_after(commands: &[&str]) -> (Engine, Arc<Collecting>) {
    let host = Arc::new(Collecting::default());
    let mut engine = Engine::new(host.clone());
    for line in commands {
        assert!(engine.handle_line(line));
    }
    (engine, host)
}
