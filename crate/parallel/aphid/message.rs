//! What APHID's master and slaves say to each other: the master hands a slave a leaf of
//! its shallow tree ([`AphidMessage::Leaf`]) and later says how deep and in what window
//! it wants it now ([`AphidMessage::Want`]); a slave reports each search it finished
//! ([`AphidMessage::Value`]). Their bytes and kinds are in `parallel::wire`.
//!
//! Invariants: a leaf's number names it to its owner in every later WANT and VALUE; a
//! VALUE is a fail-soft value of the leaf searched to `depth` within its window, so it is
//! a bound of the leaf's value (an upper bound at or below alpha, a lower bound at or
//! above beta, else exact) whenever it comes and whoever asked.

use cozy_chess::{Board, Move};

/// What the master wants of a leaf now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::parallel) struct Want {
    /// Remaining depth the master's pass needs (0: the quiescence search).
    pub depth: i32,
    /// The window of the leaf in the master's last pass, from the leaf's side to move.
    pub alpha: i32,
    /// The window's upper end.
    pub beta: i32,
    /// The deepest search worth making ahead of the master (the next iteration's depth,
    /// or `depth` in the last iteration).
    pub most: i32,
    /// Where the leaf came in the master's last pass: the slave takes the leftmost first.
    pub order: u32,
}

/// A leaf handed to a slave: everything needed to search it.
#[derive(Clone, Debug)]
pub(in crate::parallel) struct LeafProblem {
    /// The position.
    pub board: Board,
    /// Hashes of the game before the root and of the positions from the root down to the
    /// leaf's parent (repetitions).
    pub path: Vec<u64>,
    /// The moves from the root to the leaf (its distance from the root is their number).
    pub moves: Vec<Move>,
    /// What the master wants of it first.
    pub want: Want,
}

/// A leaf searched: its value from its side to move and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::parallel) struct LeafValue {
    /// The remaining depth searched.
    pub depth: i32,
    /// The window searched with.
    pub alpha: i32,
    /// The window's upper end.
    pub beta: i32,
    /// The fail-soft value.
    pub value: i32,
    /// The best line from the leaf on.
    pub pv: Vec<Move>,
}

/// A message of an APHID search.
#[derive(Clone, Debug)]
pub(in crate::parallel) enum AphidMessage {
    /// Master to slave: leaf `leaf` is yours from now on.
    Leaf { leaf: u32, problem: Box<LeafProblem> },
    /// Master to slave: what the master wants of your leaf `leaf` now.
    Want { leaf: u32, want: Want },
    /// Slave to master: a search of leaf `leaf` finished.
    Value { leaf: u32, value: LeafValue },
    /// The machine says the sender is gone (a class's tab left): its leaves go to the
    /// others. Made by the machine, never sent.
    Lost,
}
