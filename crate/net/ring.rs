//! A bidirectional ring: processor i is linked to i−1 and i+1 (mod p). A message goes the
//! shorter way round; halfway round (p even) it goes up, through i+1.

use super::{on_circle, Hop, Link, LinkId, LinkKind, Network, Node, Point};

/// A ring of `processors` processors. Link i joins i and i+1 (mod p); two processors
/// share one link, one processor has none.
#[derive(Clone, Debug)]
pub(super) struct Ring {
    processors: usize,
}

impl Ring {
    pub(super) fn new(processors: usize) -> Ring {
        Ring { processors }
    }

    /// Steps from `from` up (through i+1) to `to`.
    fn steps_up(&self, from: Node, to: Node) -> usize {
        (to + self.processors - from) % self.processors
    }

    /// The link between `node` and `node + 1` (mod p).
    fn link_up_from(&self, node: Node) -> LinkId {
        if self.processors == 2 {
            0
        } else {
            node
        }
    }
}

impl Network for Ring {
    fn processors(&self) -> usize {
        self.processors
    }

    fn link_count(&self) -> usize {
        match self.processors {
            1 => 0,
            2 => 1,
            p => p,
        }
    }

    fn link(&self, id: LinkId) -> Link {
        Link::pair(id, (id + 1) % self.processors, LinkKind::Ring)
    }

    fn next_hop(&self, at: Node, to: Node) -> Hop {
        let p = self.processors;
        let up = self.steps_up(at, to);
        if up <= p - up {
            let next = (at + 1) % p;
            Hop { link: self.link_up_from(at), from: at, to: next }
        } else {
            let next = (at + p - 1) % p;
            Hop { link: self.link_up_from(next), from: at, to: next }
        }
    }

    fn hops(&self, from: Node, to: Node) -> usize {
        let up = self.steps_up(from, to);
        up.min(self.processors - up)
    }

    fn degree(&self) -> usize {
        self.link_count().min(2)
    }

    fn diameter(&self) -> usize {
        self.processors / 2
    }

    fn layout(&self, node: Node) -> Point {
        on_circle(node, self.processors)
    }
}
