//! The machines of the classic papers, as simulator settings. The node time is the
//! simulated machine's speed (how long *its* program took per position), not ours: what
//! matters for speedups is the ratio of computing to communicating.
//!
//! Sources are named on each constant. Where a paper gives no figure the value is an
//! estimate from the hardware's documented speeds, and says so; change it here and every
//! experiment follows. The machines of today (`multicore`, `browser`, `classroom`) are
//! measured on this machine, each with the command that measures it.

use super::churn::LossNotice;
use super::run_queue::Load;
use super::SimError;
use crate::net::Kind;

/// One simulated machine's constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The name on the command line and in traces.
    pub name: &'static str,
    /// What it stands for.
    pub title: &'static str,
    /// Nanoseconds per node of each processor, repeated over the processors in turn
    /// (one value: all equal).
    pub node_ns: &'static [u64],
    /// Cost of a step that visits no node (handling messages, bookkeeping).
    pub step_ns: u64,
    /// Charged to the sender for each message (packing, system call, interrupt).
    pub send_overhead_ns: u64,
    /// Time a message takes over one link, which it holds meanwhile.
    pub hop_ns: u64,
    /// Time a message takes per hop besides holding the link, while other messages cross
    /// it: a relay's forwarding (its timers, its injected delay), which delays frames
    /// without making them queue.
    pub latency_ns: u64,
    /// Cost of moving one cache line between processors, on machines whose processors
    /// share one memory (`None`: message passing only). Work-splitting programs read and
    /// write their offer board at this price (`crate::machine::Processor::best_offer`).
    pub line_ns: Option<u64>,
    /// Whether a processor goes on with a node's work while its lookup in another
    /// processor's part of a distributed table travels (Zugzwang), or waits for the answer
    /// before doing anything (StarTech on the CM-5: Figure 8 counts those waits apart).
    pub overlaps_table_reads: bool,
    /// The network it had (the command line may choose another).
    pub net: Kind,
    /// A background load varying over time, if the machine was shared.
    pub load: Option<Load>,
    /// Waking a processor that waits: after waiting this long a real thread stops looking
    /// at its mailbox and sleeps, and a message then reaches it `wake_ns` later (the
    /// threads machine spins, then parks; `crate::machine::Threads`). `None`: a waiting
    /// processor takes a message at once (the period's machines, whose message costs
    /// include the receiving process's switch).
    pub sleep: Option<Sleep>,
    /// How much a step's node time varies, ± per mille (deterministic per processor and
    /// time). Real nodes differ in cost (evaluation, move generation, caches); without
    /// this, equal processors run in perfect lockstep, which no real machine does and
    /// which keeps ABDADA's busy table and Lazy SMP from ever diverting a processor.
    pub jitter_permille: u32,
    /// How long the others take to hear that a processor left, on machines whose
    /// processors may leave mid-search (a class; [`super::Departure`]). `None`: they never
    /// leave.
    pub loss_notice: Option<LossNotice>,
    /// Whether a run starts and ends with messages over the network, as a class's does
    /// (`crate::machine::cluster`): processor 0 sends its task (START) to the others in
    /// turn and each starts when it arrives, and processor 0's result is in once every
    /// other's DONE has come back after its FINISHED. `false`: every processor starts at
    /// time 0 and the run is over when processor 0 finishes (the papers' timings, taken
    /// with every processor ready).
    pub announces_task: bool,
    /// Whether the work-splitting programs are told the round trip and size their jobs to
    /// it (`parallel::split::pace`), as a class's processor 0 does by default; `false` on
    /// the papers' machines and on a class told to split as the papers do
    /// ([`Preset::split_as_the_papers`]).
    pub paced: bool,
}

/// How a waiting processor sleeps, and what waking it costs (see [`Preset::sleep`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sleep {
    /// Waiting longer than this, it sleeps.
    pub after_ns: u64,
    /// What a message then costs it besides its delivery.
    pub wake_ns: u64,
}

/// The node-time variation of the real machines' presets (±10 %).
const JITTER: u32 = 100;

/// Zugzwang's Transputer network (Feldmann, Monien, Mysliwietz, Vornberger 1990; Figure 5
/// of the 1990 paper is what `meshmate sim` prints).
///
/// - Node time 3.128 ms: Zugzwang's own rate, Figure 5's totals on one processor
///   (73,888,253 nodes in 231,112 s, about 320 nodes per second; the text says "about
///   350"), ../shared/data/published-figures.md.
/// - Hop 100 µs: an estimate. A T800 link moves about 1.7 MB/s one way (Inmos data
///   sheet, 20 Mbit/s links), so a work message of ~100 bytes is ~60 µs on the wire, plus
///   the store-and-forward of Zugzwang's router process on each processor it passes.
/// - Send overhead 30 µs: an estimate (packing the message and handing it to the router
///   process; the T800 switches processes in about 1 µs).
/// - Network: DeBruijn in Zugzwang's form (the papers' DB(n) of T800s with 4 links each).
pub const T800: Preset = Preset {
    name: "t800",
    title: "T800 Transputers on a DeBruijn network, 1990 (Zugzwang)",
    node_ns: &[3_128_000],
    step_ns: 10_000,
    send_overhead_ns: 30_000,
    hop_ns: 100_000,
    latency_ns: 0,
    line_ns: None,
    overlaps_table_reads: true,
    net: Kind::DeBruijn,
    load: None,
    sleep: None,
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// StarTech's CM-5 (Kuszmaul, "The StarTech Massively Parallel Chess Program", MIT LCS,
/// January 11, 1995; ../shared/data/published-figures.md, Paper 2).
///
/// - Node time 200 µs: an estimate, which the paper brackets but does not fix. Figure 4's
///   best serial run visited 40,805,974 positions for all 25 Kaufman positions (2^23
///   entries) with t20 = 6120.18 s for the 20 fastest, so a position took at least
///   6120.18 s / 40.8 M = 150 µs on that (unnamed) serial machine; the 20 fastest took
///   23 % of the 1-processor CM-5's time for all 25 (Figure 5: 8936.95 of 38261.91 s), and
///   with that share the serial machine took about 640 µs. Berliner's C code, StarTech's
///   start, ran at 2,000–5,000 positions per second (200–500 µs, paper 2.1) before it was
///   sped up. 200 µs sits in that bracket; Figure 8's 14.4 % of cycles waiting for table
///   reads is the check on the ratio of node time to message time below.
/// - Send overhead 10 µs: "Messages cost about 10 microseconds of overhead" (paper 2.1).
/// - Table reads waited for: StarTech looked an entry up by a request to the owning node
///   and waited for the reply (paper 2.6); Figure 8 counts 14.4 % of all cycles waiting for
///   those reads, and names them among the cycles a context-switching scheduler could
///   recover, so the node's work did not overlap them.
/// - Hop 0.5 µs: an estimate, so that a message across a 512-node fat tree (10 hops)
///   takes about 5 µs, the order of the CM-5 data network's one-way latency.
/// - Network: the CM-5's 4-ary fat tree.
pub const CM5: Preset = Preset {
    name: "cm5",
    title: "CM-5 with its fat-tree data network, 1993 (StarTech)",
    node_ns: &[200_000],
    step_ns: 1_000,
    send_overhead_ns: 10_000,
    hop_ns: 500,
    latency_ns: 0,
    line_ns: None,
    overlaps_table_reads: false,
    net: Kind::FatTree,
    load: None,
    sleep: None,
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// Cray Blitz's Cray C916 (Hyatt, Suter, Nelson 1989; Hyatt's DTS paper, 1994): 16
/// vector CPUs on one shared memory.
///
/// - Node time 32 µs: Cray Blitz's own rate in the DTS test, 31,230 nodes per second
///   per CPU (Table 5's nodes over Table 4's times on one CPU, derived in
///   ../shared/data/published-figures.md 1.7). The paper's HELP latency, "about 30 µs"
///   (one node searched and the tree state dumped), agrees with it.
/// - Send overhead 1 µs: an estimate for a lock and a few shared-memory writes, which is
///   all DTS's "messages" are.
/// - Hop 0: shared memory has no wire; the bus stands for it.
/// - Cache line 250 ns: an estimate, one shared-memory access, a fraction of the
///   microsecond a lock and a few writes take (the send overhead above).
pub const C916: Preset = Preset {
    name: "c916",
    title: "Cray C916, 16 CPUs on shared memory, 1994 (Cray Blitz, DTS)",
    node_ns: &[32_000],
    step_ns: 100,
    send_overhead_ns: 1_000,
    hop_ns: 0,
    latency_ns: 0,
    line_ns: Some(250),
    overlaps_table_reads: true,
    net: Kind::Bus,
    load: None,
    sleep: None,
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// The workstation cluster of TDSAB (Kishimoto and Schaeffer, ~2002;
/// ../shared/data/published-figures.md, section 2): up to 64 Pentium III 933 MHz PCs on
/// 100 Mb/s Ethernet, programs in C over PVM, a 200 MB table per processor (`--hash`
/// sets the total, split over the processors with `--tt tds`).
///
/// - Node time 2 µs: an estimate (the paper prints times, not nodes): about 500,000
///   positions per second, some 1,900 cycles of a 933 MHz Pentium III per node, the
///   order chess programs of the period reached on such a PC. Awari's and Amazons'
///   nodes cost less and far more; chess is what runs here.
/// - Send overhead 25 µs and hop 60 µs: estimates for PVM's direct TCP route on Fast
///   Ethernet (50–100 µs one way for a small message, most of it in the two protocol
///   stacks; the paper's messages are all under 100 bytes, 8 µs on the wire, so one
///   cost per message and no size term).
/// - Network: the topology is not stated; a switch gives every pair its own path, which
///   `full` models.
pub const P3_ETHERNET: Preset = Preset {
    name: "p3-ethernet",
    title: "Pentium III cluster on switched 100 Mb/s Ethernet, 2002 (TDSAB)",
    node_ns: &[2_000],
    step_ns: 200,
    send_overhead_ns: 25_000,
    hop_ns: 60_000,
    latency_ns: 0,
    line_ns: None,
    overlaps_table_reads: true,
    net: Kind::Full,
    load: None,
    sleep: None,
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// Hasan's three unequal PCs on a LAN (K. S. Hasan, "A Distributed Chess Playing Software
/// System Model Using Dynamic CPU Availability Prediction"; ../shared/data/published-
/// figures.md, section 3): an AMD Athlon XP 2.4 GHz, a Pentium 4 and a dual-core Core Duo
/// 1.6 GHz with both cores used, so four workers in this order (`--procs 4` is the
/// paper's three PCs; `--procs 1` the Athlon alone).
///
/// - Node times from the paper's printed rates (Figure 11's prose): 421,946 nodes/s on
///   one PC, taken as the Athlon (PC#1; the paper does not say which PC the baseline
///   was): 1e9 / 421,946 = 2,370 ns. "Over 1,200,000" on the three together leaves at
///   least 778,054 nodes/s to the Pentium 4 and the Core Duo's two cores. A Core Duo
///   core at 1.6 GHz is taken as the Athlon per clock (421,946 × 1.6 / 2.4 = 281,297
///   nodes/s, 3,555 ns), so the dual core out-searches the Athlon as the paper says it
///   did; the Pentium 4 gets the rest, 1e9 / 4,600 ns = 217,391 nodes/s (the paper gives
///   no clock for it). Together 1,201,931 nodes/s, 2.85 times the Athlon alone.
/// - Step 300 ns: an estimate, a few hundred cycles of message handling.
/// - LAN: type and speed not stated; an estimate of switched 100 Mb/s Ethernet of the
///   period with TCP between Windows services: send overhead 50 µs and hop 100 µs, some
///   150 µs one way for a small message (100 bytes are 8 µs on the wire; the rest is the
///   two protocol stacks, as in the P3 preset's PVM estimate, and a little more for
///   Windows services).
/// - Background load (the paper prints none for its runs): run queues redrawn every
///   2 s, one CPU-bound process in one window of ten, and 0 to 3 I/O-bound ones of
///   unloaded usage 2–20 %: availabilities mostly between 70 % and 100 % and about 45 %
///   under a CPU-bound process, the range of the paper's illustrative pool (97, 93, 89
///   and 62 %). The monitor reads the queues every 500 ms (the paper gives no period T).
///   Estimates, to be changed here.
pub const LAN: Preset = Preset {
    name: "lan",
    title: "Hasan's LAN: Athlon XP 2.4 GHz, Pentium 4, Core Duo 1.6 GHz (2 cores), switched 100 Mb/s Ethernet",
    node_ns: &[2_370, 4_600, 3_555, 3_555],
    step_ns: 300,
    send_overhead_ns: 50_000,
    hop_ns: 100_000,
    latency_ns: 0,
    line_ns: None,
    overlaps_table_reads: true,
    net: Kind::Full,
    load: Some(Load { period_ns: 2_000_000_000, cpu_bound_permille: 100, max_io_bound: 3, io_usage_permille: (20, 200), monitor_period_ns: 500_000_000 }),
    sleep: None,
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// A current multicore PC: this machine, measured (2 cores of an AMD EPYC under KVM).
///
/// - Node time 400 ns: `meshmate bench` gives 2.5 M nodes per second on one core, and
///   the serial searches of Bratko-Kopec to 14 plies 2.3 M (`meshmate speedup`). The
///   ratio of message to node time is what the speedups depend on; with the 1 µs of an
///   earlier, slower engine the model was 25–68 % more hopeful than two real threads.
/// - Send overhead 100 ns and hop 50 ns: a message to a processor that is looking at its
///   mailbox takes 0.14 µs one way, half the median round trip 0.27 µs measured by
///   `cargo run --release --example thread-costs` (1.26 µs on some runs: the two
///   virtual cores are not always placed alike).
/// - Sleep after 70 µs, wake 25 µs: the same measurement finds messages caught at once
///   after up to 60–70 µs of waiting (the threads machine's 2,000 looks at its mailbox,
///   `SPINS`), and a mean wake-up of 17–45 µs (about 25) after longer waits, when the thread has parked.
/// - Cache line 100 ns: one line moved from another core's cache (the offer board), the
///   upper end of typical core-to-core latencies of 50–100 ns.
pub const MULTICORE: Preset = Preset {
    name: "multicore",
    title: "Modern multicore on shared memory",
    node_ns: &[400],
    step_ns: 20,
    send_overhead_ns: 100,
    hop_ns: 50,
    latency_ns: 0,
    line_ns: Some(100),
    overlaps_table_reads: true,
    net: Kind::Bus,
    load: None,
    sleep: Some(Sleep { after_ns: 70_000, wake_ns: 25_000 }),
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// Two web workers in Chromium (V8) on this machine: the threaded wasm build Play runs,
/// whose search is the native one compiled to wasm on the same two cores.
///
/// - Node time 506 ns: `multicore`'s 400 ns over the wasm engine's speed, 0.79 of native
///   nodes per CPU second of the search thread (threaded build, network evaluation, at
///   8c954e7: `node tests/wasm-vs-native.mjs 2 12` from www/, docs/strength.md); step
///   25 ns, `multicore`'s 20 ns of the same bookkeeping at that speed.
/// - Send overhead 160 ns and hop 80 ns: a message to a worker still looking at its
///   mailbox takes 0.24 µs one way, half the mean round trip of those caught looking,
///   0.18–0.84 µs (0.47), measured from www/ by `node tests/thread-costs-wasm.mjs 3`
///   (crate/machine/costs.rs on the threads machine as compiled to wasm); split between
///   sender and wire as `multicore`'s.
/// - Sleep after 1 µs, wake 22 µs: the same measurement finds the waiting worker still
///   looking in 25, 17, 14, 1 and 15 % of the round trips after 0, 1, 2, 3 and 5 µs of
///   waiting, and in 4 % after 10 µs (three runs; natively it looks for some tens of
///   microseconds: the threads machine's 2,000 looks at the mailbox pause on x86-64 and
///   not in wasm, which has no pause instruction). A sleep after `after_ns` catches every
///   message of the first `after_ns`: 1 µs catches as many as that share over 0–10 µs
///   does (its integral, 1.1 µs). A worker asleep in `memory.atomic.wait32` answers after
///   21.5–22.7 µs (the mean of the fastest nine tenths of the round trips after 10 µs to
///   5 ms of waiting, three runs on a loaded machine), less the 0.5 µs of a round trip
///   without a wake.
/// - Cache line 100 ns: the same cores as `multicore`; wasm's atomics are the same
///   instructions.
pub const BROWSER: Preset = Preset {
    name: "browser",
    title: "Two web workers in Chromium/V8 (the threaded wasm build)",
    node_ns: &[506],
    step_ns: 25,
    send_overhead_ns: 160,
    hop_ns: 80,
    latency_ns: 0,
    line_ns: Some(100),
    overlaps_table_reads: true,
    net: Kind::Bus,
    load: None,
    sleep: Some(Sleep { after_ns: 1_000, wake_ns: 22_000 }),
    jitter_permille: JITTER,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// What one frame costs the relay, all its members together: it forwarded 24,770-25,981
/// frames a second between 8 busy processors on this machine (at c0b72bf, `cargo run
/// --release --example relay-load 3`, docs/class.md), 38-40 µs a frame.
const RELAY_FRAME_NS: u64 = 40_000;

/// A class joined through `meshmate relay` (docs/class.md): native processors
/// (`meshmate join`) on the machines of a lecture room, each frame one hop through the
/// relay. Measured on this machine (2 cores of an AMD EPYC under KVM, the relay and both
/// ends on it) with `cargo run --release --example classroom constants`
/// (tests/experiments/classroom.rs): the node time at b661bda, the rest at 302dc96.
///
/// - Node time 538 ns: the serial search's 1,857,549 nodes per second on Bratko-Kopec 2-4
///   to 13 plies (the class figures' setup; 0.92-1.27 M on earlier runs while other work
///   shared the cores); step 20 ns, `multicore`'s bookkeeping.
/// - One-way 168 µs: the median time of a 64-byte frame between two relay links, half a
///   round trip from processor 0 through the relay to processor 1 and back (168.3 µs;
///   10-90 % 148-304 µs over 400), the receiver waiting as a processor does (blocked on
///   its link). Two bare WebSockets blocking in read take 37 µs: the rest is the links'
///   socket threads, which look for frames to read every 200 µs. (Until the relay sent a
///   frame due at once without a timer, a tick of its millisecond timers made it 1.33
///   ms.) The relay's `--delay-ms` adds to it: [`CLASSROOM_10MS`], [`CLASSROOM_50MS`].
/// - Network: the relay is one hub every frame passes, so every pair is one hop apart
///   on one shared medium (`bus`), which a frame holds for `RELAY_FRAME_NS`; the rest of
///   the one-way time is latency, during which other frames pass (the relay forwards many
///   at once: a link held for the whole 50 ms would let 20 frames a second through).
/// - Send overhead 100 ns: handing a frame to the relay link (median over bursts of
///   100); the link's own thread writes the socket, beside the search.
/// - Losses (`Sim::set_departures`): a member whose connection closes is heard lost by
///   processor 0 0.3 ms later (median of ten, 0.3-0.3; 1.5 ms before the relay's timer
///   fix); one that falls silent 10.0-10.1 s after its last frame (the relay's default
///   `--lost-after-ms` of 10 s, checked every 100 ms: 10.10 s and 10.00 s measured; a
///   frozen processor beat up to 1 s before it froze), taken as 10.1 s.
/// - The task announced ([`Preset::announces_task`]): a class's helpers start when
///   processor 0's START has crossed the relay, so with 50 ms they ask for work only
///   after the short first iterations are done, and a search is over when the helpers'
///   DONE frames are back, a round trip after processor 0's FINISHED. Left out at first,
///   the model gave away 1.5 times the subproblems of the measured class at 50 ms, each
///   a round trip processor 0 waits (docs/class.md, "Measured against modelled").
/// - The round trip its programs are told (`Processor::round_trip_ns`, which the real
///   class measures when a search starts): stated from these constants, twice the send
///   overhead and the one-way time, 0.34 ms here, 22.92 ms at 10 ms and 102.93 ms at
///   50 ms; the work-splitting programs size their jobs by it (`parallel::split::pace`).
/// - Not modelled: the receiving end's cost per frame (its link thread and decoding),
///   the relay's own CPU, and processors slower than this one (a tab runs the wasm build,
///   0.79 of native: `browser`). How often students leave is not measured: departures
///   are a run's option.
pub const CLASSROOM: Preset = Preset {
    name: "classroom",
    title: "A class of native processors joined through the relay (no injected delay)",
    node_ns: &[538],
    step_ns: 20,
    send_overhead_ns: 100,
    hop_ns: RELAY_FRAME_NS,
    latency_ns: 168_300 - RELAY_FRAME_NS,
    line_ns: None,
    overlaps_table_reads: true,
    net: Kind::Bus,
    load: None,
    sleep: None,
    jitter_permille: JITTER,
    loss_notice: Some(LossNotice { closed_ns: 300_000, silent_ns: 10_100_000_000 }),
    announces_task: true,
    paced: true,
};

/// [`CLASSROOM`] behind the relay's `--delay-ms 10`: one-way 11.46 ms, measured the same
/// way (10-90 % 11.33-12.24 ms over 40; 11.46 ms before the timer fix too: a delayed
/// frame still waits for the timer's millisecond tick after its due time).
pub const CLASSROOM_10MS: Preset = Preset { name: "classroom-10ms", title: "A class joined through the relay, 10 ms injected per hop", latency_ns: 11_459_000 - RELAY_FRAME_NS, ..CLASSROOM };

/// [`CLASSROOM`] behind the relay's `--delay-ms 50`: one-way 51.46 ms, measured the same
/// way (10-90 % 51.01-51.82 ms over 40).
pub const CLASSROOM_50MS: Preset = Preset { name: "classroom-50ms", title: "A class joined through the relay, 50 ms injected per hop", latency_ns: 51_463_000 - RELAY_FRAME_NS, ..CLASSROOM };

/// The textbook machine: equal processors, free and instant messages. With it, one
/// simulated processor does exactly the serial search.
pub const IDEAL: Preset = Preset {
    name: "ideal",
    title: "Ideal machine: equal processors, zero-latency messages",
    node_ns: &[1_000],
    step_ns: 1,
    send_overhead_ns: 0,
    hop_ns: 0,
    latency_ns: 0,
    line_ns: None,
    overlaps_table_reads: true,
    net: Kind::Full,
    load: None,
    sleep: None,
    jitter_permille: 0,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// Every preset, in the order a menu lists them.
pub const PRESETS: [Preset; 11] = [T800, CM5, C916, P3_ETHERNET, LAN, MULTICORE, BROWSER, CLASSROOM, CLASSROOM_10MS, CLASSROOM_50MS, IDEAL];

impl Preset {
    /// The preset called `name` (case-insensitive), or an error listing the names.
    pub fn by_name(name: &str) -> Result<Preset, SimError> {
        PRESETS.into_iter().find(|p| p.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| SimError::UnknownPreset(name.to_string()))
    }

    /// This machine with a frame's one-way time over one hop measured elsewhere, as the
    /// Class view measures its relay (the classroom presets fix 0, 10 or 50 ms injected;
    /// a real class has its own). The link is held for `hop_ns` as before and the rest is
    /// latency. `None` when `one_way_ns` is shorter than holding the link, which no
    /// measurement of this machine can give.
    pub fn with_one_way_ns(self, one_way_ns: u64) -> Option<Preset> {
        let latency_ns = one_way_ns.checked_sub(self.hop_ns)?;
        Some(Preset { latency_ns, ..self })
    }

    /// The same machine with its work-splitting programs splitting as the papers do,
    /// whatever the round trip (a lecturer comparing the two).
    pub fn split_as_the_papers(self) -> Preset {
        Preset { paced: false, ..self }
    }

    /// A frame's one-way time over one hop, link and latency together.
    pub fn one_way_ns(&self) -> u64 {
        self.hop_ns + self.latency_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_one_way_time_replaces_the_latency_and_keeps_the_rest() {
        // The 10 ms preset is the plain one with its own measured one-way time.
        assert_eq!(CLASSROOM.with_one_way_ns(CLASSROOM_10MS.one_way_ns()).map(|p| p.latency_ns), Some(CLASSROOM_10MS.latency_ns));
        let measured = CLASSROOM.with_one_way_ns(23_000_000).expect("above the link's time");
        assert_eq!(measured.one_way_ns(), 23_000_000);
        assert_eq!(Preset { latency_ns: CLASSROOM.latency_ns, ..measured }, CLASSROOM, "only the latency moves");
    }

    #[test]
    fn a_one_way_time_shorter_than_holding_the_link_is_refused() {
        assert_eq!(CLASSROOM.with_one_way_ns(RELAY_FRAME_NS - 1), None);
        assert_eq!(CLASSROOM.with_one_way_ns(RELAY_FRAME_NS).map(|p| p.latency_ns), Some(0));
    }
}
