//! Links as the simulator sees them: each carries a message at a time per lane and per
//! direction (a link of width w has w lanes each way, a shared bus w lanes in all), so a
//! message that finds every lane busy waits: queueing shows in the trace and the times.
//!
//! Invariant: a lane's `free_at` only grows, and messages are handed to [`Links::cross`]
//! in the order they reach the link in virtual time (the simulator's calendar guarantees
//! it), so each lane is first come, first served and messages between two processors
//! keep their order.

use super::LinkUse;
use crate::net::{Ends, Hop, Topology};

/// Lanes of every link of a topology, with the time each becomes free (each link's lanes
/// per direction a min-heap by that time).
#[derive(Clone, Debug)]
pub(super) struct Links {
    /// Per link: its first lane in `free_at`.
    first_lane: Vec<u32>,
    /// Per link: lanes per direction (its width).
    width: Vec<u32>,
    /// Per link: the lower end of a point-to-point link (`u32::MAX` for a shared medium).
    low_end: Vec<u32>,
    /// When each lane is free again.
    free_at: Vec<u64>,
    /// Per link: the time messages held its lanes, summed over lanes.
    busy_ns: Vec<u64>,
}

impl Links {
    /// Every link of `topology`, all lanes free at time 0.
    pub(super) fn new(topology: &Topology) -> Links {
        let count = topology.link_count();
        let (mut first_lane, mut width, mut low_end) = (Vec::with_capacity(count), Vec::with_capacity(count), Vec::with_capacity(count));
        let mut lanes = 0u32;
        for link in topology.links() {
            let w = link.width.max(1);
            first_lane.push(lanes);
            width.push(w);
            let (low, directions) = match link.ends {
                Ends::Pair(a, _) => (a as u32, 2),
                Ends::Shared => (u32::MAX, 1),
            };
            low_end.push(low);
            lanes += w * directions;
        }
        Links { first_lane, width, low_end, free_at: vec![0; lanes as usize], busy_ns: vec![0; count] }
    }

    /// Frees every lane (a new run starts at time 0).
    pub(super) fn reset(&mut self) {
        self.free_at.fill(0);
        self.busy_ns.fill(0);
    }

    /// Per link, the time its lanes were held since the last reset.
    pub(super) fn busy_ns(&self) -> &[u64] {
        &self.busy_ns
    }

    /// How busy the links were over a run of `span_ns`: per link, the time its lanes
    /// carried messages over the time they could have (`span_ns` times its lanes).
    pub(super) fn utilisation(&self, span_ns: u64) -> LinkUse {
        let total_lanes = self.free_at.len() as u32;
        let shares: Vec<f64> = (0..self.busy_ns.len())
            .map(|link| {
                let next = self.first_lane.get(link + 1).copied().unwrap_or(total_lanes);
                let lanes = (next - self.first_lane[link]).max(1);
                self.busy_ns[link] as f64 / (span_ns.max(1) as f64 * lanes as f64)
            })
            .collect();
        let mean = shares.iter().sum::<f64>() / shares.len().max(1) as f64;
        LinkUse { mean, busiest: shares.iter().copied().fold(0.0, f64::max) }
    }

    /// A message reaches `hop`'s link at `arrive` and holds a lane for `hold`: returns
    /// when it starts crossing (later than `arrive` if it queued) and when it is across.
    pub(super) fn cross(&mut self, hop: Hop, arrive: u64, hold: u64) -> (u64, u64) {
        let link = hop.link;
        let width = self.width[link] as usize;
        let direction = usize::from(self.low_end[link] != u32::MAX && hop.from as u32 != self.low_end[link]);
        let first = self.first_lane[link] as usize + direction * width;
        let lanes = &mut self.free_at[first..first + width];
        // The lane free first is the heap's root; which of equally free lanes a message
        // takes changes no time, so the heap's order among them does not matter.
        let start = arrive.max(lanes[0]);
        let end = start + hold;
        lanes[0] = end;
        sift_down(lanes);
        self.busy_ns[link] += hold;
        (start, end)
    }
}

/// Restores a binary min-heap (children of i at 2i + 1 and 2i + 2) whose root has grown:
/// a wide link's lanes are kept so, for the free one in O(log width) (a CM-5 root has 256).
fn sift_down(heap: &mut [u64]) {
    let (mut i, value) = (0, heap[0]);
    loop {
        let left = 2 * i + 1;
        if left >= heap.len() {
            break;
        }
        let child = if left + 1 < heap.len() && heap[left + 1] < heap[left] { left + 1 } else { left };
        if heap[child] >= value {
            break;
        }
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = value;
}
