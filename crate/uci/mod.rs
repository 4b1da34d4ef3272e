//! The UCI protocol, shared by the native binary and the browser worker.
use std::sync::Arc;

/// What the protocol needs from the place it runs in: a way to print one output
/// line, and a way to run a search off the input thread so `stop` stays responsive.
pub trait Host: Send + Sync + 'static {
    /// Emits one UCI output line (without the trailing newline).
    fn emit(&self, line: &str);
    /// Runs `job` on another thread (a std thread natively, a rayon pool thread in wasm).
    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>);
}

/// A UCI engine session: feed it input lines, it answers through its [`Host`].
pub struct Engine {
    host: Arc<dyn Host>,
}

impl Engine {
    /// Creates a session that answers through `host`.
    pub fn new(host: Arc<dyn Host>) -> Engine {
        Engine { host }
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let _ = &self.host;
        line.trim() != "quit"
    }
}
