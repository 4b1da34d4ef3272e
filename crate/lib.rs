//! meshmate: a chess engine whose searcher is a resumable state machine, so the same
//! search can run on one thread, on many real threads, or on a simulated parallel
//! computer. See `../shared/DESIGN.md` for the map.
//!
//! Layers point down only (`tests/layering.rs` checks it): `wasm` and `relay` (the class's
//! WebSocket server) → `uci` → `stats` (the papers' measurements: runs of algorithms on
//! machines) → `parallel` (the algorithms as processor programs) → `machine` (real
//! threads, the simulator) → `search` → `chess`, `eval`, `net`, `tt`, `clock`, `random`.
#![deny(missing_docs)]

pub mod chess;
pub mod clock;
pub mod eval;
pub mod machine;
pub mod net;
pub mod parallel;
pub mod random;
#[cfg(all(feature = "relay", not(target_arch = "wasm32")))]
pub mod relay;
pub mod search;
pub mod stats;
pub mod tt;
pub mod uci;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
