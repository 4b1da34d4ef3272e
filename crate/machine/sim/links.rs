//! Links as the simulator sees them: each carries a message at a time per lane and per
//! direction (a link of width w has w lanes each way, a shared bus w lanes in all), so a
//! message that finds every lane busy waits: queueing shows in the trace and the times.
//!
//! Invariant: a lane's `free_at` only grows, and messages are handed to [`Links::cross`]
//! in the order they reach the link in virtual time (the simulator's calendar guarantees
//! it), so each lane is first come, first served and messages between two processors
//! keep their order. Every message holds its lane for the same time, so the lane free
//! first is always the one taken longest ago: a link's lanes are taken in turn.

use super::LinkUse;
use crate::net::{Ends, Hop, Topology};

/// Lanes of every link of a topology, with the time each becomes free.
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
    /// Per link and direction (`2 * link + direction`): its lane taken next, counted
    /// from its first (the CM-5's root link has 256 lanes; looking for the free one
    /// would cost a scan of them at every hop).
    turn: Vec<u32>,
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
        Links { first_lane, width, low_end, free_at: vec![0; lanes as usize], turn: vec![0; 2 * count], busy_ns: vec![0; count] }
    }

    /// Frees every lane (a new run starts at time 0).
    pub(super) fn reset(&mut self) {
        self.free_at.fill(0);
        self.turn.fill(0);
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

    /// A message reaches `hop`'s link at `arrive` and holds a lane for `hold` (the same
    /// at every call): returns when it starts crossing (later than `arrive` if it queued)
    /// and when it is across.
    pub(super) fn cross(&mut self, hop: Hop, arrive: u64, hold: u64) -> (u64, u64) {
        let link = hop.link;
        let width = self.width[link] as usize;
        let direction = usize::from(self.low_end[link] != u32::MAX && hop.from as u32 != self.low_end[link]);
        let first = self.first_lane[link] as usize + direction * width;
        let turn = &mut self.turn[2 * link + direction];
        let lane = first + *turn as usize;
        debug_assert!(self.free_at[first..first + width].iter().all(|&free| free >= self.free_at[lane]), "the lane taken longest ago is free first");
        *turn = if *turn as usize + 1 == width { 0 } else { *turn + 1 };
        let start = arrive.max(self.free_at[lane]);
        let end = start + hold;
        self.free_at[lane] = end;
        self.busy_ns[link] += hold;
        (start, end)
    }
}
