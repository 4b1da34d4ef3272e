//! Why a simulated machine cannot be built as asked.

use super::presets::PRESETS;
use crate::net::NetError;

/// A request the simulator cannot serve, with a message that says what would work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// No preset has this name.
    UnknownPreset(String),
    /// The network cannot be built (unknown name, a count it does not allow...).
    Net(NetError),
    /// Departures the machine cannot have (processor 0, one out of range, a preset
    /// whose processors never leave), with why.
    Departure(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::UnknownPreset(name) => {
                let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
                write!(f, "unknown preset {name:?}: expected one of {}", names.join(", "))
            }
            SimError::Net(e) => e.fmt(f),
            SimError::Departure(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SimError {}

impl From<NetError> for SimError {
    fn from(e: NetError) -> SimError {
        SimError::Net(e)
    }
}
