//! Shortest routes on an irregular graph, by table: breadth-first distances between every
//! two nodes, and each node's links in a fixed order. A message at `at` bound for `to`
//! takes the first of `at`'s links that leads one step closer, so routes are shortest
//! and always the same. Memory is one byte per pair of nodes (1 MiB at 1024).

use super::{Hop, LinkId, Node};

/// Distances and neighbours of a connected graph whose diameter is below 255.
#[derive(Clone, Debug)]
pub(super) struct RoutingTable {
    nodes: usize,
    /// Each node's (link, neighbour), by ascending neighbour.
    neighbours: Vec<Vec<(LinkId, Node)>>,
    /// `distance[a * nodes + b]`: the hops from a to b.
    distance: Vec<u8>,
    /// The longest distance.
    diameter: usize,
}

impl RoutingTable {
    /// The table of the graph on `nodes` nodes whose link `id` joins `ends[id]`.
    pub(super) fn new(nodes: usize, ends: &[(Node, Node)]) -> RoutingTable {
        let mut neighbours = vec![Vec::new(); nodes];
        for (id, &(a, b)) in ends.iter().enumerate() {
            neighbours[a].push((id, b));
            neighbours[b].push((id, a));
        }
        for list in &mut neighbours {
            list.sort_unstable_by_key(|&(_, node)| node);
        }
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
                for &(_, neighbour) in &neighbours[node] {
                    if row[neighbour] == u8::MAX {
                        row[neighbour] = row[node] + 1;
                        queue.push(neighbour);
                    }
                }
            }
            debug_assert_eq!(queue.len(), nodes, "the graph must be connected");
        }
        let diameter = distance.iter().copied().max().map_or(0, usize::from);
        RoutingTable { nodes, neighbours, distance, diameter }
    }

    /// The hops between two nodes.
    pub(super) fn distance(&self, a: Node, b: Node) -> usize {
        usize::from(self.distance[a * self.nodes + b])
    }

    /// The first hop of the route from `at` to `to` (different nodes).
    pub(super) fn next_hop(&self, at: Node, to: Node) -> Hop {
        let closer = self.distance(at, to) - 1;
        let (link, next) = self.neighbours[at]
            .iter()
            .copied()
            .find(|&(_, neighbour)| self.distance(neighbour, to) == closer)
            .expect("a connected graph has a neighbour one step closer");
        Hop { link, from: at, to: next }
    }

    /// The most links at one node.
    pub(super) fn degree(&self) -> usize {
        self.neighbours.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The longest distance.
    pub(super) fn diameter(&self) -> usize {
        self.diameter
    }
}
