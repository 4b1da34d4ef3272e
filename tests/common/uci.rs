//! A UCI engine in a process of its own, driven over real pipes as a GUI drives it
//! (`meshmate` in tests/uci_pipe.rs, `mpirun … meshmate-cluster` in tests/cluster.rs).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long `stop` may take to bring back `bestmove` over pipes: the engine's own
/// process, or every MPI rank hearing it and answering, oversubscribed beside the browser
/// tests on two cores.
pub const STOP_WITHIN: Duration = Duration::from_secs(5);

/// The engine process, its standard output and error read line by line.
pub struct UciProcess {
    pub child: Child,
    stdin: ChildStdin,
    /// Standard output's lines as they come.
    pub lines: Receiver<String>,
    errors: Receiver<String>,
    /// How long an answer may take before the test fails (a hang still fails).
    patience: Duration,
}

/// Reads `stream` line by line into a channel, on a thread of its own.
fn lines_of(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl UciProcess {
    /// Starts `command` with its standard streams piped to the test.
    pub fn start(command: &mut Command, patience: Duration) -> UciProcess {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap_or_else(|e| panic!("{command:?} starts: {e}"));
        let stdin = child.stdin.take().unwrap();
        let lines = lines_of(child.stdout.take().unwrap());
        let errors = lines_of(child.stderr.take().unwrap());
        UciProcess { child, stdin, lines, errors, patience }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
    }

    /// The opening exchange: sends `uci` and returns the lines up to `uciok` (the engine's
    /// name and options).
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.read_until(|l| l == "uciok")
    }

    /// Writes `text` (several lines) at once, as a GUI in a hurry does.
    pub fn send_burst(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("the engine reads its input");
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + self.patience;
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in time; saw {seen:?}; stderr {:?}", self.errors.try_iter().collect::<Vec<_>>()),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine died; saw {seen:?}; stderr {:?}", self.errors.try_iter().collect::<Vec<_>>()),
            }
        }
    }

    /// Every line that arrives within `window`.
    pub fn lines_for(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        std::iter::from_fn(|| self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())).ok()).collect()
    }

    /// `isready`, answered.
    pub fn sync(&mut self) {
        self.send("isready");
        self.read_until(|l| l == "readyok");
    }

    /// Waits (a bounded time) for the process to exit.
    pub fn wait(&mut self, within: Duration) -> ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("the engine can be waited for") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the engine still runs {within:?} later");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What the process wrote to standard error, once it has closed it (or 5 s passed).
    pub fn stderr(&self) -> Vec<String> {
        std::iter::from_fn(|| self.errors.recv_timeout(Duration::from_secs(5)).ok()).collect()
    }

    /// `quit` ends the engine within `within`, with exit status 0.
    pub fn quit(mut self, within: Duration) {
        self.send("quit");
        let status = self.wait(within);
        assert!(status.success(), "exit status {status}; stderr {:?}", self.errors.try_iter().collect::<Vec<_>>());
    }
}

/// The move of a `bestmove` line.
pub fn bestmove(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}
