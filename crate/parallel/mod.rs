//! Parallel alpha-beta algorithms as processor programs (see `crate::machine`);
//! crate/parallel/README.md draws how the programs, their messages and the machines fit
//! together.
//!
//! Two families, each file citing its paper:
//! - the shared-table algorithms, where every processor runs its own iterative deepening
//!   and the table spreads the work ([`lazysmp`]; [`abdada`], which also defers moves
//!   another processor is searching), one program for both ([`program`]);
//! - the work-splitting algorithms of the classic papers, where processors hand each
//!   other subtrees by messages ([`split`], with one policy per algorithm: [`ybwc`],
//!   [`pvsplit`], [`jamboree`], [`dts`]); TDSAB ([`tdsab`]), where nodes travel to
//!   the processor holding their table entry; and APHID ([`aphid`]), where processor 0
//!   searches the top plies again and again over the values its slaves report, and
//!   nobody waits for a reply.
//!
//! Invariants every algorithm keeps:
//! - processor 0 reports and decides; the others stop when it is done;
//! - with `Pure` on, processor 0 returns the exact minimax value of the serial search
//!   (tests/pure.rs and the parallel tests check every algorithm);
//! - programs see the machine only through `machine::Processor`, so one program runs on
//!   threads, the simulator and a cluster alike.
//!
//! Shared state: the table is shared, or on a simulated machine placed as the run asks
//! ([`Placement`]: each processor's searchers use its table, and pass their accesses to a
//! split table on to the machine). In one memory (a global table) the processors of
//! ABDADA and of the work-splitting algorithms train one history table, as they walk one
//! tree together; Lazy SMP's, and those of machines without shared memory, keep their own.
//! Killers stay per processor, but a subtree handed to another processor takes its
//! giver's killers for its first two plies along, so its moves are ordered as the serial
//! search would order them.

mod abdada;
mod aphid;
mod cores;
mod dts;
mod jamboree;
mod lazysmp;
mod message;
mod program;
mod pvsplit;
mod pvsplit_available;
mod pvsplit_aware;
mod split;
mod tdsab;
mod wire;
mod work_by_speed;
mod ybwc;
mod ybwc_all;

use crate::machine::wire::WireError;
use crate::machine::cluster::{link::Link, Order, Rank};
use crate::machine::{Counters, Machine, Program, Remote};
use crate::search::{Control, Info, Limits, Listener, NoReports, RootMove, SearchResult, SearchSettings, Searcher, StarTechRules, Task};
use crate::tt::{Placement, Tables, TranspositionTable};
use cores::{Cores, OnCores};
use program::{Deepest, DeepeningProgram, IdleOwner, NoMessage};
use split::{Policy, SplitProgram};
use std::future::Future;
use std::sync::Arc;
pub use cores::MAX_THREADS;
pub use wire::{decode_task, HelperTask};

/// The search algorithms, as the UCI option `Algorithm` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// One processor, the sequential searcher.
    Serial,
    /// Principal variation splitting.
    PvSplit,
    /// Principal variation splitting with work sized by the processors' measured speed
    /// (for unequal, shared machines; not in [`Algorithm::ALL`], see [`Algorithm::VARIANTS`]).
    PvSplitAware,
    /// Principal variation splitting with Hasan's pool: idle workers served by the CPU
    /// availability a monitor predicts from their run queues (a variant, as above).
    PvSplitAvailable,
    /// Young Brothers Wait (Zugzwang).
    Ybwc,
    /// A hybrid: YBWC whose expected ALL nodes split at once, as DTS's do.
    YbwcAll,
    /// Jamboree search (StarTech).
    Jamboree,
    /// Dynamic tree splitting (Cray Blitz).
    Dts,
    /// Lazy SMP: independent iterative deepening over the shared table.
    LazySmp,
    /// ABDADA: shared iterations, busy positions deferred.
    Abdada,
    /// TDSAB: MTD(f) over transposition-driven scheduling.
    Tdsab,
    /// APHID: the top plies searched again and again over the slaves' reported leaves.
    Aphid,
}

impl Algorithm {
    /// Every algorithm, in the order the option lists them.
    pub const ALL: [Algorithm; 10] = [Algorithm::Serial, Algorithm::PvSplit, Algorithm::Ybwc, Algorithm::YbwcAll, Algorithm::Jamboree, Algorithm::Dts, Algorithm::Tdsab, Algorithm::Aphid, Algorithm::LazySmp, Algorithm::Abdada];

    /// Variants for special machines, named on the command line and in the Lab but not
    /// offered by the UCI option.
    pub const VARIANTS: [Algorithm; 2] = [Algorithm::PvSplitAware, Algorithm::PvSplitAvailable];

    /// The option value naming this algorithm.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Serial => "serial",
            Algorithm::PvSplit => "pvsplit",
            Algorithm::PvSplitAware => "pvsplit-aware",
            Algorithm::PvSplitAvailable => "pvsplit-available",
            Algorithm::Ybwc => "ybwc",
            Algorithm::YbwcAll => "ybwc-all",
            Algorithm::Jamboree => "jamboree",
            Algorithm::Dts => "dts",
            Algorithm::LazySmp => "lazysmp",
            Algorithm::Abdada => "abdada",
            Algorithm::Tdsab => "tdsab",
            Algorithm::Aphid => "aphid",
        }
    }

    /// The idea of the algorithm in one line (for `--help` and menus).
    pub fn summary(self) -> &'static str {
        match self {
            Algorithm::Serial => "the sequential searcher on one processor",
            Algorithm::PvSplit => "PV-splitting: along the principal variation, the eldest son first, then its brothers in parallel",
            Algorithm::PvSplitAware => "PV-splitting that sizes the work it gives by each processor's measured speed",
            Algorithm::PvSplitAvailable => "PV-splitting (Hasan): idle workers wait in a pool, the highest predicted CPU availability served first",
            Algorithm::Ybwc => "Young Brothers Wait (Zugzwang): split any node once its eldest son is done; idle processors ask at random",
            Algorithm::YbwcAll => "YBWC-ALL, a hybrid: YBWC, but an expected ALL node splits as soon as its eldest son is under way (DTS's rule)",
            Algorithm::Jamboree => "Jamboree (StarTech): value the first child, test the rest in parallel with zero windows",
            Algorithm::Dts => "Dynamic tree splitting (Cray Blitz): idle processors ask for HELP and choose a split point",
            Algorithm::Tdsab => "TDSAB: MTD(f), each node searched at the processor holding its table entry",
            Algorithm::Aphid => "APHID: processor 0 searches the top plies again and again over leaf values its slaves report, nobody waiting for a reply",
            Algorithm::LazySmp => "Lazy SMP: independent iterative deepening over the shared table",
            Algorithm::Abdada => "ABDADA: as Lazy SMP, and positions another processor is searching are deferred",
        }
    }

    /// The algorithm an option value names (case-insensitive).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().chain(Algorithm::VARIANTS).find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// Whether the algorithm runs with its table placed as `placement`, or why not.
    pub fn accepts(self, placement: Placement) -> Result<(), String> {
        match (self, placement) {
            (Algorithm::Tdsab, Placement::Local) => Err("tdsab with a table per processor is --tt tds: every node of the shared tree is searched at its home, whose table holds its entry".into()),
            (Algorithm::Tdsab, Placement::Distributed) => Err(
                "tdsab moves each node to the processor holding its entry (--tt tds); a distributed table would also fetch the entries of its local searches by messages, a mix neither paper ran".into(),
            ),
            (Algorithm::Serial | Algorithm::Tdsab, _) | (_, Placement::Global | Placement::Local | Placement::Distributed) => Ok(()),
            (_, Placement::Tds) => Err(format!("--tt tds is TDSAB's placement (nodes travel to the processor holding their entry); {} moves entries to nodes: use distributed", self.name())),
        }
    }

    /// Why the algorithm cannot run on processors with memories of their own (a cluster's
    /// processes), or `None` when it can: its processors meet in shared memory.
    pub fn needs_shared_memory(self) -> Option<&'static str> {
        match self {
            Algorithm::LazySmp => Some("lazysmp: its processors share their work through one table in shared memory; a table per process shares nothing"),
            Algorithm::Abdada => Some("abdada: its processors defer moves through a busy table in shared memory"),
            Algorithm::Dts => Some("dts: Cray Blitz's processors read each other's tree state and history in shared memory"),
            Algorithm::Serial | Algorithm::PvSplit | Algorithm::PvSplitAware | Algorithm::PvSplitAvailable | Algorithm::Ybwc | Algorithm::YbwcAll | Algorithm::Jamboree | Algorithm::Tdsab | Algorithm::Aphid => None,
        }
    }

    /// Whether the processors train one history table, processor 0's, when they share
    /// one memory (a global table): ABDADA's and the work-splitting algorithms', which walk
    /// one tree together. Lazy SMP's must differ (see `lazysmp`). On machines without
    /// shared memory (a table per processor, or distributed) each keeps its own, as the
    /// message-passing papers' processors did. What sharing is worth: docs/work-splitting.md.
    fn shares_history(self) -> bool {
        matches!(self, Algorithm::Abdada | Algorithm::Dts | Algorithm::Ybwc | Algorithm::YbwcAll | Algorithm::Jamboree | Algorithm::PvSplit | Algorithm::PvSplitAware | Algorithm::PvSplitAvailable)
    }

    /// The splitting policy of a work-splitting algorithm.
    fn split_policy(self) -> Option<&'static Policy> {
        match self {
            Algorithm::PvSplit => Some(&pvsplit::POLICY),
            Algorithm::PvSplitAware => Some(&pvsplit_aware::POLICY),
            Algorithm::PvSplitAvailable => Some(&pvsplit_available::POLICY),
            Algorithm::Ybwc => Some(&ybwc::POLICY),
            Algorithm::YbwcAll => Some(&ybwc_all::POLICY),
            Algorithm::Jamboree => Some(&jamboree::POLICY),
            Algorithm::Dts => Some(&dts::POLICY),
            Algorithm::Serial | Algorithm::Tdsab | Algorithm::Aphid | Algorithm::LazySmp | Algorithm::Abdada => None,
        }
    }
}

/// What a parallel search is asked: which algorithm, on how many processors, searches what.
#[derive(Clone, Copy)]
pub struct SearchRequest<'a> {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Processors to search with (no more than the machine can run at once, nor than the
    /// counters have slots for; one for [`Algorithm::Serial`]).
    pub threads: usize,
    /// The position, limits and settings.
    pub task: Task<'a>,
}

/// One search as `request` asks, on `machine`: `searchers` provide one searcher per
/// processor (grown as needed), the table placed as `tables` says (one shared table given
/// as `&Arc`, or the simulated machine's placements; the algorithm must accept the
/// placement, see [`Algorithm::accepts`]). `control` stops it, `listener` hears its
/// reports, and `counters` (at least `threads` slots) can be sampled while it runs.
pub fn search<Mach: Machine>(machine: &mut Mach, searchers: &mut Vec<Searcher>, tables: impl Into<Tables>, request: &SearchRequest<'_>, control: &Control, listener: &mut dyn Listener, counters: &Counters) -> SearchResult {
    let SearchRequest { algorithm, threads, task } = *request;
    let Task { board, history, settings, .. } = task;
    let tables: Tables = tables.into();
    debug_assert!(algorithm.accepts(tables.placement()).is_ok(), "{} with the {} table", algorithm.name(), tables.placement());
    // The serial search is one processor with no helpers, so its counters show too.
    let threads = if algorithm == Algorithm::Serial { 1 } else { threads.clamp(1, counters.len().min(machine.processors())) };
    // Processors whose programs run in this process; the others (a cluster's processes)
    // build theirs from the announced task.
    let local = machine.local_processors(threads);
    if local < threads {
        debug_assert!(algorithm.needs_shared_memory().is_none(), "{} on processors without shared memory", algorithm.name());
        let task = HelperTask {
            algorithm,
            board: board.clone(),
            history: history.to_vec(),
            options: settings.options,
            hash_mib: tables.of_processor(0).mib(),
            table_clears: tables.of_processor(0).clears(),
            distributed: tables.of_processor(0).is_part(),
        };
        tables.of_processor(0).serve_from_here();
        let mut bytes = Vec::new();
        wire::encode_task(&task, &mut bytes);
        machine.announce(bytes);
    }
    while searchers.len() < local {
        searchers.push(Searcher::new(tables.of_processor(searchers.len()).clone()));
    }
    let tree_plies = machine.tree_plies();
    for (id, s) in searchers.iter_mut().enumerate() {
        prepare(s, tables.of_processor(id), tree_plies);
    }
    // A helper trains processor 0's history only in a search that shares it; otherwise
    // (and in the next search of another algorithm) it keeps a table of its own.
    let share_history = algorithm.shares_history() && tables.placement() == Placement::Global;
    let (main, helpers) = searchers.split_at_mut(1);
    for helper in helpers.iter_mut() {
        match (share_history, helper.shares_history_with(&main[0])) {
            (true, false) => helper.share_history_of(&main[0]),
            (false, true) => helper.use_own_history(),
            _ => {}
        }
    }
    counters.reset();
    tables.new_search();
    if algorithm == Algorithm::Tdsab {
        return tdsab::search(machine, &mut searchers[..local], &tables, &task, control, listener, counters);
    }
    if algorithm == Algorithm::Aphid {
        let summing = SummingListener { inner: listener, counters };
        let result = aphid::search(machine, &mut searchers[..local], &tables, &task, control, threads, summing);
        return with_total_nodes(result, counters, threads);
    }
    let helpers_stop = OwnLines(Control::default());
    let (main_searcher, helper_searchers) = searchers.split_at_mut(1);
    let summing = SummingListener { inner: listener, counters };
    if let Some(policy) = algorithm.split_policy() {
        if policy.startech.deferred_reads {
            abdada::share_busy_table(&mut main_searcher[0], &mut helper_searchers[..local - 1]);
        }
        let mut main = SplitProgram::main(&mut main_searcher[0], tables.of_processor(0), policy, &task, control, &helpers_stop, summing);
        let helpers: Vec<Box<dyn Program<Message = message::Message> + Send + '_>> = helper_searchers[..local - 1]
            .iter_mut()
            .enumerate()
            .map(|(i, s)| Box::new(SplitProgram::<NoReports>::helper(s, tables.of_processor(i + 1), policy, &task, &helpers_stop)) as Box<dyn Program<Message = message::Message> + Send + '_>)
            .collect();
        machine.run(&mut main, helpers, counters);
        return with_total_nodes(main.into_result(), counters, threads);
    }
    // Plies added to the first iteration of helper `id` (Lazy SMP spreads its helpers).
    let depth_offset: fn(usize) -> i32 = match algorithm {
        Algorithm::Serial => |_| 0,
        Algorithm::LazySmp => lazysmp::depth_offset,
        Algorithm::Abdada => {
            abdada::share_busy_table(&mut main_searcher[0], &mut helper_searchers[..local - 1]);
            abdada::depth_offset
        }
        Algorithm::PvSplit | Algorithm::PvSplitAware | Algorithm::PvSplitAvailable | Algorithm::Ybwc | Algorithm::YbwcAll | Algorithm::Jamboree | Algorithm::Dts | Algorithm::Tdsab | Algorithm::Aphid => {
            unreachable!("TDSAB, APHID and the work-splitting algorithms returned above")
        }
    };
    let deepest = OwnLines(Deepest::default());
    let mut main = DeepeningProgram::main(&mut main_searcher[0], tables.of_processor(0), &task, control, &helpers_stop, &deepest, summing);
    let helpers: Vec<Box<dyn Program<Message = NoMessage> + Send + '_>> = helper_searchers[..local - 1]
        .iter_mut()
        .enumerate()
        .map(|(i, s)| {
            Box::new(DeepeningProgram::helper(s, tables.of_processor(i + 1), &task, &helpers_stop, &deepest, depth_offset(i + 1))) as Box<dyn Program<Message = NoMessage> + Send + '_>
        })
        .collect();
    machine.run(&mut main, helpers, counters);
    with_total_nodes(main.into_result(), counters, threads)
}

/// Sets `searcher` up for a search on `table`: no busy marks, the serial search's rules
/// (a work-splitting program sets its own), the machine's tree plies.
fn prepare(searcher: &mut Searcher, table: &Arc<TranspositionTable>, tree_plies: usize) {
    searcher.set_table(table.clone());
    searcher.set_busy_table(None);
    searcher.set_startech_rules(StarTechRules::OFF);
    searcher.set_tree_plies(tree_plies);
}

/// Zugzwang's Figure 3: the serial search on processor 0 of `machine` while every other
/// processor searches nothing and only holds its part of the distributed table `tables`
/// (a simulated machine serves those parts as routed messages). Beside the same search
/// on one processor, it gives what the table's distance costs a lone searcher.
pub fn serial_among_idle_owners<Mach: Machine>(machine: &mut Mach, searcher: &mut Searcher, tables: &Tables, task: &Task<'_>, counters: &Counters) -> SearchResult {
    debug_assert_eq!(tables.placement(), Placement::Distributed, "idle owners hold parts of a distributed table");
    let owners = machine.processors().min(counters.len()).min(tables.of_processor(0).parts());
    prepare(searcher, tables.of_processor(0), machine.tree_plies());
    counters.reset();
    tables.new_search();
    let (control, stop, deepest) = (Control::default(), OwnLines(Control::default()), OwnLines(Deepest::default()));
    let mut listener = NoReports;
    let summing = SummingListener { inner: &mut listener, counters };
    let mut main = DeepeningProgram::main(searcher, tables.of_processor(0), task, &control, &stop, &deepest, summing);
    let idle: Vec<Box<dyn Program<Message = NoMessage> + Send + '_>> = (1..owners).map(|_| Box::new(IdleOwner { stop: &stop }) as Box<dyn Program<Message = NoMessage> + Send + '_>).collect();
    machine.run(&mut main, idle, counters);
    with_total_nodes(main.into_result(), counters, 1)
}

/// What a processor in another process keeps between searches (a cluster's rank other
/// than 0): its searcher and its table, and the threads of its other cores.
pub struct Helper {
    searcher: Searcher,
    table: Arc<TranspositionTable>,
    table_clears: u32,
    cores: Cores,
}

impl Helper {
    /// A helper with a table of `mib` MiB (resized when a task asks for another size),
    /// searching on one thread.
    pub fn new(mib: usize) -> Result<Helper, String> {
        let table = Arc::new(TranspositionTable::try_new(mib).map_err(|e| e.to_string())?);
        Ok(Helper { searcher: Searcher::new(table.clone()), table, table_clears: 0, cores: Cores::new(1)? })
    }

    /// The helper searching each job it is given on `threads` threads over its table
    /// (see `cores`): 1 to [`MAX_THREADS`], else an error.
    pub fn with_threads(mut self, threads: usize) -> Result<Helper, String> {
        self.cores = Cores::new(threads)?;
        Ok(self)
    }

    /// The nodes of its last search on each of its threads, its program's first (the
    /// program's own: `total`, its counters' count, less its other threads').
    pub fn nodes_by_thread(&self, total: u64) -> Vec<u64> {
        let helpers = self.cores.nodes_by_helper();
        std::iter::once(total.saturating_sub(helpers.iter().sum())).chain(helpers).collect()
    }

    /// Takes the table `task` asks for: another size or kind (this processor's part of a
    /// distributed table made by `remote`), or emptied when processor 0's was.
    fn prepare<R: Remote>(&mut self, remote: &R, task: &HelperTask) -> Result<(), String> {
        if task.hash_mib != self.table.mib() || task.distributed != self.table.is_part() {
            self.table = if task.distributed { remote.table_part(task.hash_mib)? } else { Arc::new(TranspositionTable::try_new(task.hash_mib).map_err(|e| e.to_string())?) };
            self.searcher.set_table(self.table.clone());
        } else if task.table_clears != self.table_clears {
            self.table.clear();
            self.searcher.clear_heuristics();
        }
        self.table_clears = task.table_clears;
        self.table.new_search();
        self.table.serve_from_here();
        Ok(())
    }
}

/// Processor `remote.id()`'s part of a search whose processor 0 runs in another process
/// and announced `task` (see [`Machine::announce`]): builds this processor's program
/// from it and runs it until processor 0 is done. Bytes that are no task, or a task
/// this processor cannot take, are an error and run nothing.
pub fn help<R: Remote>(remote: &mut R, helper: &mut Helper, task: &[u8]) -> Result<(), String> {
    let job = HelperJob::new(remote, helper, task)?;
    let work = job.work();
    let cores = &helper.cores;
    if job.task.algorithm == Algorithm::Tdsab {
        // Its nodes travel to their entries' homes: no job of its own for other cores.
        let mut program = tdsab::helper(&mut helper.searcher, &helper.table, &work);
        remote.serve(&mut program, &job.stop);
    } else if job.task.algorithm == Algorithm::Aphid {
        let program = aphid::helper(&mut helper.searcher, &work, &job.stop).with_cores(cores);
        remote.serve(&mut OnCores { program, cores }, &job.stop);
    } else if let Some(policy) = job.task.algorithm.split_policy() {
        let program = SplitProgram::helper(&mut helper.searcher, &helper.table, policy, &work, &job.stop).with_cores(cores);
        remote.serve(&mut OnCores { program, cores }, &job.stop);
    }
    // Serial: processor 0 searches alone, and the others have nothing to run.
    Ok(())
}

/// A processor other than 0 on a host with one thread that must go back to its event
/// loop to hear its link (a browser tab without shared memory): takes part in every
/// search processor 0 starts, as a blocking host does with [`Rank::next_order`], [`help`]
/// and [`Rank::end_search`], until processor 0 quits or is gone. Its program runs in
/// slices of about `slice_ms`, awaiting `pause` between them (see
/// [`Rank::serve_in_slices`]); `starting(rank, task)` is told of each search first. It
/// runs the work-splitting algorithms and APHID, those a class offers.
pub async fn help_in_slices<L: Link, F: Future<Output = ()>>(rank: &mut Rank<L>, helper: &mut Helper, slice_ms: f64, mut pause: impl FnMut(bool) -> F, mut starting: impl FnMut(&Rank<L>, &[u8])) -> Result<(), String> {
    loop {
        let task = loop {
            match rank.poll_order() {
                Some(Order::Search(task)) => break task,
                Some(Order::Quit) => return Ok(()),
                None => pause(true).await,
            }
        };
        starting(rank, &task);
        let job = HelperJob::new(rank, helper, &task)?;
        if job.task.algorithm == Algorithm::Tdsab {
            return Err("tdsab's processors serve a table for each other, which a processor that pauses cannot".to_string());
        }
        if job.task.algorithm == Algorithm::Aphid {
            let mut program = aphid::helper(&mut helper.searcher, &job.work(), &job.stop);
            rank.serve_in_slices(&mut program, &job.stop, slice_ms, &mut pause).await;
        } else if let Some(policy) = job.task.algorithm.split_policy() {
            let mut program = SplitProgram::helper(&mut helper.searcher, &helper.table, policy, &job.work(), &job.stop);
            rank.serve_in_slices(&mut program, &job.stop, slice_ms, &mut pause).await;
        }
        while !rank.poll_end() {
            pause(true).await;
        }
        rank.send_done();
    }
}

/// A helper's part of one search: processor 0's task decoded and checked, the helper's
/// table made ready, and what its program borrows for the search.
struct HelperJob {
    task: HelperTask,
    settings: SearchSettings,
    limits: Limits,
    stop: OwnLines<Control>,
}

impl HelperJob {
    fn new<R: Remote>(remote: &R, helper: &mut Helper, task: &[u8]) -> Result<HelperJob, String> {
        let task = wire::decode_task(task).map_err(|e: WireError| e.to_string())?;
        if let Some(why) = task.algorithm.needs_shared_memory() {
            return Err(why.to_string());
        }
        helper.prepare(remote, &task)?;
        helper.cores.start_search(&helper.table, task.options);
        let settings = SearchSettings { options: task.options, ..SearchSettings::default() };
        Ok(HelperJob { task, settings, limits: Limits::default(), stop: OwnLines(Control::default()) })
    }

    fn work(&self) -> Task<'_> {
        Task { board: &self.task.board, history: &self.task.history, limits: &self.limits, settings: &self.settings }
    }
}

/// Keeps a value on cache lines of its own. The flags every processor reads at every step
/// (`helpers_stop`, `deepest`) live on processor 0's stack beside its program, which it
/// writes at every step: sharing a line with it would stall every reader at every write.
#[repr(align(128))]
#[derive(Default)]
struct OwnLines<T>(T);

impl<T> std::ops::Deref for OwnLines<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// Processor 0's result with the nodes of all `threads` processors, as their counters
/// hold them at the end (including spare searchers a processor used while its own waited).
fn with_total_nodes(mut result: SearchResult, counters: &Counters, threads: usize) -> SearchResult {
    result.nodes = counters.snapshot()[..threads].iter().map(|p| p.nodes).sum();
    result
}

/// Reports with node counts summed over every processor (UCI wants the total).
struct SummingListener<'a> {
    inner: &'a mut dyn Listener,
    counters: &'a Counters,
}

impl Listener for SummingListener<'_> {
    fn info(&mut self, info: &Info) {
        let mut info = info.clone();
        info.nodes = self.counters.total_nodes().max(info.nodes);
        info.nps = info.nodes * 1000 / info.time_ms.max(1);
        self.inner.info(&info);
    }

    fn currmove(&mut self, depth: i32, mv: RootMove) {
        self.inner.currmove(depth, mv);
    }
}
