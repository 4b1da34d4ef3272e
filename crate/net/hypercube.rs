//! The binary n-cube: 2^n processors, linked when their numbers differ in one bit.
//! Routing is dimension order ("e-cube"): correct the lowest differing bit first, which
//! gives a shortest route (one hop per differing bit) that never depends on load.

use super::{Hop, Link, LinkId, LinkKind, Network, Node, Point};

/// A hypercube of dimension n. The links of dimension d have ids d·2^(n−1) onwards, in
/// the order of their lower end with bit d removed.
#[derive(Clone, Debug)]
pub(super) struct Hypercube {
    dimension: u32,
}

impl Hypercube {
    pub(super) fn new(processors: usize) -> Hypercube {
        Hypercube { dimension: processors.trailing_zeros() }
    }

    /// Links per dimension.
    fn half(&self) -> usize {
        (1 << self.dimension) / 2
    }

    /// The link of `node` along dimension `bit`.
    fn link_of(&self, node: Node, bit: u32) -> LinkId {
        let below = node & ((1 << bit) - 1);
        let above = (node >> (bit + 1)) << bit;
        bit as usize * self.half() + (above | below)
    }
}

impl Network for Hypercube {
    fn processors(&self) -> usize {
        1 << self.dimension
    }

    fn link_count(&self) -> usize {
        self.dimension as usize * self.half()
    }

    fn link(&self, id: LinkId) -> Link {
        let bit = (id / self.half()) as u32;
        let rest = id % self.half();
        let below = rest & ((1 << bit) - 1);
        let above = (rest >> bit) << (bit + 1);
        let low = above | below;
        Link::pair(low, low | 1 << bit, LinkKind::Dimension(bit as u8))
    }

    fn next_hop(&self, at: Node, to: Node) -> Hop {
        let bit = (at ^ to).trailing_zeros();
        Hop { link: self.link_of(at, bit), from: at, to: at ^ 1 << bit }
    }

    fn hops(&self, from: Node, to: Node) -> usize {
        (from ^ to).count_ones() as usize
    }

    fn degree(&self) -> usize {
        self.dimension as usize
    }

    fn diameter(&self) -> usize {
        self.dimension as usize
    }

    /// The cube projected on a grid: the even bits give the column, the odd bits the row,
    /// so each dimension's links are all parallel and the same length.
    fn layout(&self, node: Node) -> Point {
        let (mut column, mut row, mut columns, mut rows) = (0, 0, 1, 1);
        for bit in 0..self.dimension {
            let set = node >> bit & 1;
            if bit % 2 == 0 {
                column |= set * columns;
                columns *= 2;
            } else {
                row |= set * rows;
                rows *= 2;
            }
        }
        Point { x: (column as f32 + 0.5) / columns as f32, y: (row as f32 + 0.5) / rows as f32 }
    }
}
