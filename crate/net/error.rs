//! Why a network cannot be built or asked about.

use super::{Kind, Node, MAX_PROCESSORS};

/// A request the networks cannot serve, with a message that says what would work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The name is none of [`Kind::ALL`]'s.
    UnknownKind(String),
    /// A network needs at least one processor.
    NoProcessors,
    /// More than [`MAX_PROCESSORS`].
    TooManyProcessors(usize),
    /// DeBruijn and hypercube networks have 2^n processors.
    NotAPowerOfTwo {
        /// The kind that was asked for.
        kind: Kind,
        /// The count that was asked for.
        processors: usize,
    },
    /// A route or hop count was asked for a node that is not a processor.
    NotAProcessor {
        /// The node that was given.
        node: Node,
        /// The network's processor count.
        processors: usize,
    },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::UnknownKind(name) => {
                let names: Vec<&str> = Kind::ALL.iter().map(|kind| kind.name()).collect();
                write!(f, "unknown network {name:?}: expected one of {}", names.join(", "))
            }
            NetError::NoProcessors => write!(f, "a network needs at least one processor"),
            NetError::TooManyProcessors(processors) => {
                write!(f, "{processors} processors: at most {MAX_PROCESSORS} are supported")
            }
            NetError::NotAPowerOfTwo { kind, processors } => write!(
                f,
                "{kind} needs a power of two processors (1, 2, 4, ..., {MAX_PROCESSORS}), not {processors}"
            ),
            NetError::NotAProcessor { node, processors } => write!(
                f,
                "node {node} is not a processor: this network's processors are 0 to {}",
                processors - 1
            ),
        }
    }
}

impl std::error::Error for NetError {}
