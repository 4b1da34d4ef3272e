//! Work splitting on a machine whose round trip costs as much as a subtree (a class through
//! its relay: 0.35 ms to 100 ms, thousands to hundreds of thousands of nodes): how big a
//! job must be to be worth a message, and how big a job of so many plies is expected to
//! be, from the search's own measured growth. On every other machine
//! (`Processor::round_trip_ns` is `None`) none of this acts and the papers' rules stand.
//! The papers, the idea and the invariants are in mod.rs.
//!
//! Expected sizes, in nodes, for a job of `d` plies, from processor 0's iterations:
//! iteration `d` searches each root move after the eldest to `d - 1` plies with a zero
//! window, as the root's young brothers given away are, so the nodes it spent after its
//! eldest was done, shared among the brothers it searched itself, are a job of `d - 1`
//! plies. The eldest, a principal variation's tree, is left out: it is most of an
//! iteration, and an iteration shared among all its root moves expected jobs eight times
//! the size they turned out (a real class of two at 22 plies, 10 ms: 23 jobs kept its
//! member busy 0.3 s in all); the whole iteration taken as one job let smaller ones still
//! cross. Sizes by plies are fitted through the last iterations (one iteration's brothers
//! can be anything: [`FITTED_ITERATIONS`]), which also gives depths not searched yet by
//! the fitted growth (the iterations' effective branching factor). A job's value comes
//! back with its span (its critical path, `Searcher::root_span`), not its nodes, so jobs
//! themselves are not measured: taken as sizes, their spans (tens of nodes for 15 plies)
//! held every later job back.

use super::contexts::MAX_CONTEXTS;
use super::requests::SERVE_INTERVAL;
use super::SplitProgram;
use crate::machine::Processor;
use crate::parallel::message::{Message, Pace};
use crate::search::{Listener, MAX_PLY};

/// How many round trips a job must be expected to take to be sent: its owner waits at
/// least one round trip for its value beyond the search itself, and a helper asking
/// again idles one more, so at four a helper spends at most about a third of its time
/// on the wire (two round trips in six) and a job smaller than that is better searched
/// where it is.
pub(super) const ROUND_TRIPS_PER_JOB: u64 = 4;

/// How often a paced processor looks for a split point for held requests, per round trip.
const LOOKS_PER_ROUND_TRIP: u64 = 8;

/// Iterations whose sizes are fitted. One iteration's young brothers of the root can all
/// be cut by the table (9 nodes each at 15 plies) or one of them searched again with a
/// full window (thousands), so a size read from the nearest iteration let a shallow depth
/// look worth a job (a class behind 1 ms a hop was sent jobs of 151 nodes, its round trip
/// 886); the first few iterations, tiny, are left out as they fall behind.
const FITTED_ITERATIONS: usize = 5;

/// The bounds of a believable effective branching factor (a few nodes' iterations, or
/// one cut short, can give anything).
const GROWTH_RANGE: (f64, f64) = (1.5, 10.0);

/// The logarithm of a job's size against its plies, fitted by least squares through the
/// last iterations, its slope (the growth) kept within [`GROWTH_RANGE`]; through one
/// iteration, its size at its own depth only.
#[derive(Clone, Copy)]
struct Fit {
    mean_plies: f64,
    mean_log_size: f64,
    log_growth: Option<f64>,
}

impl Fit {
    fn through(points: &[(f64, f64)]) -> Option<Fit> {
        if points.is_empty() {
            return None;
        }
        let n = points.len() as f64;
        let mean_plies = points.iter().map(|p| p.0).sum::<f64>() / n;
        let mean_log_size = points.iter().map(|p| p.1).sum::<f64>() / n;
        let spread: f64 = points.iter().map(|p| (p.0 - mean_plies).powi(2)).sum();
        let together: f64 = points.iter().map(|p| (p.0 - mean_plies) * (p.1 - mean_log_size)).sum();
        let log_growth = (points.len() > 1).then(|| (together / spread).clamp(GROWTH_RANGE.0.ln(), GROWTH_RANGE.1.ln()));
        Some(Fit { mean_plies, mean_log_size, log_growth })
    }

    fn at(&self, plies: i32) -> Option<f64> {
        let from_mean = f64::from(plies) - self.mean_plies;
        match self.log_growth {
            Some(slope) => Some((self.mean_log_size + slope * from_mean).exp()),
            None => (from_mean == 0.0).then(|| self.mean_log_size.exp()),
        }
    }
}

/// What a processor has measured of its search's subtrees.
#[derive(Default)]
pub(super) struct JobSizes {
    /// Per plies: the nodes of one young brother of the root in processor 0's iteration
    /// one ply deeper.
    iterations: Vec<Option<u64>>,
    /// The root's legal moves (processor 0).
    root_moves: u64,
    /// The iteration under way.
    current: Iteration,
    /// The sizes fitted through the last iterations.
    fit: Option<Fit>,
    /// The last [`JobSizes::least_depth`] asked and answered, until a measure changes it
    /// (it is asked at every look for a split point while requests are held).
    least_asked: Option<(u64, Option<i32>)>,
}

/// What is measured of processor 0's iteration under way.
#[derive(Default)]
struct Iteration {
    /// The plies completed before it.
    completed_before: i32,
    /// The root searcher's nodes when it began, and when its root's eldest move was done.
    started_at: u64,
    eldest_done_at: Option<u64>,
    /// Root moves given to other processors in it.
    root_moves_given: u64,
}

impl JobSizes {
    /// What processor 0 measures on a root with `root_moves` legal moves.
    pub(super) fn at_root(root_moves: usize) -> JobSizes {
        JobSizes { root_moves: root_moves.max(1) as u64, ..JobSizes::default() }
    }

    /// Processor 0's root searcher had visited `nodes` when its deepening had completed
    /// `completed` plies, its root's eldest move done or not (a search of the root
    /// started again, after its window failed, has not).
    pub(super) fn observe(&mut self, completed: i32, nodes: u64, eldest_done: bool) {
        if completed > self.current.completed_before {
            self.iteration_done(completed, nodes);
            return;
        }
        match (eldest_done, self.current.eldest_done_at) {
            (true, None) => self.current.eldest_done_at = Some(nodes),
            (false, Some(_)) => self.current.eldest_done_at = None,
            _ => {}
        }
    }

    /// Processor 0 gave one of its root's moves away: its nodes are not in the count.
    pub(super) fn root_move_given(&mut self) {
        self.current.root_moves_given += 1;
    }

    /// Processor 0's iteration of `depth` plies ended when its root searcher had visited
    /// `nodes`: the young brothers it searched itself share the nodes after the eldest (an
    /// iteration whose eldest was not seen done, or whose brothers all went away, shares
    /// all its nodes among all its moves).
    fn iteration_done(&mut self, depth: i32, nodes: u64) {
        let current = std::mem::replace(&mut self.current, Iteration { completed_before: depth, started_at: nodes, ..Iteration::default() });
        let Ok(plies) = usize::try_from(depth - 1) else { return };
        let brothers_here = self.root_moves.saturating_sub(1 + current.root_moves_given);
        let brother = match current.eldest_done_at {
            Some(at) if brothers_here > 0 => nodes.saturating_sub(at) / brothers_here,
            _ => nodes.saturating_sub(current.started_at) / self.root_moves.max(1),
        };
        if self.iterations.len() <= plies {
            self.iterations.resize(plies + 1, None);
        }
        self.iterations[plies] = Some(brother.max(1));
        self.refit();
        self.least_asked = None;
    }

    /// Fits the sizes of the last iterations again.
    fn refit(&mut self) {
        let mut recent = [(0.0, 0.0); FITTED_ITERATIONS];
        let mut count = 0;
        for (plies, size) in self.iterations.iter().enumerate().rev().filter_map(|(d, n)| n.map(|n| (d as f64, (n as f64).ln()))).take(FITTED_ITERATIONS) {
            recent[count] = (plies, size);
            count += 1;
        }
        self.fit = Fit::through(&recent[..count]);
    }

    /// The expected size of a job of `plies`, in nodes (`None`: nothing measured yet, or
    /// one iteration and another depth).
    pub(super) fn expected(&self, plies: i32) -> Option<f64> {
        self.fit?.at(plies)
    }

    /// The fewest plies a job must search to be expected to take `least_nodes` nodes
    /// (`None`: nothing measured yet, or none up to `deepest`).
    pub(super) fn least_depth(&mut self, least_nodes: u64, deepest: i32) -> Option<i32> {
        if let Some((_, answer)) = self.least_asked.filter(|&(asked, _)| asked == least_nodes) {
            return answer.filter(|&d| d <= deepest);
        }
        let answer = (1..=MAX_PLY as i32).find(|&plies| self.expected(plies).is_some_and(|n| n >= least_nodes as f64));
        self.least_asked = Some((least_nodes, answer));
        answer.filter(|&d| d <= deepest)
    }
}

impl<L: Listener> SplitProgram<'_, L> {
    /// The fewest plies a job given to processor `to` must search, on a machine whose
    /// round trip costs as much as a subtree: processor 0 works it out from the round
    /// trip, `to`'s speed and its measured sizes (nothing measured yet: no job is worth
    /// it); a helper takes its giver's ([`Pace`]). `None` elsewhere: the policy's rules
    /// alone, as in the papers.
    pub(super) fn least_plies(&mut self, to: usize, cpu: &dyn Processor<Message>) -> Option<i32> {
        match (self.root.is_some(), cpu.round_trip_ns()) {
            (true, Some(round_trip)) => {
                let least = cpu.node_ns(to).and_then(|node_ns| self.sizes.least_depth(least_job_nodes(round_trip, node_ns), MAX_PLY as i32));
                Some(least.unwrap_or(i32::MAX))
            }
            _ => self.received_pace().map(|pace| pace.least_depth),
        }
    }

    /// The pace that goes with job `job` of `plies` given to `to` (`None` on machines
    /// without one). A helper passes its own job's pace on, a job it gives expected to be
    /// the least worth sending (it has measured no sizes).
    pub(super) fn pace_of_job(&mut self, to: usize, plies: i32, cpu: &dyn Processor<Message>) -> Option<Pace> {
        if let (true, Some(round_trip)) = (self.root.is_some(), cpu.round_trip_ns()) {
            let node_ns = cpu.node_ns(to)?;
            let least_depth = self.least_plies(to, cpu)?.min(MAX_PLY as i32);
            let round_trip_nodes = round_trip_nodes(round_trip, node_ns);
            let expected_nodes = self.sizes.expected(plies).map_or(least_job_nodes(round_trip, node_ns), |n| n as u64);
            return Some(Pace { least_depth, expected_nodes, round_trip_nodes });
        }
        let mine = self.received_pace()?;
        Some(Pace { expected_nodes: ROUND_TRIPS_PER_JOB * mine.round_trip_nodes, ..mine })
    }

    /// Nodes between two looks for a split point while requests are held: the papers'
    /// few ([`SERVE_INTERVAL`]), or on a paced machine a round trip of this processor's
    /// nodes over [`LOOKS_PER_ROUND_TRIP`]. A paced job is worth four round trips, so a
    /// request served an eighth of one later loses nothing; looking every few nodes (each
    /// look a step's bookkeeping and a scan of every frame) cost processor 0 13 % of its
    /// speed for as long as a member's request was held (BK.02, 22 plies at 10 ms).
    pub(super) fn serve_interval(&self, cpu: &dyn Processor<Message>) -> u32 {
        let round_trip = match (self.root.is_some(), cpu.round_trip_ns()) {
            (true, Some(round_trip)) => cpu.node_ns(0).map(|node_ns| round_trip_nodes(round_trip, node_ns)),
            _ => self.received_pace().map(|pace| pace.round_trip_nodes),
        };
        round_trip.map_or(SERVE_INTERVAL, |nodes| u32::try_from(nodes / LOOKS_PER_ROUND_TRIP).unwrap_or(u32::MAX).max(SERVE_INTERVAL))
    }

    /// The pace a job searched here came with, if any.
    fn received_pace(&self) -> Option<Pace> {
        self.contexts.iter().find_map(|c| c.job.as_ref().and_then(|j| j.pace))
    }

    /// Processor 0 measures each iteration its deepening completes, by its root
    /// searcher's nodes (the deepening counts them only when the search ends).
    pub(super) fn measure_iteration(&mut self) {
        let Some(deepening) = self.root.as_ref().and_then(|r| r.deepening.as_ref()) else { return };
        let searcher = &self.contexts[0].searcher;
        self.sizes.observe(deepening.completed().depth, searcher.nodes(), searcher.root_moves_searched() > 0);
    }

    /// Whether this helper's one search that can go on is a paced job about to end, with
    /// no request of its own out: then it asks for its next job now, and the answer
    /// crosses the network while it finishes this one.
    pub(super) fn running_dry(&self) -> bool {
        if self.root.is_some() || !matches!(self.seeking, super::Seeking::Not) || self.contexts.len() >= MAX_CONTEXTS {
            return false;
        }
        let mut runnable = self.contexts.iter().filter(|c| !c.waiting);
        let (Some(only), None) = (runnable.next(), runnable.next()) else { return false };
        only.job.as_ref().is_some_and(|job| job.pace.is_some_and(|pace| ask_ahead(&pace, job.searched(&only.searcher))))
    }
}

/// The least size worth a message to a processor of `node_ns` per node, when a round trip
/// takes `round_trip_ns`: [`ROUND_TRIPS_PER_JOB`] round trips of its nodes.
pub(super) fn least_job_nodes(round_trip_ns: u64, node_ns: u64) -> u64 {
    ROUND_TRIPS_PER_JOB * round_trip_nodes(round_trip_ns, node_ns)
}

/// A round trip in nodes of a processor of `node_ns` per node.
pub(super) fn round_trip_nodes(round_trip_ns: u64, node_ns: u64) -> u64 {
    round_trip_ns / node_ns.max(1)
}

/// Whether a processor searching a job paced by `pace` should ask for its next one now,
/// `searched` nodes into it: once its expected remainder is under a round trip, so that
/// the answer arrives about when the job ends.
pub(super) fn ask_ahead(pace: &Pace, searched: u64) -> bool {
    pace.expected_nodes.saturating_sub(searched) < pace.round_trip_nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes measured on a root of one move from iterations of (plies of a job, nodes).
    fn iterations(sizes: &[(i32, u64)]) -> JobSizes {
        let mut s = JobSizes::at_root(1);
        let mut nodes = 0;
        for &(d, n) in sizes {
            nodes += n;
            s.observe(d + 1, nodes, false);
        }
        s
    }

    #[test]
    fn the_root_s_young_brothers_are_measured_apart_from_its_eldest() {
        let mut s = JobSizes::at_root(11);
        s.observe(9, 1_000, false);
        s.observe(9, 81_000, false);
        s.observe(9, 91_000, true);
        s.root_move_given();
        s.observe(9, 95_000, true);
        s.observe(10, 136_000, false);
        assert_eq!(s.iterations[9], Some(5_000), "45,000 nodes after the eldest, nine brothers searched here");
    }

    #[test]
    fn a_root_searched_again_measures_its_brothers_from_its_last_eldest() {
        let mut s = JobSizes::at_root(11);
        s.observe(9, 50_000, true);
        s.observe(9, 60_000, false);
        s.observe(9, 90_000, true);
        s.observe(10, 100_000, true);
        assert_eq!(s.iterations[9], Some(1_000));
    }

    #[test]
    fn an_iteration_whose_eldest_was_not_seen_is_shared_among_all_the_root_moves() {
        let mut s = JobSizes::at_root(30);
        s.observe(9, 100_000, false);
        s.observe(10, 400_000, false);
        assert_eq!(s.iterations[9], Some(10_000));
    }

    #[test]
    fn before_any_job_the_iterations_say_how_big_a_depth_is_and_their_growth_goes_beyond() {
        let s = iterations(&[(5, 1_000), (6, 3_000), (7, 9_000)]);
        assert!((s.expected(6).unwrap() - 3_000.0).abs() < 0.01);
        let beyond = s.expected(9).unwrap();
        assert!((beyond - 81_000.0).abs() < 1.0, "growth 3 a ply: {beyond}");
        let below = s.expected(3).unwrap();
        assert!((below - 1_000.0 / 9.0).abs() < 0.01, "{below}");
    }

    #[test]
    fn nothing_is_expected_before_anything_is_measured_and_one_iteration_gives_no_growth() {
        assert_eq!(JobSizes::default().expected(5), None);
        assert_eq!(JobSizes::default().least_depth(1, 20), None);
        let one = iterations(&[(4, 500)]);
        assert!((one.expected(4).unwrap() - 500.0).abs() < 0.01);
        assert_eq!(one.expected(5), None);
    }

    #[test]
    fn one_iteration_s_odd_size_does_not_make_a_shallow_depth_worth_a_job() {
        let mut s = iterations(&[(8, 50_000), (9, 2_000), (10, 4_000), (11, 8_000), (12, 16_000)]);
        let least = s.least_depth(40_000, 30).unwrap();
        assert!(least > 12, "the fit puts 40,000 nodes beyond the iterations, not at 8 plies: {least}");
    }

    #[test]
    fn the_least_depth_is_the_first_whose_jobs_take_enough_round_trips() {
        let mut s = iterations(&[(4, 100), (5, 400), (6, 1_600)]);
        // 10 ms there and back at 500 ns a node: 20,000 nodes, four of them 80,000.
        let least = least_job_nodes(10_000_000, 500);
        assert_eq!(least, 80_000);
        assert_eq!(s.least_depth(least, 30), Some(9), "102,400 nodes at 9 plies, 25,600 at 8");
        assert_eq!(s.least_depth(least, 8), None, "nothing that deep is searched");
        assert_eq!(s.least_depth(least, 9), Some(9), "asked again, the same answer");
    }

    #[test]
    fn a_processor_asks_ahead_once_its_job_has_less_than_a_round_trip_left() {
        let pace = Pace { least_depth: 8, expected_nodes: 100_000, round_trip_nodes: 20_000 };
        assert!(!ask_ahead(&pace, 50_000));
        assert!(ask_ahead(&pace, 80_001));
        assert!(ask_ahead(&pace, 150_000), "a job bigger than expected is past its end");
    }
}
