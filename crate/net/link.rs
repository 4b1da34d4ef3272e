//! Links and hops: what a network is made of, and one step of a route.

use super::{LinkId, Node};

/// The nodes a link joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// A point-to-point link between two different nodes, lower id first. Physically
    /// bidirectional; a simulator modelling full-duplex links queues per direction
    /// ([`Hop::from`] tells which).
    Pair(Node, Node),
    /// A shared medium every processor is on (a bus): one message at a time in all.
    Shared,
}

/// What a link is for, so that the UI can draw kinds differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// DeBruijn: joins x and x rotated left by one bit.
    Shuffle,
    /// DeBruijn: joins x and x rotated left by one bit with its lowest bit flipped.
    Exchange,
    /// DeBruijn: Zugzwang's added links 0…0–0101… and 1…1–1010….
    Added,
    /// Hypercube: the ends differ in this bit.
    Dimension(u8),
    /// Fat tree: from a node at this level (0 for a processor) up to its parent switch.
    Up(u8),
    /// The one shared medium of a bus.
    Bus,
    /// Ring: joins neighbours i and i+1 (mod p).
    Ring,
    /// Full network: the direct link of two processors.
    Direct,
}

/// A link of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The nodes it joins.
    pub ends: Ends,
    /// What it is for.
    pub kind: LinkKind,
    /// How many messages it carries side by side, in units of a processor's own link: 1
    /// everywhere but the upper levels of a fat tree.
    pub width: u32,
}

impl Link {
    /// A single-width point-to-point link.
    pub(super) fn pair(a: Node, b: Node, kind: LinkKind) -> Link {
        Link { ends: Ends::Pair(a.min(b), a.max(b)), kind, width: 1 }
    }

    /// Whether the link touches `node`; a shared medium touches every node of its network.
    pub fn touches(&self, node: Node) -> bool {
        match self.ends {
            Ends::Pair(a, b) => node == a || node == b,
            Ends::Shared => true,
        }
    }

    /// Whether a message can cross this link from `a` to `b` (or back).
    pub fn joins(&self, a: Node, b: Node) -> bool {
        a != b && self.touches(a) && self.touches(b)
    }
}

/// One step of a route: a message crosses `link` from node `from` to node `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hop {
    /// The link it crosses.
    pub link: LinkId,
    /// Where it comes from.
    pub from: Node,
    /// Where it arrives.
    pub to: Node,
}
