//! A record of the table accesses a searcher made, for machines that charge for them: on
//! a simulated distributed machine an access to an entry another processor holds is a
//! message (a lookup waits for the answer; a store does not).

/// What a searcher did with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// It looked the entry up (and used what it found).
    Probe,
    /// It stored a result there.
    Store,
}

/// One access to the table: what, and the position's hash (which names the entry's owner,
/// see [`super::owner`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Lookup or store.
    pub kind: AccessKind,
    /// The position's Zobrist hash.
    pub hash: u64,
}
