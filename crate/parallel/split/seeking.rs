//! The asking side of work splitting: how a processor whose searches all wait finds work
//! (its own helpers first, then the offer board, a random processor, processor 0's pool or
//! DTS's HELP round), with at most one request of its own out at a time. The papers, the
//! idea and the invariants are in mod.rs.

use super::{Seek, SplitProgram, MAX_CONTEXTS, MIN_SPLIT_DEPTH};
use crate::parallel::message::Message;
use crate::machine::{random_other, Processor};
use crate::search::Listener;

/// Where an idle processor stands in finding work.
pub(super) enum Seeking {
    /// Not looking (busy, or about to ask).
    Not,
    /// Asked processor `to` for work; waiting for WORK or NO-WORK.
    Asked { to: usize },
    /// Sent HELP; counting the offers (best merit and who made it).
    Collecting { replies: usize, best: Option<(i32, usize)> },
}

impl<L: Listener> SplitProgram<'_, L> {
    /// Asks for work if not asking already.
    pub(super) fn seek(&mut self, cpu: &mut dyn Processor<Message>) {
        if !matches!(self.seeking, Seeking::Not) || cpu.count() < 2 || self.contexts.len() >= MAX_CONTEXTS {
            return;
        }
        // After a HELP round without an offer, ask single processors until work comes:
        // rebroadcasting at once would flood the machine with HELP and offers.
        // On a machine with shared memory, the offer board shows where work is; DTS's
        // thrashing counter raises the depth an offer needs, as it does for HELP's answers.
        let needed = if self.policy.seek == Seek::Broadcast { self.depth_worth_asking() } else { MIN_SPLIT_DEPTH };
        let target = match self.own_helper(cpu) {
            Some(helper) => Some(helper),
            None => cpu.best_offer().filter(|&(_, depth)| depth >= needed).map(|(to, _)| to),
        };
        if let Some(to) = target {
            cpu.send(to, Message::WorkRequest { rate: None });
            self.seeking = Seeking::Asked { to };
            return;
        }
        self.seeking = match self.policy.seek {
            Seek::Broadcast if !self.help_unanswered && !cpu.has_offer_board() => {
                let me = cpu.id();
                for to in (0..cpu.count()).filter(|&to| to != me && !self.gone.contains(&to)) {
                    cpu.send(to, Message::Help);
                }
                Seeking::Collecting { replies: 0, best: None }
            }
            Seek::PoolByAvailability if cpu.id() != 0 => {
                cpu.send(0, Message::WorkRequest { rate: None });
                Seeking::Asked { to: 0 }
            }
            Seek::AskRandom | Seek::AskRandomTellingSpeed | Seek::Broadcast | Seek::PoolByAvailability => {
                let Some(to) = self.random_live_other(cpu) else { return };
                let rate = if self.policy.seek == Seek::AskRandomTellingSpeed { self.speed.rate() } else { None };
                cpu.send(to, Message::WorkRequest { rate });
                Seeking::Asked { to }
            }
        };
    }

    fn own_helper_count(&self) -> usize {
        self.contexts.iter().map(|c| c.searcher.helpers().count()).sum()
    }

    /// A processor searching a child this one gave away, chosen at random: a processor
    /// whose searches wait helps its own helpers first (Crafty's and Stockfish's helpful
    /// master), as their work is part of its own subtrees and brings its values back sooner.
    fn own_helper(&self, cpu: &mut dyn Processor<Message>) -> Option<usize> {
        let count = self.own_helper_count();
        if count == 0 {
            return None;
        }
        let k = (cpu.random() % count as u64) as usize;
        self.contexts.iter().flat_map(|c| c.searcher.helpers()).nth(k)
    }

    /// Counts an OFFER answering this processor's HELP (DTS); once every other processor
    /// has answered, asks the best offer good enough, or gives HELP up for now.
    pub(super) fn take_offer(&mut self, from: usize, merit: Option<i32>, cpu: &mut dyn Processor<Message>) {
        let bar = self.depth_worth_asking();
        let Seeking::Collecting { replies, best } = &mut self.seeking else { return };
        *replies += 1;
        if let Some(m) = merit {
            let good_enough = m / 4 >= bar;
            if good_enough && best.is_none_or(|(b, _)| m > b) {
                *best = Some((m, from));
            }
        }
        if *replies + 1 + self.gone.len() >= cpu.count() {
            self.seeking = match *best {
                Some((_, owner)) => {
                    cpu.send(owner, Message::WorkRequest { rate: None });
                    Seeking::Asked { to: owner }
                }
                None => {
                    self.help_unanswered = true;
                    Seeking::Not
                }
            };
        }
    }

    /// Another processor still in the search, chosen at random (`None`: all are gone).
    fn random_live_other(&self, cpu: &mut dyn Processor<Message>) -> Option<usize> {
        if self.gone.len() + 1 >= cpu.count() {
            return None;
        }
        // At most a few tries: a class rarely loses more than a few of its processors.
        loop {
            let to = random_other(cpu);
            if !self.gone.contains(&to) {
                return Some(to);
            }
        }
    }

    /// Processor `gone` has left the search: a request to it, or a HELP round waiting
    /// for its offer, will never be answered.
    pub(super) fn forget_seeking_from(&mut self, gone: usize) {
        match self.seeking {
            Seeking::Asked { to } if to == gone => self.seeking = Seeking::Not,
            // Its offer may have come already: end the round, and a later one asks again.
            Seeking::Collecting { .. } => self.seeking = Seeking::Not,
            _ => {}
        }
    }

    /// The least remaining depth of a split point worth asking for, in DTS: thrashing
    /// (jobs that ended almost at once) raises it by up to three plies.
    fn depth_worth_asking(&self) -> i32 {
        MIN_SPLIT_DEPTH + self.thrashing / 2
    }
}
