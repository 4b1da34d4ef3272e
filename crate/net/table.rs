//! Shortest routes on an irregular graph, by table: breadth-first distances between every
//! two nodes, and each node's links in a fixed order. A message at `at` bound for `to`
//! takes the first of `at`'s links that leads one step closer, so routes are shortest
//! and always the same. That link is found once, when the table is built, and kept in two
//! bits, so that the table of every hop fits a processor cache: memory is a byte and a
//! quarter per pair of nodes (1.25 MiB at 1024).

use super::{Hop, LinkId, Node};

/// The most links a node may have: a Transputer's four.
const MAX_LINKS: usize = 4;

/// Distances and neighbours of a connected graph whose diameter is below 255 and whose
/// nodes have at most [`MAX_LINKS`] links.
#[derive(Clone, Debug)]
pub(super) struct RoutingTable {
    nodes: usize,
    /// Each node's (link, neighbour), by ascending neighbour; `degree[a]` of them are used.
    neighbours: Vec<[(u32, u32); MAX_LINKS]>,
    degree: Vec<u8>,
    /// `distance[a * nodes + b]`: the hops from a to b.
    distance: Vec<u8>,
    /// Two bits at pair `a * nodes + b`: which of a's `neighbours` is the first hop to b.
    next: Vec<u8>,
    /// The longest distance.
    diameter: usize,
}

impl RoutingTable {
    /// The table of the graph on `nodes` nodes whose link `id` joins `ends[id]`.
    pub(super) fn new(nodes: usize, ends: &[(Node, Node)]) -> RoutingTable {
        let mut lists = vec![Vec::new(); nodes];
        for (id, &(a, b)) in ends.iter().enumerate() {
            lists[a].push((id as u32, b as u32));
            lists[b].push((id as u32, a as u32));
        }
        let mut neighbours = vec![[(0, 0); MAX_LINKS]; nodes];
        for (list, row) in lists.iter_mut().zip(&mut neighbours) {
            assert!(list.len() <= MAX_LINKS, "a routing table's nodes have at most {MAX_LINKS} links");
            list.sort_unstable_by_key(|&(_, node)| node);
            row[..list.len()].copy_from_slice(list);
        }
        let degree: Vec<u8> = lists.iter().map(|list| list.len() as u8).collect();
        let mut distance = vec![u8::MAX; nodes * nodes];
        let mut queue = Vec::with_capacity(nodes);
        for source in 0..nodes {
            let row = &mut distance[source * nodes..(source + 1) * nodes];
            row[source] = 0;
            queue.clear();
            queue.push(source);
            let mut next = 0;
            while let Some(&node) = queue.get(next) {
                next += 1;
                for &(_, neighbour) in &lists[node] {
                    let neighbour = neighbour as usize;
                    if row[neighbour] == u8::MAX {
                        row[neighbour] = row[node] + 1;
                        queue.push(neighbour);
                    }
                }
            }
            debug_assert_eq!(queue.len(), nodes, "the graph must be connected");
        }
        let diameter = distance.iter().copied().max().map_or(0, usize::from);
        let mut next = vec![0u8; (nodes * nodes).div_ceil(4)];
        for at in 0..nodes {
            for to in (0..nodes).filter(|&to| to != at) {
                let closer = distance[at * nodes + to] - 1;
                let index = lists[at].iter().position(|&(_, neighbour)| distance[neighbour as usize * nodes + to] == closer);
                let pair = at * nodes + to;
                next[pair / 4] |= (index.expect("a connected graph has a neighbour one step closer") as u8) << (2 * (pair % 4));
            }
        }
        RoutingTable { nodes, neighbours, degree, distance, next, diameter }
    }

    /// The hops between two nodes.
    pub(super) fn distance(&self, a: Node, b: Node) -> usize {
        usize::from(self.distance[a * self.nodes + b])
    }

    /// The first hop of the route from `at` to `to` (different nodes).
    pub(super) fn next_hop(&self, at: Node, to: Node) -> Hop {
        let pair = at * self.nodes + to;
        let index = usize::from(self.next[pair / 4] >> (2 * (pair % 4)) & 3);
        let (link, next) = self.neighbours[at][index];
        Hop { link: link as LinkId, from: at, to: next as Node }
    }

    /// The most links at one node.
    pub(super) fn degree(&self) -> usize {
        self.degree.iter().copied().max().map_or(0, usize::from)
    }

    /// The longest distance.
    pub(super) fn diameter(&self) -> usize {
        self.diameter
    }
}
