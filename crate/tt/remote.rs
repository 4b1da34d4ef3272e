//! The parts of a table split among processes that other processes hold (Zugzwang's
//! distributed table on a cluster: entry h at rank h mod p). A process's part reaches
//! them through this interface, which the machine that connects the processes
//! implements with messages (`machine::cluster`).

use super::{Entry, TranspositionTable};
use std::sync::Weak;

/// The other processes' parts of a split table, seen from one process's part.
pub trait RemoteParts: Send + Sync {
    /// The part holding `key`'s entry when that is another process's and the processes
    /// search together now; `None`: this process's own slots serve (its own entry, or a
    /// search it runs alone, which uses its part as a whole table).
    fn elsewhere(&self, key: u64) -> Option<usize>;
    /// Looks `key` up in part `part`, waiting for the answer; `here` is this process's
    /// part, whose entries the wait serves to the processes that ask meanwhile.
    fn probe(&self, part: usize, key: u64, here: &TranspositionTable) -> Option<Entry>;
    /// Stores `entry` in part `part`, without waiting.
    fn store(&self, part: usize, key: u64, entry: Entry);
    /// From now on the other processes' lookups and stores go to `here`, this process's
    /// part for the search about to start (see [`TranspositionTable::serve_from_here`]).
    fn serve_from(&self, here: Weak<TranspositionTable>);
}
