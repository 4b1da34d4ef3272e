//! A class's processors meet through `meshmate relay` (its rules: `crate::relay`'s
//! documentation). Here is what its clients share, so that the protocol is written once:
//! the messages as types ([`protocol`], which the relay itself speaks too). Native
//! processes speak it over a WebSocket of their own ([`RelayLink`]).

#[cfg(all(feature = "relay", not(target_arch = "wasm32")))]
mod link;
pub mod protocol;

#[cfg(all(feature = "relay", not(target_arch = "wasm32")))]
pub use link::RelayLink;
