//! A fully connected network: a direct link between every two processors, so every route
//! is one hop.

use super::{on_circle, Hop, Link, LinkId, LinkKind, Network, Node, Point};

/// A full network of `processors` processors. The links of processor i to the higher
/// processors i+1, i+2, … come in one run of ids, the runs in processor order.
#[derive(Clone, Debug)]
pub(super) struct Full {
    processors: usize,
}

impl Full {
    pub(super) fn new(processors: usize) -> Full {
        Full { processors }
    }

    /// The id of the first link of processor `low` to a higher one.
    fn first_link_of(&self, low: Node) -> LinkId {
        low * (2 * self.processors - low - 1) / 2
    }

    /// The id of the link between two different processors.
    fn link_between(&self, a: Node, b: Node) -> LinkId {
        let (low, high) = (a.min(b), a.max(b));
        self.first_link_of(low) + high - low - 1
    }
}

impl Network for Full {
    fn processors(&self) -> usize {
        self.processors
    }

    fn link_count(&self) -> usize {
        self.processors * (self.processors - 1) / 2
    }

    fn link(&self, id: LinkId) -> Link {
        // The last processor whose run starts at or before `id` (binary search).
        let (mut low, mut high) = (0, self.processors - 1);
        while high - low > 1 {
            let middle = (low + high) / 2;
            if self.first_link_of(middle) <= id {
                low = middle;
            } else {
                high = middle;
            }
        }
        let low = if self.first_link_of(high) <= id { high } else { low };
        Link::pair(low, low + 1 + id - self.first_link_of(low), LinkKind::Direct)
    }

    fn next_hop(&self, at: Node, to: Node) -> Hop {
        Hop { link: self.link_between(at, to), from: at, to }
    }

    fn hops(&self, _: Node, _: Node) -> usize {
        1
    }

    fn degree(&self) -> usize {
        self.processors - 1
    }

    fn diameter(&self) -> usize {
        usize::from(self.processors > 1)
    }

    fn layout(&self, node: Node) -> Point {
        on_circle(node, self.processors)
    }
}
