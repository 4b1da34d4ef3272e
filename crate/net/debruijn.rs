//! The binary DeBruijn graph DB(n) in Zugzwang's modified form: the network of the
//! Transputer machines Zugzwang (Feldmann, Mysliwietz, Monien) ran on.
//!
//! Processors are the n-bit strings 0…2^n−1. In the plain graph, x is linked to its
//! *shuffle* rotl(x) (rotated left by one bit) and to its *exchange* rotl(x) xor 1
//! (rotated, lowest bit flipped); equivalently to 2x and 2x+1 mod 2^n. Every processor
//! then uses four link ends, two out and two in, which is exactly a Transputer's four
//! links, and any processor reaches any other in at most n hops. Three places waste
//! link ends:
//! - 0…0 and 1…1 are their own shuffles: each has a self loop, two link ends wired to
//!   themselves;
//! - 0101… and 1010… (alternating bits) are linked twice: for even n each is the other's
//!   shuffle, for odd n each is the other's exchange.
//!
//! Zugzwang's form reuses those ends: the host computer takes one end of 0…0's loop; one
//! of the two links between 0101… and 1010… is removed; the freed ends make two added
//! links, 0…0–0101… and 1…1–1010…. One end of 1…1's loop stays free. So 0…0 has three
//! processor links and the host, 1…1 three links, every other processor four
//! (for n ≥ 3; DB(1) is a single link, and in DB(2) the added links coincide with
//! existing ones, which are not doubled). The diameter stays n, except for DB(4), where
//! the added links bring every pair within 3 hops.
//!
//! The added links break the shift-register routing of the plain graph (shift the target's
//! bits in one by one), so routes are shortest paths by table (`table.rs`).

use super::table::RoutingTable;
use super::{on_circle, Hop, Link, LinkId, LinkKind, Network, Node, Point};

/// DB(n) on 2^n processors, with its routing table. Link ids: for each x in order, its
/// shuffle link, then its exchange link (each link once, where it first appears), then
/// the added links.
#[derive(Clone, Debug)]
pub(super) struct DeBruijn {
    links: Vec<Link>,
    table: RoutingTable,
    processors: usize,
}

impl DeBruijn {
    pub(super) fn new(processors: usize) -> DeBruijn {
        let wiring = zugzwang_wiring(processors);
        let links = wiring.iter().map(|&(a, b, kind)| Link::pair(a, b, kind)).collect();
        let ends: Vec<(Node, Node)> = wiring.iter().map(|&(a, b, _)| (a, b)).collect();
        let table = RoutingTable::new(processors, &ends);
        DeBruijn { links, table, processors }
    }
}

/// The links of DB(n) in Zugzwang's form, n = log2 of `processors`, as (end, end, kind)
/// in id order.
fn zugzwang_wiring(processors: usize) -> Vec<(Node, Node, LinkKind)> {
    let mut wiring: Vec<(Node, Node, LinkKind)> = Vec::with_capacity(2 * processors);
    let mut add = |a: Node, b: Node, kind: LinkKind| {
        let joined = |&(c, d, _): &(Node, Node, LinkKind)| (c, d) == (a, b) || (c, d) == (b, a);
        if a != b && !wiring.iter().any(joined) {
            wiring.push((a, b, kind));
        }
    };
    let dimension = processors.trailing_zeros();
    if dimension > 0 {
        let all_ones = processors - 1;
        let rotate_left = |x: Node| (x << 1 | x >> (dimension - 1)) & all_ones;
        for x in 0..processors {
            add(x, rotate_left(x), LinkKind::Shuffle);
            add(x, rotate_left(x) ^ 1, LinkKind::Exchange);
        }
        let starts_01 = if dimension.is_multiple_of(2) { 0x5555_5555 } else { 0xAAAA_AAAA };
        let zero_one = starts_01 & all_ones;
        add(0, zero_one, LinkKind::Added);
        add(all_ones, zero_one ^ all_ones, LinkKind::Added);
    }
    wiring
}

impl Network for DeBruijn {
    fn processors(&self) -> usize {
        self.processors
    }

    fn link_count(&self) -> usize {
        self.links.len()
    }

    fn link(&self, id: LinkId) -> Link {
        self.links[id]
    }

    fn next_hop(&self, at: Node, to: Node) -> Hop {
        self.table.next_hop(at, to)
    }

    fn hops(&self, from: Node, to: Node) -> usize {
        self.table.distance(from, to)
    }

    fn degree(&self) -> usize {
        self.table.degree()
    }

    fn diameter(&self) -> usize {
        self.table.diameter()
    }

    /// Processor 0…0 carries the host link.
    fn host(&self) -> Option<Node> {
        Some(0)
    }

    /// On a circle in index order.
    fn layout(&self, node: Node) -> Point {
        on_circle(node, self.processors)
    }
}
