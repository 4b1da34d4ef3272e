//! The UCI options: their declarations for `uci`, their values, and `setoption`.

use super::report::Event;
use super::site::Site;
use crate::eval::Evaluation;
use crate::parallel::Algorithm;
use crate::search::{MAX_ELO, MIN_ELO};

fn algorithm_names() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// Largest Hash the build offers, in MiB (the browser's memory is capped when the
/// wasm module is instantiated).
#[cfg(target_arch = "wasm32")]
pub const MAX_HASH_MIB: usize = 1024;
/// Largest Hash the build offers, in MiB.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_HASH_MIB: usize = 65_536;
/// Largest Threads value.
pub const MAX_THREADS: usize = 256;

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Processors to search with.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Whether the GUI may send `go ponder` (informational).
    pub ponder: bool,
    /// Milliseconds kept back per move for communication.
    pub move_overhead: u64,
    /// Play at `elo` instead of full strength.
    pub limit_strength: bool,
    /// Target strength when limited.
    pub elo: u32,
    /// Order-independent search (see `SearchOptions::pure`).
    pub pure: bool,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// The static evaluation (`Eval`: classic or nnue).
    pub evaluation: Evaluation,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: 30,
            limit_strength: false,
            elo: 1500,
            pure: false,
            // ABDADA: on one thread it is the serial search, and `Threads` alone puts
            // more processors to work.
            algorithm: Algorithm::Abdada,
            evaluation: Evaluation::Nnue,
        }
    }
}

/// What a `setoption` asks the engine to do beyond storing a value.
#[derive(Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Reallocate the table at this size.
    ResizeHash(usize),
    /// Clear the table.
    ClearHash,
}

/// The options `uci` declares, with `site`'s defaults.
pub fn declarations(site: &Site) -> Vec<Event> {
    let d = Options::at(site);
    // Where the site fixes the processors, their count is the one value it accepts.
    let (min_threads, max_threads) = match site.fixed_processors() {
        Some(p) => (p, p),
        None => (1, MAX_THREADS),
    };
    vec![
        Event::spin_option("Hash", d.hash_mib as u64, 1, MAX_HASH_MIB as u64),
        Event::spin_option("Threads", d.threads as u64, min_threads as u64, max_threads as u64),
        Event::spin_option("MultiPV", d.multipv as u64, 1, 256),
        Event::button_option("Clear Hash"),
        Event::check_option("Ponder", false),
        Event::spin_option("Move Overhead", d.move_overhead, 0, 5000),
        Event::check_option("UCI_LimitStrength", false),
        Event::spin_option("UCI_Elo", d.elo.into(), MIN_ELO.into(), MAX_ELO.into()),
        Event::check_option("Pure", false),
        Event::combo_option("Algorithm", d.algorithm.name(), &algorithm_names()),
        Event::combo_option("Eval", d.evaluation.name(), &evaluation_names()),
    ]
}

fn evaluation_names() -> Vec<&'static str> {
    Evaluation::ALL.iter().map(|e| e.name()).collect()
}

fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let text = value.ok_or_else(|| format!("option {name} needs a value"))?;
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("option {name} value '{text}' is not a number from {min} to {max}")),
    }
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        other => Err(format!("option {name} value '{}' is not true or false", other.unwrap_or(""))),
    }
}

impl Options {
    /// The defaults at `site`: where it fixes the processors (a cluster), `Threads` is
    /// their count and the algorithm YBWC, which needs no shared memory.
    pub fn at(site: &Site) -> Options {
        let mut options = Options::default();
        if let Some(processors) = site.fixed_processors() {
            options.threads = processors;
            options.algorithm = Algorithm::Ybwc;
        }
        options
    }

    /// The algorithm and processor count a `go` searches with. Weakened play
    /// (`UCI_LimitStrength`) searches serially on one processor whatever `Algorithm` and
    /// `Threads` say: its node caps were calibrated so, and a level should play alike on
    /// every machine.
    pub fn search_processors(&self) -> (Algorithm, usize) {
        if self.limit_strength {
            (Algorithm::Serial, 1)
        } else {
            (self.algorithm, self.threads)
        }
    }

    /// The evaluation a `go` searches with. Weakened play keeps the hand-written one
    /// whatever `Eval` says: its node caps and noise were calibrated with it
    /// (tests/tuning/levels.sh), so the levels' ratings hold.
    pub fn search_evaluation(&self) -> Evaluation {
        if self.limit_strength {
            Evaluation::Classic
        } else {
            self.evaluation
        }
    }

    /// Applies `setoption name <name> value <value>` (names are case-insensitive).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let evaluation = self.search_evaluation();
        let effect = self.set_value(name, value)?;
        // The table keeps static evaluations: another evaluation's would mislead pruning.
        Ok(if effect == Effect::None && self.search_evaluation() != evaluation { Effect::ClearHash } else { effect })
    }

    fn set_value(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mib = spin(name, value, 1, MAX_HASH_MIB as u64)? as usize;
                Ok(Effect::ResizeHash(mib))
            }
            "threads" => {
                self.threads = spin(name, value, 1, MAX_THREADS as u64)? as usize;
                Ok(Effect::None)
            }
            "multipv" => {
                self.multipv = spin(name, value, 1, 256)? as usize;
                Ok(Effect::None)
            }
            "clear hash" => Ok(Effect::ClearHash),
            "ponder" => {
                self.ponder = check(name, value)?;
                Ok(Effect::None)
            }
            "move overhead" => {
                self.move_overhead = spin(name, value, 0, 5000)?;
                Ok(Effect::None)
            }
            "uci_limitstrength" => {
                self.limit_strength = check(name, value)?;
                Ok(Effect::None)
            }
            "uci_elo" => {
                self.elo = spin(name, value, MIN_ELO as u64, MAX_ELO as u64)? as u32;
                Ok(Effect::None)
            }
            "pure" => {
                self.pure = check(name, value)?;
                Ok(Effect::None)
            }
            "algorithm" => {
                let text = value.unwrap_or("");
                self.algorithm = Algorithm::from_name(text)
                    .ok_or_else(|| format!("option Algorithm value '{text}' is not one of {}", algorithm_names().join(", ")))?;
                Ok(Effect::None)
            }
            "eval" => {
                let text = value.unwrap_or("");
                self.evaluation = Evaluation::from_name(text)
                    .ok_or_else(|| format!("option Eval value '{text}' is not one of {}", evaluation_names().join(", ")))?;
                Ok(Effect::None)
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_is_the_default_and_weakened_play_keeps_the_hand_written_evaluation() {
        let mut options = Options::default();
        assert_eq!(options.search_evaluation(), Evaluation::Nnue);
        assert_eq!(options.set("UCI_LimitStrength", Some("true")), Ok(Effect::ClearHash), "the search's evaluation changed");
        assert_eq!(options.search_evaluation(), Evaluation::Classic);
        assert_eq!(options.set("Eval", Some("classic")), Ok(Effect::None), "weakened play searched with classic already");
        assert_eq!(options.set("UCI_LimitStrength", Some("false")), Ok(Effect::None));
        assert_eq!(options.set("Eval", Some("nnue")), Ok(Effect::ClearHash));
        assert_eq!(options.set("Eval", Some("nnue")), Ok(Effect::None));
        assert!(options.set("Eval", Some("neural")).is_err());
        assert_eq!(options.search_evaluation(), Evaluation::Nnue, "a refused value changes nothing");
    }
}
