//! A class's processors meet through `meshmate relay` (its rules: `crate::relay`'s
//! documentation). Here is what its clients share, so that the protocol is written once:
//! the messages as types ([`protocol`], which the relay itself speaks too), and one
//! client of it ([`client`]) that knows no sockets or timers. Native processes hold it
//! over a WebSocket of their own ([`RelayLink`]); a browser tab holds it from `crate::wasm`.

pub mod client;
#[cfg(all(feature = "relay", not(target_arch = "wasm32")))]
mod link;
pub mod protocol;

#[cfg(all(feature = "relay", not(target_arch = "wasm32")))]
pub use link::RelayLink;
