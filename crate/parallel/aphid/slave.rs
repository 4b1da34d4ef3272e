//! An APHID slave: the leaves the master gave this processor, searched one after another
//! with the serial searcher, each value reported as soon as it is known. Every processor
//! runs one, processor 0 too (between its master's passes).
//!
//! Which leaf next (the paper's slaves deepen their leaves on their own): first a leaf
//! whose latest want is not yet searched — the shallowest want first, then the leftmost in
//! the master's last pass; with none, a leaf one ply deeper than any search of it so far,
//! up to the want's `most`, so that the next iteration finds its values waiting. A new
//! want interrupts such a search ahead; a wanted search always runs to its end.

use super::super::cores::Cores;
use super::message::{LeafProblem, LeafValue, Want};
use crate::machine::{Note, Processor};
use crate::search::{NodeKind, Progress, SearchOptions, Searcher, Subproblem, TreePath};
use std::collections::HashMap;

/// Nodes a step may search on a machine that lets it go on (see `Processor::may_go_on`).
const NODES_PER_STEP: u32 = 64;

/// A leaf this processor owns.
struct OwnLeaf {
    id: u32,
    problem: LeafProblem,
    /// Whether the latest want has been searched (its value sent).
    answered: bool,
    /// The deepest search of it so far (-1: none).
    deepest: i32,
}

/// The search running now.
struct Job {
    /// Index into `leaves`.
    slot: usize,
    depth: i32,
    alpha: i32,
    beta: i32,
    /// A search ahead of what the master wants (a new want interrupts it).
    ahead: bool,
    nodes_at_start: u64,
}

/// What a slave's step left behind.
pub(super) enum SlaveStep {
    /// A leaf searched: its number and value.
    Searched(u32, LeafValue),
    /// A search goes on.
    Searching,
    /// Nothing to search until the master wants more.
    Idle,
}

/// One processor's leaves and its searcher.
pub(super) struct Slave<'a> {
    searcher: &'a mut Searcher,
    leaves: Vec<OwnLeaf>,
    /// Leaf number to index into `leaves`.
    slots: HashMap<u32, usize>,
    job: Option<Job>,
    /// Nodes of searches ahead that a want interrupted, not yet counted as aborted.
    interrupted: u64,
    /// This processor's other cores, which search its running leaf beside it.
    pub(super) cores: Option<&'a Cores>,
}

impl<'a> Slave<'a> {
    /// A slave searching with `searcher` under `options`.
    pub(super) fn new(searcher: &'a mut Searcher, options: SearchOptions) -> Slave<'a> {
        searcher.set_options(options);
        searcher.reset_counters();
        Slave { searcher, leaves: Vec::new(), slots: HashMap::new(), job: None, interrupted: 0, cores: None }
    }

    /// Positions searched in this search.
    pub(super) fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }

    /// The searcher (for its tree events, table accesses and statistics).
    pub(super) fn searcher(&mut self) -> &mut Searcher {
        self.searcher
    }

    /// The line of the running search, from the root.
    pub(super) fn line(&self) -> Option<TreePath> {
        self.job.as_ref().and_then(|_| self.searcher.line())
    }

    /// Leaf `id` is this processor's from now on.
    pub(super) fn take(&mut self, id: u32, problem: LeafProblem) {
        let leaf = OwnLeaf { id, problem, answered: false, deepest: -1 };
        match self.slots.get(&id) {
            Some(&slot) => self.leaves[slot] = leaf,
            None => {
                self.slots.insert(id, self.leaves.len());
                self.leaves.push(leaf);
            }
        }
        self.interrupt_ahead();
    }

    /// The master wants `want` of leaf `id` now (a leaf not this processor's is ignored).
    pub(super) fn want(&mut self, id: u32, want: Want) -> bool {
        let Some(&slot) = self.slots.get(&id) else { return false };
        let leaf = &mut self.leaves[slot];
        leaf.problem.want = want;
        leaf.answered = false;
        self.interrupt_ahead();
        true
    }

    /// A search ahead gives way to what the master wants now.
    fn interrupt_ahead(&mut self) {
        if let Some(job) = self.job.take_if(|j| j.ahead) {
            self.interrupted += self.searcher.nodes() - job.nodes_at_start;
            self.ended(&job);
        }
    }

    /// Drops the running search (the search is over), counting its nodes as aborted.
    pub(super) fn abandon(&mut self, cpu: &mut dyn Processor<super::AphidMessage>) {
        if let Some(job) = self.job.take() {
            cpu.note(Note::Aborted(self.searcher.nodes() - job.nodes_at_start));
            self.ended(&job);
        }
    }

    /// The other cores stop searching `job`'s leaf.
    fn ended(&self, job: &Job) {
        if let Some(cores) = self.cores {
            cores.end(job.slot as u64);
        }
    }

    /// The next search to make, as the module's opening says.
    fn next_job(&self) -> Option<Job> {
        let job = |slot: usize, depth: i32, ahead: bool| {
            let want = self.leaves[slot].problem.want;
            Job { slot, depth, alpha: want.alpha, beta: want.beta, ahead, nodes_at_start: self.searcher.nodes() }
        };
        let wanted = (0..self.leaves.len()).filter(|&s| !self.leaves[s].answered).min_by_key(|&s| (self.leaves[s].problem.want.depth, self.leaves[s].problem.want.order, s));
        if let Some(slot) = wanted {
            return Some(job(slot, self.leaves[slot].problem.want.depth, false));
        }
        let next_depth = |s: usize| self.leaves[s].deepest.max(self.leaves[s].problem.want.depth) + 1;
        let ahead = (0..self.leaves.len()).filter(|&s| next_depth(s) <= self.leaves[s].problem.want.most).min_by_key(|&s| (next_depth(s), self.leaves[s].problem.want.order, s));
        ahead.map(|slot| job(slot, next_depth(slot), true))
    }

    fn start(&mut self, job: Job) {
        let problem = &self.leaves[job.slot].problem;
        let mut line = TreePath::default();
        problem.moves.iter().for_each(|&mv| line.push(mv));
        let subproblem = Subproblem {
            board: problem.board.clone(),
            path: problem.path.clone(),
            alpha: job.alpha,
            beta: job.beta,
            depth: job.depth,
            ply: problem.moves.len(),
            kind: NodeKind::Pv,
            line,
            killers: Default::default(),
        };
        self.searcher.start_subproblem(&subproblem);
        if let Some(cores) = self.cores {
            cores.begin(job.slot as u64, &subproblem);
        }
        self.job = Some(job);
    }

    /// Searches on: a few nodes, never past the end of one leaf's search (so that a
    /// step's outcome does not depend on how many nodes the machine lets it do).
    pub(super) fn work(&mut self, cpu: &mut dyn Processor<super::AphidMessage>) -> SlaveStep {
        if self.interrupted > 0 {
            cpu.note(Note::Aborted(std::mem::take(&mut self.interrupted)));
        }
        if self.job.is_none() {
            match self.next_job() {
                Some(job) => self.start(job),
                None => return SlaveStep::Idle,
            }
        }
        let mut nodes = 0;
        loop {
            nodes += 1;
            if let Progress::Done(value) = self.searcher.step() {
                return self.finish(value);
            }
            if nodes >= NODES_PER_STEP || !cpu.may_go_on() {
                return SlaveStep::Searching;
            }
        }
    }

    fn finish(&mut self, value: i32) -> SlaveStep {
        let job = self.job.take().expect("a search ran");
        self.ended(&job);
        let leaf = &mut self.leaves[job.slot];
        leaf.deepest = leaf.deepest.max(job.depth);
        let want = leaf.problem.want;
        if (want.depth, want.alpha, want.beta) == (job.depth, job.alpha, job.beta) {
            leaf.answered = true;
        }
        let pv = self.searcher.pv().iter().map_while(|&m| m).collect();
        SlaveStep::Searched(leaf.id, LeafValue { depth: job.depth, alpha: job.alpha, beta: job.beta, value, pv })
    }
}
