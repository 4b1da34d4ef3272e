//! The giving side of work splitting: answering a work request with a subproblem from the
//! best split point, holding requests that cannot be served yet (and serving them in the
//! policy's order once a split point appears), and posting on the offer board what a
//! requester would get here. The papers, the idea and the invariants are in mod.rs.

use crate::parallel::work_by_speed;
use super::{Seek, SplitProgram};
use crate::parallel::message::Message;
use crate::parallel::program::forward_tree_events;
use crate::machine::{Note, Processor};
use crate::search::Listener;

/// Nodes between two looks for a split point while work requests are held.
pub(super) const SERVE_INTERVAL: u32 = 8;

impl<L: Listener> SplitProgram<'_, L> {
    /// The best split point over this processor's searches for a requester of speed
    /// `asker` (if told) whose jobs must search at least `least_plies` (if any bound:
    /// `pace`): merit, context, frame.
    pub(super) fn best_split(&self, asker: Option<u32>, least_plies: Option<i32>) -> Option<(i32, usize, usize)> {
        let merit = self.policy.merit;
        // A job searches one ply less than the node it is split from.
        let deep_enough = move |depth: i32| least_plies.is_none_or(|least| depth > least);
        let candidates = self.contexts.iter().enumerate().flat_map(|(i, c)| c.searcher.split_candidates().filter(move |cand| deep_enough(cand.depth)).filter_map(move |cand| merit(&cand).map(|m| (m, i, cand))));
        if let (Some(asker), Some(own)) = (asker, self.speed.rate()) {
            return work_by_speed::choose(candidates, asker, own);
        }
        candidates.map(|(m, i, cand)| (m, i, cand.frame)).max_by_key(|&(m, i, frame)| (m, std::cmp::Reverse((i, frame))))
    }

    /// Posts on the machine's offer board the remaining depth of the split point a
    /// requester would get here now.
    fn post_offer(&mut self, cpu: &mut dyn Processor<Message>) {
        if !cpu.has_offer_board() {
            return;
        }
        let offer = self.best_split(None, None).map(|(_, i, frame)| self.contexts[i].searcher.frame_depth(frame));
        cpu.post_offer(offer);
    }

    /// Posts on the offer board every few steps, at once after a split (`give_work` sets
    /// `until_post` to 0), and whenever every search here waits (`idle`).
    pub(super) fn post_offer_when_due(&mut self, idle: bool, cpu: &mut dyn Processor<Message>) {
        if self.until_post == 0 || idle {
            self.until_post = SERVE_INTERVAL;
            self.post_offer(cpu);
        }
        self.until_post -= 1;
    }

    /// Answers a work request: with work, or later once a split point appears while this
    /// processor is still working (NO-WORK at once would only make the asker ask again),
    /// or NO-WORK.
    pub(super) fn answer_work_request(&mut self, from: usize, rate: Option<u32>, cpu: &mut dyn Processor<Message>) {
        if self.policy.seek == Seek::PoolByAvailability {
            self.held_requests.push((from, rate));
            self.until_serve = 1;
            return self.serve_held_requests(0, cpu);
        }
        if !self.give_work(from, rate, cpu) {
            if self.contexts.iter().any(|c| !c.waiting) {
                self.held_requests.push((from, rate));
            } else {
                cpu.send(from, Message::NoWork);
            }
        }
    }

    /// Gives `to` (of speed `rate`, if told) a subproblem from the best split point for
    /// it, if there is one.
    fn give_work(&mut self, to: usize, rate: Option<u32>, cpu: &mut dyn Processor<Message>) -> bool {
        let job = self.next_job;
        let window = self.policy.window;
        let least_plies = self.least_plies(to, cpu);
        let Some((_, i, frame)) = self.best_split(rate, least_plies) else { return false };
        let given = self.contexts[i].searcher.give_away(frame, to, window, job);
        forward_tree_events(&mut self.contexts[i].searcher, cpu);
        let Some(problem) = given else { return false };
        self.next_job = self.next_job.wrapping_add(1);
        if self.root.is_some() && (i, frame) == (0, 0) {
            self.sizes.root_move_given();
        }
        cpu.note(Note::Split);
        let pace = self.pace_of_job(to, problem.depth, cpu);
        cpu.send(to, Message::Work { job, problem: Box::new(problem), pace });
        self.until_post = 0;
        true
    }

    /// Answers held work requests: with work where a split point has appeared (looked
    /// for every few nodes; `nodes` were searched since the last call), with NO-WORK when
    /// this processor has stopped working.
    pub(super) fn serve_held_requests(&mut self, nodes: u32, cpu: &mut dyn Processor<Message>) {
        if self.held_requests.is_empty() {
            return;
        }
        let working = self.contexts.iter().any(|c| !c.waiting) && !self.finished();
        self.until_serve = self.until_serve.saturating_sub(nodes.max(1));
        if working && self.until_serve > 0 {
            return;
        }
        self.until_serve = self.serve_interval(cpu);
        order_held_requests(self.policy.seek, &mut self.held_requests, |to| cpu.predicted_availability(to));
        while let Some(&(to, rate)) = self.held_requests.last() {
            if !(working && self.give_work(to, rate, cpu)) {
                if working {
                    return;
                }
                cpu.send(to, Message::NoWork);
            }
            self.held_requests.pop();
        }
    }
}

/// Orders held work requests (requester, told speed) so that the one to serve first is
/// last: the fastest when speeds are told, the highest availability `predicted` for the
/// requester in Hasan's pool (a stable sort: unknown predictions, as on real threads,
/// come after every known one and keep their order of arrival among themselves).
fn order_held_requests(seek: Seek, held: &mut [(usize, Option<u32>)], predicted: impl Fn(usize) -> Option<u32>) {
    match seek {
        Seek::AskRandomTellingSpeed => held.sort_by_key(|&(_, rate)| rate),
        Seek::PoolByAvailability => held.sort_by_key(|&(to, _)| predicted(to).map_or(0, |a| a + 1)),
        Seek::AskRandom | Seek::Broadcast => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hasan's pool hands the next task to the worker with the highest predicted CPU
    /// availability (the paper's example pool: 97, 93, 89 and 62 %); the speed-telling
    /// variant serves the fastest first; random asking keeps the order of arrival.
    #[test]
    fn the_pool_serves_the_highest_predicted_availability_first() {
        let predicted = |to: usize| [None, Some(620), Some(970), Some(890), Some(930)][to];
        let mut held = vec![(1, None), (0, None), (2, None), (3, None), (4, None)];
        order_held_requests(Seek::PoolByAvailability, &mut held, predicted);
        let served: Vec<usize> = held.iter().rev().map(|&(to, _)| to).collect();
        assert_eq!(served, vec![2, 4, 3, 1, 0]);
        let mut told = vec![(1, Some(300)), (2, None), (3, Some(900))];
        order_held_requests(Seek::AskRandomTellingSpeed, &mut told, predicted);
        assert_eq!(told.last(), Some(&(3, Some(900))));
        let mut random = vec![(3, None), (1, None)];
        order_held_requests(Seek::AskRandom, &mut random, predicted);
        assert_eq!(random, vec![(3, None), (1, None)]);
    }
}
