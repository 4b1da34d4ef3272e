//! What each processor of a search is doing, as the worker's `workers` event shows it
//! ([`WorkerActivity`], sampled from the counters the searches keep in shared memory).
//! Its TypeScript type, for the npm package, is in www/package/index.d.ts: a field changed
//! here changes there (www/tests/package.test.mjs type-checks the events it sees).
use serde::Serialize;

use crate::machine::{MessageKind, ProcessorSnapshot};

/// One processor of a search as the UI's worker view shows it.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerActivity {
    /// Working right now.
    pub busy: bool,
    /// Positions it visited in the current (or last) search.
    pub nodes: u64,
    /// Milliseconds it worked in the current search (known once the search ends).
    pub busy_ms: u64,
    /// Milliseconds it waited for the others in the current search.
    pub idle_ms: u64,
    /// Messages it sent, as [kind name, count] pairs (only kinds it sent).
    pub sent: Vec<(&'static str, u64)>,
    /// Messages it received, of every kind.
    pub received: u64,
    /// Subtrees it handed to other workers.
    pub splits: u64,
    /// The first plies of the line it is on, from the root, as UCI moves separated by
    /// spaces ("" for the root itself); absent when it is on no line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

impl From<&ProcessorSnapshot> for WorkerActivity {
    fn from(p: &ProcessorSnapshot) -> Self {
        let sent = MessageKind::ALL.iter().map(|k| (k.name(), p.sent[k.index()])).filter(|&(_, n)| n > 0).collect();
        let line = p.line.map(|path| path.uci());
        WorkerActivity { busy: p.working, nodes: p.nodes, busy_ms: p.busy_us / 1000, idle_ms: p.idle_us / 1000, sent, received: p.received.iter().sum(), splits: p.splits, line }
    }
}
