//! The interconnection networks: routes are shortest paths along existing links (checked
//! against a breadth-first search written here), deterministic, and degree and diameter
//! match both the textbook formulas and what the search measures; Zugzwang's DeBruijn
//! modification is wired as described; bad requests are errors.

use meshmate::net::{Ends, Kind, LinkKind, NetError, Node, Topology, MAX_PROCESSORS};
use std::collections::VecDeque;

/// Powers of two every kind allows (1 to 1024), and counts only some allow.
const POWERS_OF_TWO: [usize; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const OTHER_COUNTS: [usize; 6] = [3, 5, 6, 12, 17, 100];

fn sizes(kind: Kind) -> Vec<usize> {
    let mut sizes = POWERS_OF_TWO.to_vec();
    if !matches!(kind, Kind::DeBruijn | Kind::Hypercube) {
        sizes.extend(OTHER_COUNTS);
    }
    sizes
}

fn build(kind: Kind, processors: usize) -> Topology {
    Topology::new(kind, processors).unwrap_or_else(|error| panic!("{kind} {processors}: {error}"))
}

/// Every node's neighbours, read from `links()` alone. A shared medium joins every two
/// processors.
fn neighbours(net: &Topology) -> Vec<Vec<Node>> {
    let mut neighbours = vec![Vec::new(); net.nodes()];
    for link in net.links() {
        match link.ends {
            Ends::Pair(a, b) => {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
            Ends::Shared => {
                for (a, list) in neighbours.iter_mut().enumerate().take(net.processors()) {
                    list.extend((0..net.processors()).filter(|&b| b != a));
                }
            }
        }
    }
    neighbours
}

/// Hops from `source` to every node, by breadth-first search; `usize::MAX` if unreachable.
fn bfs(neighbours: &[Vec<Node>], source: Node) -> Vec<usize> {
    let mut distance = vec![usize::MAX; neighbours.len()];
    distance[source] = 0;
    let mut queue = VecDeque::from([source]);
    while let Some(node) = queue.pop_front() {
        for &next in &neighbours[node] {
            if distance[next] == usize::MAX {
                distance[next] = distance[node] + 1;
                queue.push_back(next);
            }
        }
    }
    distance
}

/// The processors to search and route from: all of them, but a sample where that would
/// take long: dense networks (bus and full, where every processor is alike) and long
/// routes (a ring of 1024).
fn sources(net: &Topology, neighbours: &[Vec<Node>]) -> Vec<Node> {
    let p = net.processors();
    let sparse = neighbours.iter().map(Vec::len).sum::<usize>() <= 16 * neighbours.len();
    let short = p * p * net.diameter() <= 20_000_000;
    if p <= 64 || (sparse && short) {
        (0..p).collect()
    } else {
        vec![0, 1, p / 3, p / 2, p - 2, p - 1]
    }
}

/// The nodes a route passes through after `from`.
fn visits(net: &Topology, from: Node, to: Node) -> Vec<Node> {
    net.route(from, to).unwrap().map(|hop| hop.to).collect()
}

fn every_network() -> impl Iterator<Item = Topology> {
    Kind::ALL.into_iter().flat_map(|kind| sizes(kind).into_iter().map(move |p| build(kind, p)))
}

#[test]
fn every_route_is_a_shortest_path_along_existing_links() {
    for net in every_network() {
        let neighbours = neighbours(&net);
        for from in sources(&net, &neighbours) {
            let distance = bfs(&neighbours, from);
            for (to, &shortest) in distance.iter().enumerate().take(net.processors()) {
                let route = net.route(from, to).unwrap();
                assert_eq!(route.len(), shortest, "{net}: route length {from} to {to}");
                let mut at = from;
                for hop in route {
                    assert_eq!(hop.from, at, "{net}: route {from} to {to} is not a chain");
                    let link = net.link(hop.link).expect("a route uses existing links");
                    assert!(link.joins(hop.from, hop.to), "{net}: {hop:?} along {link:?}");
                    at = hop.to;
                }
                assert_eq!(at, to, "{net}: route {from} to {to} ends elsewhere");
                assert_eq!(net.hops(from, to), Ok(shortest), "{net}: hops {from} to {to}");
            }
        }
    }
}

#[test]
fn routes_are_deterministic() {
    for net in every_network() {
        let twin = build(net.kind(), net.processors());
        let p = net.processors();
        // Every pair in small networks, a spread of pairs in large ones.
        let step = if p > 64 { 37 } else { 1 };
        for from in (0..p).step_by(step) {
            for to in (0..p).step_by(step) {
                let first: Vec<_> = net.route(from, to).unwrap().collect();
                assert_eq!(first, net.route(from, to).unwrap().collect::<Vec<_>>(), "{net}");
                assert_eq!(first, twin.route(from, to).unwrap().collect::<Vec<_>>(), "{net}");
            }
        }
        assert!(net.links().eq(twin.links()), "{net}: link ids are not stable");
    }
}

/// The textbook degree and diameter of each kind.
fn expected_degree_and_diameter(kind: Kind, p: usize) -> (usize, usize) {
    let n = p.trailing_zeros() as usize;
    match kind {
        Kind::DeBruijn => {
            let degree = [0, 1, 3].get(n).copied().unwrap_or(4);
            // Zugzwang's added links shorten DB(4)'s longest routes (0000 to 1111 by
            // 0000-0101-1010-1111); from DB(5) on some pair is still n hops apart.
            let diameter = if n == 4 { 3 } else { n };
            (degree, diameter)
        }
        Kind::Hypercube => (n, n),
        Kind::FatTree => {
            let levels = (0..).find(|&level| 4usize.pow(level) >= p).unwrap() as usize;
            let degree = match levels {
                0 => 0,
                1 => p,
                _ => 5,
            };
            (degree, 2 * levels)
        }
        Kind::Bus => (usize::from(p > 1), usize::from(p > 1)),
        Kind::Ring => (p.min(3) - 1, p / 2),
        Kind::Full => (p - 1, usize::from(p > 1)),
    }
}

#[test]
fn degree_and_diameter_match_the_formulas_and_the_search() {
    for net in every_network() {
        let neighbours = neighbours(&net);
        let mut links_at = vec![0; net.nodes()];
        for link in net.links() {
            match link.ends {
                Ends::Pair(a, b) => [a, b].into_iter().for_each(|node| links_at[node] += 1),
                Ends::Shared => links_at.iter_mut().for_each(|links| *links += 1),
            }
        }
        let measured_degree = links_at.into_iter().max().unwrap();
        let measured_diameter = sources(&net, &neighbours)
            .into_iter()
            .map(|source| {
                bfs(&neighbours, source)[..net.processors()].iter().copied().max().unwrap()
            })
            .max()
            .unwrap();
        let expected = expected_degree_and_diameter(net.kind(), net.processors());
        assert_eq!((net.degree(), net.diameter()), expected, "{net}: formulas");
        assert_eq!((measured_degree, measured_diameter), expected, "{net}: measured");
    }
}

#[test]
fn debruijn_is_wired_in_zugzwangs_form() {
    for n in 3..=10u32 {
        let p = 1usize << n;
        let net = build(Kind::DeBruijn, p);
        let all_ones = p - 1;
        let rotate_left = |x: usize| (x << 1 | x >> (n - 1)) & all_ones;
        // 0101… and 1010…: alternating bits, 0 first at the most significant end.
        let zero_one =
            (0..n).filter(|bit| (n - 1 - bit) % 2 == 1).map(|bit| 1 << bit).sum::<usize>();
        let one_zero = zero_one ^ all_ones;
        let between = |a: usize, b: usize| {
            net.links().filter(move |link| link.joins(a, b)).collect::<Vec<_>>()
        };

        assert_eq!(net.host(), Some(0), "DB({n}): the host is on 0…0");
        for link in net.links() {
            let Ends::Pair(a, b) = link.ends else {
                panic!("DB({n}): {link:?} is not point to point")
            };
            assert_ne!(a, b, "DB({n}): self loop");
            let shuffles = rotate_left(a) == b || rotate_left(b) == a;
            let exchanges = rotate_left(a) ^ 1 == b || rotate_left(b) ^ 1 == a;
            match link.kind {
                LinkKind::Shuffle => assert!(shuffles, "DB({n}): {link:?}"),
                LinkKind::Exchange => assert!(exchanges, "DB({n}): {link:?}"),
                LinkKind::Added => assert!(
                    (a, b) == (0, zero_one) || (a, b) == (one_zero, all_ones),
                    "DB({n}): {link:?}"
                ),
                other => panic!("DB({n}): a {other:?} link"),
            }
        }
        // Every link of the plain graph but the self loops is there, exactly once.
        for x in 0..p {
            for y in [rotate_left(x), rotate_left(x) ^ 1] {
                if x != y {
                    assert_eq!(between(x, y).len(), 1, "DB({n}): {x}–{y}");
                }
            }
        }
        // The double link of 0101… and 1010… is single: a shuffle for even n, an exchange for odd.
        let alternating = between(zero_one, one_zero);
        let kind = if n % 2 == 0 { LinkKind::Shuffle } else { LinkKind::Exchange };
        assert_eq!(alternating.iter().map(|link| link.kind).collect::<Vec<_>>(), [kind], "DB({n})");
        // The added links, with the added kind.
        assert_eq!(
            between(0, zero_one).iter().map(|l| l.kind).collect::<Vec<_>>(),
            [LinkKind::Added]
        );
        assert_eq!(
            between(all_ones, one_zero).iter().map(|l| l.kind).collect::<Vec<_>>(),
            [LinkKind::Added]
        );
        // Plain DB(n) has 2p links counting loops and the double link; minus 3, plus 2.
        assert_eq!(net.link_count(), 2 * p - 1, "DB({n})");
        // Four Transputer links each: 0…0 has three and the host, 1…1 three and a free one.
        for node in 0..p {
            let links = net.links().filter(|link| link.touches(node)).count();
            let expected = if node == 0 || node == all_ones { 3 } else { 4 };
            assert_eq!(links, expected, "DB({n}): links at {node}");
        }
    }
}

#[test]
fn small_debruijn_graphs_do_not_double_links() {
    assert_eq!(build(Kind::DeBruijn, 1).link_count(), 0);
    let db1: Vec<_> = build(Kind::DeBruijn, 2).links().map(|link| link.ends).collect();
    assert_eq!(db1, [Ends::Pair(0, 1)]);
    // DB(2): 00–01, 00–10, 01–11, 10–11 (exchanges) and 01–10 (the single shuffle).
    let db2 = build(Kind::DeBruijn, 4);
    assert_eq!(db2.link_count(), 5);
    assert_eq!(db2.links().filter(|link| link.kind == LinkKind::Shuffle).count(), 1);
}

#[test]
fn fat_tree_widens_towards_the_root() {
    let net = build(Kind::FatTree, 1024);
    // 1024 processors, then 256 + 64 + 16 + 4 + 1 switches.
    assert_eq!(net.nodes(), 1024 + 341);
    assert_eq!(net.link_count(), net.nodes() - 1);
    let mut widths = std::collections::BTreeMap::new();
    for link in net.links() {
        let LinkKind::Up(level) = link.kind else { panic!("{link:?}") };
        let Ends::Pair(child, _) = link.ends else { panic!("{link:?}") };
        assert_eq!(net.is_processor(child), level == 0, "{link:?}");
        assert_eq!(*widths.entry(level).or_insert(link.width), link.width, "level {level}");
    }
    let widths: Vec<_> = widths.into_iter().collect();
    assert_eq!(widths, [(0, 1), (1, 2), (2, 4), (3, 16), (4, 64)]);
    // Neighbours in a group of 4 meet at the first switch; 0 and 1023 at the root.
    assert_eq!(net.hops(0, 3), Ok(2));
    assert_eq!(net.hops(3, 4), Ok(4));
    assert_eq!(net.hops(0, 1023), Ok(10));
    let through = visits(&net, 0, 1023);
    assert!(through[..9].iter().all(|&node| !net.is_processor(node)), "{through:?}");
}

#[test]
fn ring_breaks_ties_upwards() {
    let ring = build(Kind::Ring, 8);
    assert_eq!(visits(&ring, 0, 4), [1, 2, 3, 4]);
    assert_eq!(visits(&ring, 4, 0), [5, 6, 7, 0]);
    assert_eq!(visits(&ring, 1, 7), [0, 7]);
}

#[test]
fn hypercube_corrects_the_lowest_bit_first() {
    let net = build(Kind::Hypercube, 16);
    assert_eq!(visits(&net, 0, 15), [1, 3, 7, 15]);
    assert_eq!(visits(&net, 12, 3), [13, 15, 11, 3]);
    let kinds: Vec<_> =
        net.route(0, 10).unwrap().map(|hop| net.link(hop.link).unwrap().kind).collect();
    assert_eq!(kinds, [LinkKind::Dimension(1), LinkKind::Dimension(3)]);
}

#[test]
fn link_ids_are_consistent() {
    for net in every_network() {
        assert_eq!(net.links().len(), net.link_count(), "{net}");
        let mut pairs = std::collections::HashSet::new();
        for (id, link) in net.links().enumerate() {
            assert_eq!(net.link(id), Some(link), "{net}: link {id}");
            assert!(link.width >= 1, "{net}: {link:?}");
            if let Ends::Pair(a, b) = link.ends {
                assert!(a < b && b < net.nodes(), "{net}: {link:?}");
                assert!(pairs.insert((a, b)), "{net}: {a}–{b} linked twice");
            }
        }
        assert_eq!(net.link(net.link_count()), None, "{net}");
    }
}

#[test]
fn layout_stays_in_the_unit_square_and_separates_nodes() {
    for net in every_network() {
        let mut seen = std::collections::HashSet::new();
        for node in 0..net.nodes() {
            let point = net.layout(node).unwrap();
            assert!(
                (0.0..=1.0).contains(&point.x) && (0.0..=1.0).contains(&point.y),
                "{net}: {point:?}"
            );
            assert!(
                seen.insert((point.x.to_bits(), point.y.to_bits())),
                "{net}: node {node} drawn on another"
            );
        }
        assert_eq!(net.layout(net.nodes()), None, "{net}");
    }
}

#[test]
fn names_read_back() {
    for kind in Kind::ALL {
        assert_eq!(kind.name().parse::<Kind>(), Ok(kind));
        assert_eq!(kind.to_string().to_uppercase().parse::<Kind>(), Ok(kind));
    }
    assert_eq!(" fattree\n".parse::<Kind>(), Ok(Kind::FatTree));
    let error = "torus".parse::<Kind>().unwrap_err();
    assert_eq!(error, NetError::UnknownKind("torus".into()));
    assert_eq!(
        error.to_string(),
        "unknown network \"torus\": expected one of debruijn, hypercube, fattree, bus, ring, full"
    );
}

#[test]
fn bad_requests_are_errors() {
    for kind in Kind::ALL {
        assert_eq!(Topology::new(kind, 0).unwrap_err(), NetError::NoProcessors, "{kind}");
        let too_many = Topology::new(kind, MAX_PROCESSORS + 1).unwrap_err();
        assert_eq!(too_many, NetError::TooManyProcessors(MAX_PROCESSORS + 1), "{kind}");
    }
    for kind in [Kind::DeBruijn, Kind::Hypercube] {
        for p in [3, 6, 48, 1000] {
            let error = Topology::new(kind, p).unwrap_err();
            assert_eq!(error, NetError::NotAPowerOfTwo { kind, processors: p });
            assert!(error.to_string().contains("needs a power of two"), "{error}");
        }
    }
    assert_eq!(
        NetError::NotAPowerOfTwo { kind: Kind::DeBruijn, processors: 48 }.to_string(),
        "debruijn needs a power of two processors (1, 2, 4, ..., 1024), not 48"
    );
    let tree = build(Kind::FatTree, 16);
    let first_switch = tree.processors();
    let not_a_processor = NetError::NotAProcessor { node: first_switch, processors: 16 };
    assert_eq!(tree.route(first_switch, 0).err(), Some(not_a_processor.clone()));
    assert_eq!(tree.route(0, first_switch).err(), Some(not_a_processor.clone()));
    assert_eq!(tree.hops(0, first_switch), Err(not_a_processor));
    assert_eq!(
        build(Kind::Ring, 4).hops(9, 0).unwrap_err().to_string(),
        "node 9 is not a processor: this network's processors are 0 to 3"
    );
}

/// Routes per second at 1024 processors, by kind: `cargo test --test net -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn routes_per_second_at_1024() {
    const ROUTES: usize = 2_000_000;
    for kind in Kind::ALL {
        let start = std::time::Instant::now();
        let net = build(kind, 1024);
        println!("{kind:>9}: built in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
        let start = std::time::Instant::now();
        let (mut state, mut hops) = (0x2545_f491_4f6c_dd1d_u64, 0usize);
        for _ in 0..ROUTES {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let (from, to) = ((state & 1023) as usize, (state >> 10 & 1023) as usize);
            hops += net.route(from, to).unwrap().map(std::hint::black_box).count();
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{kind:>9}: {:>6.1} M routes/s, {:>6.1} M hops/s, {:.2} hops per route",
            ROUTES as f64 / seconds / 1e6,
            hops as f64 / seconds / 1e6,
            hops as f64 / ROUTES as f64
        );
    }
}
