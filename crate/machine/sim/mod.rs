//! The simulated machine: p processors (1 to 1024) of a classic parallel computer run in
//! virtual time on the calling thread, deterministically — the same inputs and seed give
//! the same result and the same event stream on every platform, natively and in wasm.
//!
//! What it models (constants in [`presets`], the loop in `run.rs`): each processor's node
//! time and background load; per-message send overhead; per-hop time along the
//! network's deterministic shortest route ([`crate::net`]), links carrying a message at a
//! time per lane so queueing shows, plus a latency that holds no link (a relay's);
//! processors leaving mid-search, as a class's do ([`Sim::set_departures`], `churn.rs`);
//! sleeping while waiting for messages; with a
//! distributed table (`tt::Placement`), lookups and stores of other processors' entries
//! as routed messages served by their owners (`table.rs`). Times are integer
//! nanoseconds. It counts busy and idle *virtual* time in the same [`Counters`] as the
//! threads machine, so everything that reads counters works unchanged, and it can record
//! an event stream ([`Trace`], schema in `docs/trace-schema.md`).
//!
//! ```
//! use meshmate::machine::sim::{presets, Sim};
//! let sim = Sim::new(presets::T800, presets::T800.net, 64, 1)?;
//! assert_eq!(sim.topology().diameter(), 6);
//! # Ok::<(), meshmate::machine::sim::SimError>(())
//! ```

mod calendar;
mod churn;
mod cpu;
mod error;
mod links;
mod measures;
mod member_cores;
pub mod presets;
mod run;
mod run_queue;
mod table;
mod trace;

pub use churn::{Departure, Leaving, LossNotice};
pub use run_queue::{Load, RunQueue};
pub use error::SimError;
pub use member_cores::with_cores_per_member;
pub use measures::{fit_work_span, LinkUse, Overheads, WorkSpan, WorkSpanFit};
pub use presets::{Preset, Sleep};
pub use trace::{node_kind_index, Event, ProcessorState, Trace, TraceMode, TraceSink, NODE_KIND_NAMES, NODE_SAMPLE_GROWTH, TREE_PLIES};

use super::{Counters, Machine, Payload, Program};
use crate::net::{Kind, Topology};
use cpu::Cpus;
use links::Links;
use run::{Hardware, Run};

/// A simulated parallel computer (see the module documentation).
pub struct Sim {
    preset: Preset,
    topology: Topology,
    cpus: Cpus,
    links: Links,
    seed: u64,
    trace: Option<Trace>,
    next_label: String,
    last_run: Option<RunReport>,
    /// Processors that leave during each run (a class's churn).
    departures: Vec<Departure>,
}

/// A machine's preset, network, size, seed and departures ([`Sim::design`]).
#[derive(Clone, Debug)]
pub struct Design {
    preset: Preset,
    net: Kind,
    processors: usize,
    seed: u64,
    departures: Vec<Departure>,
}

impl Design {
    /// A machine of this design, with no trace and no run yet.
    pub fn build(&self) -> Sim {
        let sim = Sim::new(self.preset, self.net, self.processors, self.seed).expect("a design is a machine's that was built");
        Sim { departures: self.departures.clone(), ..sim }
    }
}

/// What one run took, in virtual time.
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// When processor 0 finished, or on a machine that announces its task
    /// ([`Preset::announces_task`]) when the others' DONE is back: the time to the result.
    pub elapsed_ns: u64,
    /// When the last processor finished (or, if later, the result was in).
    pub end_ns: u64,
    /// Steps each processor took (a sleeping processor takes none).
    pub steps: Vec<u64>,
    /// Virtual time each processor spent stepping.
    pub busy_ns: Vec<u64>,
    /// Virtual time each spent asleep, or finished while others ran.
    pub idle_ns: Vec<u64>,
    /// Of the busy time, what each spent handling messages (send overheads, and steps
    /// that only received messages).
    pub handling_ns: Vec<u64>,
    /// StarTech's critical path C: the span processor 0 reported, in nodes, at the run's
    /// mean busy time per node; `None` for algorithms that report none.
    pub critical_path_ns: Option<u64>,
    /// Messages sent.
    pub messages: u64,
    /// Per link (by id), the time messages held it, summed over its lanes: its
    /// utilisation is this over `end_ns` times its lanes.
    pub link_busy_ns: Vec<u64>,
    /// The links' utilisation over the run.
    pub links: LinkUse,
}

impl RunReport {
    /// Mean over processors of busy / (busy + idle): Zugzwang's load LD.
    pub fn load(&self) -> f64 {
        let shares = self.busy_ns.iter().zip(&self.idle_ns).map(|(&b, &i)| b as f64 / (b + i).max(1) as f64);
        shares.sum::<f64>() / self.busy_ns.len().max(1) as f64
    }

    /// StarTech's work W: the busy time of all processors.
    pub fn work_ns(&self) -> u64 {
        self.busy_ns.iter().sum()
    }
}

impl Sim {
    /// `processors` processors of `preset` wired as `net`; `seed` seeds every processor's
    /// random source and the node times' jitter, so runs with other seeds sample how a
    /// parallel search's tree varies with its processors' relative timing.
    pub fn new(preset: Preset, net: Kind, processors: usize, seed: u64) -> Result<Sim, SimError> {
        let topology = Topology::new(net, processors)?;
        let cpus = Cpus::new(processors, preset.node_ns, preset.step_ns, preset.load, preset.jitter_permille, seed);
        let links = Links::new(&topology);
        Ok(Sim { preset, topology, cpus, links, seed, trace: None, next_label: String::new(), last_run: None, departures: Vec::new() })
    }

    /// What this machine is made of, to build copies of it on other threads (a machine
    /// itself may hold a trace sink that stays on its own).
    pub fn design(&self) -> Design {
        Design { preset: self.preset, net: self.topology.kind(), processors: self.processors(), seed: self.seed, departures: self.departures.clone() }
    }

    /// Processors that leave during every following run, as a class's may (see
    /// `churn.rs`); refused on machines whose preset notices no loss.
    pub fn set_departures(&mut self, departures: Vec<Departure>) -> Result<(), SimError> {
        churn::check(&departures, self.processors(), self.preset.loss_notice, self.preset.name)?;
        self.departures = departures;
        Ok(())
    }

    /// As [`Sim::new`], from names: a preset, and a network (the preset's own if `None`).
    pub fn from_names(preset: &str, net: Option<&str>, processors: usize, seed: u64) -> Result<Sim, SimError> {
        let preset = Preset::by_name(preset)?;
        let net = match net {
            Some(name) => name.parse::<Kind>()?,
            None => preset.net,
        };
        Sim::new(preset, net, processors, seed)
    }

    /// Starts recording the event stream as `mode` says (dropping what was recorded).
    pub fn set_trace(&mut self, mode: TraceMode) {
        self.trace = Trace::new(mode);
    }

    /// Starts recording the event stream into `sink`, event by event (keeping the hash
    /// and the count, not the events: memory stays bounded however long the runs).
    pub fn stream_trace(&mut self, sink: Box<dyn TraceSink>) {
        self.trace = Some(Trace::streaming(sink));
    }

    /// Names the next run in the trace (the position and algorithm, say).
    pub fn label_next_run(&mut self, label: impl Into<String>) {
        self.next_label = label.into();
    }

    /// The recorded events, if recording.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    /// What the last run took.
    pub fn last_run(&self) -> Option<&RunReport> {
        self.last_run.as_ref()
    }

    /// The network.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The machine's constants.
    pub fn preset(&self) -> &Preset {
        &self.preset
    }

    /// Processor `id`'s time per node at full speed.
    pub fn node_ns(&self, id: usize) -> u64 {
        self.cpus.node_ns(id)
    }

    /// The trace's header line for this machine (JSON, schema version 1).
    pub fn trace_header(&self) -> String {
        #[derive(serde::Serialize)]
        struct Header {
            ev: &'static str,
            version: u32,
            preset: &'static str,
            net: &'static str,
            processors: usize,
            nodes: usize,
            links: usize,
            seed: u64,
        }
        let topology = &self.topology;
        let header = Header {
            ev: "machine",
            version: 1,
            preset: self.preset.name,
            net: topology.kind().name(),
            processors: topology.processors(),
            nodes: topology.nodes(),
            links: topology.link_count(),
            seed: self.seed,
        };
        serde_json::to_string(&header).expect("numbers and names are always JSON")
    }
}

impl Machine for Sim {
    fn processors(&self) -> usize {
        self.topology.processors()
    }

    fn run<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters) {
        let count = helpers.len() + 1;
        assert!(count <= self.processors(), "a simulated machine of {} processors cannot run {count}", self.processors());
        assert!(count <= counters.len(), "counters for {} processors, {count} asked for", counters.len());
        let mut helpers = helpers;
        let mut programs: Vec<&mut dyn Program<Message = M>> = Vec::with_capacity(count);
        programs.push(main);
        programs.extend(helpers.iter_mut().map(|h| h.as_mut() as &mut dyn Program<Message = M>));
        let label = std::mem::take(&mut self.next_label);
        let run_number = self.trace.as_mut().map(|t| t.start_run(label));
        let hardware = Hardware {
            topology: &self.topology,
            cpus: &self.cpus,
            links: &mut self.links,
            send_overhead_ns: self.preset.send_overhead_ns,
            hop_ns: self.preset.hop_ns,
            latency_ns: self.preset.latency_ns,
            line_ns: self.preset.line_ns,
            overlaps_table_reads: self.preset.overlaps_table_reads,
            sleep: self.preset.sleep,
            seed: self.seed,
            departures: &self.departures,
            loss_notice: self.preset.loss_notice,
            announces_task: self.preset.announces_task,
            paced: self.preset.paced,
        };
        let report = Run::new(hardware, programs, counters, self.trace.as_mut()).run();
        if let (Some(trace), Some(run)) = (self.trace.as_mut(), run_number) {
            trace.record(Event::End { run, t: report.elapsed_ns, end: report.end_ns });
        }
        self.last_run = Some(report);
    }

    fn tree_plies(&self) -> usize {
        if self.trace.is_some() {
            TREE_PLIES
        } else {
            0
        }
    }
}
