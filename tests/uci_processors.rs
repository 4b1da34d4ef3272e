//! Which processors a UCI `go` puts to work: `Threads` alone uses them all (the default
//! algorithm is parallel), and weakened play stays on one, as its levels were measured.

use meshmate::uci::{Engine, Host};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Collects output lines; runs searches on std threads, as the native binary does.
#[derive(Default)]
struct Collecting {
    lines: Mutex<Vec<String>>,
}

impl Host for Collecting {
    fn emit(&self, line: &str) {
        self.lines.lock().unwrap().push(line.to_string());
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        std::thread::spawn(job);
    }
}

/// Runs `commands` on a fresh engine, waits for `bestmove`, and returns the nodes each of
/// the first `threads` processors searched.
fn nodes_per_processor(commands: &[&str], threads: usize) -> Vec<u64> {
    let host = Arc::new(Collecting::default());
    let mut engine = Engine::new(host.clone());
    for line in commands {
        assert!(engine.handle_line(line));
    }
    let start = Instant::now();
    while !host.lines.lock().unwrap().iter().any(|l| l.starts_with("bestmove")) {
        assert!(start.elapsed() < Duration::from_secs(60), "no bestmove: {:?}", host.lines.lock().unwrap());
        std::thread::sleep(Duration::from_millis(5));
    }
    let errors: Vec<String> = host.lines.lock().unwrap().iter().filter(|l| l.contains("error")).cloned().collect();
    assert!(errors.is_empty(), "{errors:?}");
    engine.processors().iter().take(threads).map(|p| p.nodes).collect()
}

#[test]
fn threads_alone_put_every_processor_to_work() {
    let nodes = nodes_per_processor(&["setoption name Threads value 2", "position startpos moves e2e4 c7c5", "go depth 10"], 2);
    assert!(nodes.iter().all(|&n| n > 1000), "nodes per processor {nodes:?}");
}

#[test]
fn weakened_play_searches_on_one_processor_whatever_the_threads() {
    let commands = ["setoption name Threads value 2", "setoption name Algorithm value lazysmp", "setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2400", "position startpos moves e2e4 c7c5", "go depth 8"];
    let nodes = nodes_per_processor(&commands, 2);
    assert!(nodes[0] > 0 && nodes[1] == 0, "nodes per processor {nodes:?}");
}
