//! Interconnection networks for the simulated machine: which processors are wired to
//! which, and the deterministic shortest route a message takes between two of them.
//!
//! A [`Topology`] is a graph of nodes joined by links. Nodes `0..processors()` are the
//! processors; a fat tree adds its switches after them (`processors()..nodes()`), because
//! a message crosses them physically and the simulator queues it on every link it uses.
//! Links have stable ids `0..link_count()`: the simulator keys its per-link queues and
//! load by them, the Lab UI draws them (with their [`LinkKind`]).
//!
//! Routing is by forwarding: each topology says, for a message at node `at` bound for
//! `to`, which link it takes next ([`Hop`]); a [`Route`] repeats that until it arrives,
//! so asking for a route allocates nothing. Every route is a shortest path, and the same
//! question always gets the same answer (ties are broken by a fixed rule per topology).
//!
//! Latency, bandwidth and queueing are the simulator's business; a link only says how
//! many messages it can carry side by side ([`Link::width`], more than one only in the
//! upper levels of a fat tree).

mod bus;
mod debruijn;
mod error;
mod fat_tree;
mod full;
mod hypercube;
mod kind;
mod link;
mod ring;
mod table;

pub use error::NetError;
pub use kind::Kind;
pub use link::{Ends, Hop, Link, LinkKind};

/// A node of a network: a processor (`0..processors()`) or a switch (`processors()..nodes()`).
pub type Node = usize;
/// A link's stable number, `0..link_count()`.
pub type LinkId = usize;

/// The most processors a network may have: the simulated machine's range (1 to 1024).
pub const MAX_PROCESSORS: usize = 1024;

/// Where the Lab UI may draw a node: both coordinates in 0..=1, y growing downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Horizontal position, 0 at the left.
    pub x: f32,
    /// Vertical position, 0 at the top.
    pub y: f32,
}

/// What every topology module provides. Callers have checked their arguments: nodes are
/// in range, `at != to` for [`Network::next_hop`], `id < link_count()` for [`Network::link`].
trait Network {
    fn processors(&self) -> usize;
    /// Processors and switches; only a fat tree has switches.
    fn nodes(&self) -> usize {
        self.processors()
    }
    fn link_count(&self) -> usize;
    fn link(&self, id: LinkId) -> Link;
    /// The first hop of the shortest route from `at` (a processor or a switch) to the
    /// processor `to`.
    fn next_hop(&self, at: Node, to: Node) -> Hop;
    /// The length of the route between two processors.
    fn hops(&self, from: Node, to: Node) -> usize;
    /// The most links at any one node.
    fn degree(&self) -> usize;
    /// The longest route between two processors.
    fn diameter(&self) -> usize;
    fn host(&self) -> Option<Node> {
        None
    }
    fn layout(&self, node: Node) -> Point;
}

/// The concrete networks, one per [`Kind`].
#[derive(Clone, Debug)]
enum Shape {
    DeBruijn(debruijn::DeBruijn),
    Hypercube(hypercube::Hypercube),
    FatTree(fat_tree::FatTree),
    Bus(bus::Bus),
    Ring(ring::Ring),
    Full(full::Full),
}

/// An interconnection network of a given kind and processor count, with its routing.
///
/// ```
/// use meshmate::net::{Kind, Topology};
/// let net = Topology::new("hypercube".parse::<Kind>()?, 8)?;
/// let route: Vec<_> = net.route(0, 7)?.map(|hop| hop.to).collect();
/// assert_eq!(route, [1, 3, 7]); // the lowest differing bit first
/// assert_eq!((net.degree(), net.diameter()), (3, 3));
/// # Ok::<(), meshmate::net::NetError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Topology {
    shape: Shape,
}

impl Topology {
    /// Builds the network, or says why this kind cannot have this many processors.
    pub fn new(kind: Kind, processors: usize) -> Result<Topology, NetError> {
        kind.check(processors)?;
        let shape = match kind {
            Kind::DeBruijn => Shape::DeBruijn(debruijn::DeBruijn::new(processors)),
            Kind::Hypercube => Shape::Hypercube(hypercube::Hypercube::new(processors)),
            Kind::FatTree => Shape::FatTree(fat_tree::FatTree::new(processors)),
            Kind::Bus => Shape::Bus(bus::Bus::new(processors)),
            Kind::Ring => Shape::Ring(ring::Ring::new(processors)),
            Kind::Full => Shape::Full(full::Full::new(processors)),
        };
        Ok(Topology { shape })
    }

    fn network(&self) -> &dyn Network {
        match &self.shape {
            Shape::DeBruijn(net) => net,
            Shape::Hypercube(net) => net,
            Shape::FatTree(net) => net,
            Shape::Bus(net) => net,
            Shape::Ring(net) => net,
            Shape::Full(net) => net,
        }
    }

    /// Which kind of network this is.
    pub fn kind(&self) -> Kind {
        match self.shape {
            Shape::DeBruijn(_) => Kind::DeBruijn,
            Shape::Hypercube(_) => Kind::Hypercube,
            Shape::FatTree(_) => Kind::FatTree,
            Shape::Bus(_) => Kind::Bus,
            Shape::Ring(_) => Kind::Ring,
            Shape::Full(_) => Kind::Full,
        }
    }

    /// How many processors; they are the nodes `0..processors()`.
    pub fn processors(&self) -> usize {
        self.network().processors()
    }

    /// How many nodes: the processors, then the switches (a fat tree's only).
    pub fn nodes(&self) -> usize {
        self.network().nodes()
    }

    /// Whether `node` is a processor (not a switch, not out of range).
    pub fn is_processor(&self, node: Node) -> bool {
        node < self.processors()
    }

    /// How many links; their ids are `0..link_count()`.
    pub fn link_count(&self) -> usize {
        self.network().link_count()
    }

    /// The link with this id, or `None` if there is no such link.
    pub fn link(&self, id: LinkId) -> Option<Link> {
        (id < self.link_count()).then(|| self.network().link(id))
    }

    /// Every link, in id order (computed on the fly: a full network of 1024 processors has
    /// half a million).
    pub fn links(&self) -> impl ExactSizeIterator<Item = Link> + '_ {
        let network = self.network();
        (0..network.link_count()).map(move |id| network.link(id))
    }

    /// The shortest route from processor `from` to processor `to`, hop by hop; empty if
    /// they are the same. Always the same route for the same pair.
    pub fn route(&self, from: Node, to: Node) -> Result<Route<'_>, NetError> {
        let remaining = self.hops(from, to)?;
        Ok(Route { topology: self, at: from, to, remaining })
    }

    /// The next hop of the route to processor `to` for a message at node `at` (a node of
    /// a route to `to`), or `None` when it is there: a route taken one hop at a time by a
    /// caller that keeps where its message is (the simulator, which checked the ends).
    pub fn next_hop(&self, at: Node, to: Node) -> Option<Hop> {
        debug_assert!(at < self.nodes() && self.is_processor(to));
        if at == to {
            return None;
        }
        // Matched here rather than through `network()`, so that the hop is inlined.
        Some(match &self.shape {
            Shape::DeBruijn(net) => net.next_hop(at, to),
            Shape::Hypercube(net) => net.next_hop(at, to),
            Shape::FatTree(net) => net.next_hop(at, to),
            Shape::Bus(net) => net.next_hop(at, to),
            Shape::Ring(net) => net.next_hop(at, to),
            Shape::Full(net) => net.next_hop(at, to),
        })
    }

    /// How many links the route from `from` to `to` crosses.
    pub fn hops(&self, from: Node, to: Node) -> Result<usize, NetError> {
        self.check_processor(from)?;
        self.check_processor(to)?;
        Ok(if from == to { 0 } else { self.network().hops(from, to) })
    }

    /// The most links at any one node (processor or switch). A bus counts as one link.
    pub fn degree(&self) -> usize {
        self.network().degree()
    }

    /// The longest shortest route between two processors, in hops.
    pub fn diameter(&self) -> usize {
        self.network().diameter()
    }

    /// The processor the host computer is wired to, where the network has one (DeBruijn,
    /// as in Zugzwang: processor 0…0). The host link is not one of [`Topology::links`].
    pub fn host(&self) -> Option<Node> {
        self.network().host()
    }

    /// Where the Lab UI may draw this node, or `None` if there is no such node.
    pub fn layout(&self, node: Node) -> Option<Point> {
        (node < self.nodes()).then(|| self.network().layout(node))
    }

    fn check_processor(&self, node: Node) -> Result<(), NetError> {
        let processors = self.processors();
        if node < processors {
            Ok(())
        } else {
            Err(NetError::NotAProcessor { node, processors })
        }
    }
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {} processors", self.kind(), self.processors())
    }
}

/// The hops of one route, computed as they are taken (no allocation).
#[derive(Clone)]
pub struct Route<'a> {
    topology: &'a Topology,
    at: Node,
    to: Node,
    remaining: usize,
}

impl Iterator for Route<'_> {
    type Item = Hop;

    fn next(&mut self) -> Option<Hop> {
        let hop = self.topology.next_hop(self.at, self.to)?;
        self.at = hop.to;
        self.remaining -= 1;
        Some(hop)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Route<'_> {}

/// Node `index` of `count` on a circle, in index order clockwise from the top.
fn on_circle(index: usize, count: usize) -> Point {
    let angle = std::f32::consts::TAU * index as f32 / count as f32;
    Point { x: 0.5 + 0.45 * angle.sin(), y: 0.5 - 0.45 * angle.cos() }
}
