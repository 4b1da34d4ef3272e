//! A bus: one shared medium that every processor sends on, one message at a time. With
//! zero latency it stands for shared memory (the simulator's shared-memory presets).

use super::{on_circle, Ends, Hop, Link, LinkId, LinkKind, Network, Node, Point};

/// The only link of a bus with two or more processors.
const MEDIUM: LinkId = 0;

/// A bus of `processors` processors.
#[derive(Clone, Debug)]
pub(super) struct Bus {
    processors: usize,
}

impl Bus {
    pub(super) fn new(processors: usize) -> Bus {
        Bus { processors }
    }

    /// Each processor is on the medium, if there is anyone to talk to.
    fn links_per_processor(&self) -> usize {
        usize::from(self.processors > 1)
    }
}

impl Network for Bus {
    fn processors(&self) -> usize {
        self.processors
    }

    fn link_count(&self) -> usize {
        self.links_per_processor()
    }

    fn link(&self, _: LinkId) -> Link {
        Link { ends: Ends::Shared, kind: LinkKind::Bus, width: 1 }
    }

    fn next_hop(&self, at: Node, to: Node) -> Hop {
        Hop { link: MEDIUM, from: at, to }
    }

    fn hops(&self, _: Node, _: Node) -> usize {
        1
    }

    fn degree(&self) -> usize {
        self.links_per_processor()
    }

    fn diameter(&self) -> usize {
        self.links_per_processor()
    }

    /// On a circle: the UI draws the medium as a hub in the middle.
    fn layout(&self, node: Node) -> Point {
        on_circle(node, self.processors)
    }
}
