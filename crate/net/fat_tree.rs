//! A fat tree in the manner of the CM-5's data network (Leiserson et al., 1992), the
//! machine StarTech ran on: processors are the leaves of a 4-ary tree of switches, and
//! the links widen towards the root.
//!
//! Level 0 holds the processors, level ℓ ≥ 1 the switches that each cover 4^ℓ
//! consecutive processors (the last one fewer when p is not a power of 4), up to one
//! root. Switches are nodes (`processors()` onwards, level by level), because a message
//! crosses them: it goes up to the lowest switch above both ends and down again, 2ℓ hops
//! for a common ancestor at level ℓ, so the diameter is twice the number of levels.
//! Routes are unique (one parent per node), so they are deterministic for free.
//!
//! The CM-5 gives each processor 20 MB/s within its group of 4, 10 MB/s within 16 and
//! 5 MB/s beyond. In units of a processor's link (20 MB/s) that makes the link from a
//! level-1 switch to its parent 2 wide (4 × 10 MB/s), and from level ℓ ≥ 2 4^(ℓ−1) wide
//! (4^ℓ × 5 MB/s): [`Link::width`]. (The real machine has several parent switches per
//! switch and picks one at random; one wide link stands for them all.)

use super::{Hop, Link, LinkId, LinkKind, Network, Node, Point};

/// How many children a switch has: 4 = 2^LOG_ARITY.
const LOG_ARITY: u32 = 2;
const ARITY: usize = 1 << LOG_ARITY;

/// A fat tree over `processors` leaves. Every node but the root has one link, to its
/// parent, whose id is the node's own.
#[derive(Clone, Debug)]
pub(super) struct FatTree {
    processors: usize,
    /// `first[ℓ]`: the first node of level ℓ; one more entry holds the node count.
    first: Vec<Node>,
    /// Each node's level, so that a hop needs no search of `first`.
    level: Vec<u8>,
}

impl FatTree {
    pub(super) fn new(processors: usize) -> FatTree {
        let mut first = vec![0];
        let mut covered = 1; // processors under one node of the level
        loop {
            first.push(first[first.len() - 1] + processors.div_ceil(covered));
            if covered >= processors {
                break;
            }
            covered *= ARITY;
        }
        let level = first.windows(2).enumerate().flat_map(|(l, w)| std::iter::repeat_n(l as u8, w[1] - w[0])).collect();
        FatTree { processors, first, level }
    }

    /// Levels of switches: the root's level.
    fn levels(&self) -> usize {
        self.first.len() - 2
    }

    /// The level of a node and its place in that level.
    fn locate(&self, node: Node) -> (usize, usize) {
        let level = usize::from(self.level[node]);
        (level, node - self.first[level])
    }

    /// The first processor under a node and one past its last.
    fn span(&self, level: usize, index: usize) -> (Node, Node) {
        let covered = 1 << (LOG_ARITY * level as u32);
        (index * covered, ((index + 1) * covered).min(self.processors))
    }

    /// The CM-5's link width from a node at `level` to its parent.
    fn width(level: usize) -> u32 {
        match level {
            0 => 1,
            1 => 2,
            _ => (ARITY as u32).pow(level as u32 - 1),
        }
    }
}

impl Network for FatTree {
    fn processors(&self) -> usize {
        self.processors
    }

    fn nodes(&self) -> usize {
        self.first[self.first.len() - 1]
    }

    fn link_count(&self) -> usize {
        self.nodes() - 1
    }

    fn link(&self, id: LinkId) -> Link {
        let (level, index) = self.locate(id);
        let parent = self.first[level + 1] + index / ARITY;
        Link { width: FatTree::width(level), ..Link::pair(id, parent, LinkKind::Up(level as u8)) }
    }

    fn next_hop(&self, at: Node, to: Node) -> Hop {
        let (level, index) = self.locate(at);
        let (low, high) = self.span(level, index);
        if (low..high).contains(&to) {
            let child = self.first[level - 1] + (to >> (LOG_ARITY * (level as u32 - 1)));
            Hop { link: child, from: at, to: child }
        } else {
            Hop { link: at, from: at, to: self.first[level + 1] + index / ARITY }
        }
    }

    fn hops(&self, from: Node, to: Node) -> usize {
        let differing_bits = (usize::BITS - (from ^ to).leading_zeros()) as usize;
        2 * differing_bits.div_ceil(2) // 2 bits per level of a 4-ary tree
    }

    /// A switch with four children and a parent; fewer in a one-level tree.
    fn degree(&self) -> usize {
        match self.levels() {
            0 => 0,
            1 => self.processors,
            _ => ARITY + 1,
        }
    }

    fn diameter(&self) -> usize {
        2 * self.levels()
    }

    /// Levels from the processors at the bottom to the root at the top; each node above
    /// the middle of its processors.
    fn layout(&self, node: Node) -> Point {
        let (level, index) = self.locate(node);
        let (low, high) = self.span(level, index);
        Point {
            x: (low + high) as f32 / 2.0 / self.processors as f32,
            y: 1.0 - (level as f32 + 0.5) / (self.levels() + 1) as f32,
        }
    }
}
