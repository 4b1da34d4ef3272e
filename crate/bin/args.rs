//! The command line's grammar: every subcommand, option and allowed value, with the help
//! text `--help` prints. Parsing only; `cli.rs` runs what was asked.

pub use crate::speedup::SpeedupArgs;
use crate::values::{algorithm, depth, hash, placement, Named};
use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand};
use meshmate::machine::sim::presets::PRESETS;
use meshmate::machine::sim::{Departure, Leaving, Preset};
use meshmate::net::{Kind, MAX_PROCESSORS};
use meshmate::eval::Evaluation;
use meshmate::parallel::Algorithm;
use meshmate::stats::reproduce::Paper;
use meshmate::tt::Placement;
use std::path::PathBuf;

/// meshmate: a parallel alpha-beta chess engine. Without a command it speaks UCI on
/// standard input and output, for chess GUIs.
#[derive(Parser, Debug)]
#[command(name = "meshmate", version, about, long_about = None, after_help = "Without a command, meshmate speaks UCI (as `meshmate uci`).\nEach command has its own --help, e.g. `meshmate sim --help`.")]
pub struct Cli {
    /// What to do (UCI when left out).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands. One is parsed per process, so its largest variant's size costs nothing.
#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Speak UCI on standard input and output (the default).
    Uci,
    /// Search fixed positions on one thread with a 16 MiB table; ends "N nodes M nps",
    /// N being the search's signature (equal on every platform).
    Bench(BenchArgs),
    /// Count the leaves of the legal move tree (perft), of one position or of an EPD suite.
    Perft(PerftArgs),
    /// Play an EPD test suite (bm/am records) and count the positions solved.
    Suite(SuiteArgs),
    /// Time-to-depth speedup of parallel algorithms on real threads against the serial search
    /// (on MPI ranks: `mpirun -np N meshmate-cluster speedup`).
    Speedup(SpeedupArgs),
    /// The same experiment on a simulated parallel computer, in virtual time (Zugzwang's Figure 5).
    Sim(SimArgs),
    /// One paper's experiment under its own conditions on the simulator, our table beside the published one.
    Reproduce(ReproduceArgs),
    /// Fit the evaluation network to `FEN;result;score` positions (tests/tuning/selfplay.py
    /// --scores) or to `datagen`'s records, and write the network file
    /// (`tests/tuning/nnue.sh` runs the whole pipeline).
    TrainNnue(TrainArgs),
    /// Play self-play games at a fixed node budget on every core and append their quiet
    /// positions, scored and with the game's result, as compact records for `train-nnue`.
    Datagen(DatagenArgs),
    /// The WebSocket relay that makes the tabs of an online class one parallel computer
    /// (the protocol: crate/relay/mod.rs).
    #[cfg(feature = "relay")]
    Relay(RelayArgs),
    /// Take part in a class's searches as one of its processors, over the relay (the
    /// lecturer's page shows the address and the code).
    #[cfg(feature = "relay")]
    Join(JoinArgs),
}

/// `join`.
#[cfg(feature = "relay")]
#[derive(Args, Debug)]
#[command(after_help = "Runs until the lecturer ends the session.\n\nExample:\n  meshmate join ws://127.0.0.1:8091/class 3f2a...")]
pub struct JoinArgs {
    /// The relay's class address, ws://HOST:PORT/class.
    #[arg(value_name = "URL")]
    pub url: String,
    /// The session's code.
    #[arg(value_name = "CODE")]
    pub code: String,
    /// Take part as a browser tab without shared memory does: on one thread, searching
    /// in slices of MS milliseconds between looks at the relay (the default searches on
    /// a thread of its own while the link's thread listens).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(1..=1000), conflicts_with = "threads")]
    pub slices: Option<u32>,
    /// Search each job the lecturer's processors give on N threads over this process's
    /// table (the job's own search, and N-1 Lazy SMP helpers filling the table beside it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=meshmate::parallel::MAX_THREADS as i64))]
    pub threads: u32,
}

/// `relay`.
#[cfg(feature = "relay")]
#[derive(Args, Debug)]
#[command(after_help = "Prints `relay listening on ws://HOST:PORT/class` once it listens (port 0 picks a free one), \
then `lecturer token TOKEN` unless --lecturer-token-file gives it, and serves the class's WebSocket at /class, \
each session's trace to its lecturer at /class/CODE/trace?token=TOKEN, and /health. Creating a session takes the \
token; students need only the session's code. Memory: at most --max-queued-mib in all queues, and each session's \
trace (200,000 events, about 20 MiB); docs/class.md has the bounds.\n\n\
Examples:\n  meshmate relay\n  meshmate relay --listen 0.0.0.0:8091 --lecturer-token-file token.txt --allow-origin https://class.example.org --delay-ms 50 --trace-dir traces")]
pub struct RelayArgs {
    /// The address and port to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8091")]
    pub listen: std::net::SocketAddr,
    /// Delay every forwarded frame by this many milliseconds per hop (a class over 0, 10 or 50 ms of internet).
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub delay_ms: u64,
    /// A member silent for this many milliseconds is lost.
    #[arg(long, value_name = "T", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
    pub lost_after_ms: u64,
    /// The longest binary message in bytes, its 2-byte address included.
    #[arg(long, value_name = "B", default_value_t = 65536, value_parser = clap::value_parser!(u32).range(7..=16 << 20))]
    pub max_frame: u32,
    /// Messages a second one connection may send (bursts of twice that); past it, it is cut off.
    #[arg(long, value_name = "F", default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_rate: u32,
    /// Messages a second a session's owner may send (processor 0 talks to every member).
    #[arg(long, value_name = "F", default_value_t = 50_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub owner_max_rate: u32,
    /// Write each session's trace to DIR/CODE.jsonl.
    #[arg(long, value_name = "DIR")]
    pub trace_dir: Option<PathBuf>,
    /// The most sessions at once.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_sessions: u32,
    /// The most members of one session, the owner included (at most 256, the processors a lecturer counts).
    // A larger class is refused here, at start, not by a lecturer's machine in the middle
    // of a lecture.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=meshmate::machine::cluster::MAX_PROCESSORS as i64))]
    pub max_members: u32,
    /// The lecturer's token, which creating a session takes, read from FILE (at least 16 characters; without it the relay makes one and prints it).
    #[arg(long, value_name = "FILE")]
    pub lecturer_token_file: Option<PathBuf>,
    /// Pages of ORIGIN (e.g. https://class.example.org) may open the class's socket, besides this machine's (localhost, any port) and the page's own (repeatable).
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// The most connections at once, joined or not.
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// The most connections at once that have not yet created or joined a session.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_unjoined: u32,
    /// The most MiB waiting in all connections' queues together; a connection whose message would pass it is cut off.
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(16..=1 << 20))]
    pub max_queued_mib: u32,
    /// How long a session waits for its lecturer to resume after the lecturer's connection dropped (0: it closes at once).
    #[arg(long, value_name = "T", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub owner_grace_ms: u64,
}

/// `reproduce`.
#[derive(Args, Debug)]
#[command(after_help = "Prints each measure (speedups, overheads, per-position columns...) with the paper's printed figure beside ours, \
then the conditions and where ours depart from the paper's.\n\n\
Examples:\n  meshmate reproduce zugzwang --quick\n  meshmate reproduce crayblitz --json > crayblitz.json\n  meshmate reproduce startech --notes")]
pub struct ReproduceArgs {
    /// The paper: zugzwang, crayblitz, startech, tdsab or pvsplit.
    #[arg(value_name = "NAME", value_parser = paper())]
    pub paper: Paper,
    /// A smaller version (fewer positions, plies and processors), for tests and lectures.
    #[arg(long)]
    pub quick: bool,
    /// Print `{"paper": NAME, "rows": [{"measure", "p", "position", "ours", "published"}, ...]}` instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Print only the experiment's conditions and deviations (runs nothing).
    #[arg(long, conflicts_with = "json")]
    pub notes: bool,
    /// Seed of the machines' random work requests and node times.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// The folder of the papers' EPD files.
    #[arg(long, value_name = "DIR", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data"))]
    pub data: PathBuf,
}

/// `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth of each position.
    #[arg(value_name = "DEPTH", default_value_t = meshmate::search::DEFAULT_BENCH_DEPTH, value_parser = depth())]
    pub depth: i32,
    /// The static evaluation searched with: nnue (the engine's default) or classic.
    #[arg(long, value_name = "EVAL", default_value = "nnue", value_parser = evaluation())]
    pub eval: Evaluation,
}

/// `datagen`.
#[derive(Args, Debug)]
#[command(after_help = "Each game starts with --random-plies random legal moves, then the engine plays both sides \
at --nodes nodes a move. Games end by the rules, by adjudication (the score beyond --adjudicate centipawns for four \
plies in a row) or as a draw at --max-plies. Every quiet position (not in check; the move played no capture, \
promotion or check; no mate score) is written with the search's score and the game's result to \
DIR/datagen-SEED.bin (eval/nnue/records.rs), a game at a time: a run cut off loses only the game it was writing. \
A line per run goes to DIR/runs.log. Game g is seeded from SEED and g, so a run is reproducible whatever the threads.\n\n\
Example:\n  meshmate datagen --out ~/meshmate-data --games 20000 --seed 3\n  meshmate train-nnue ~/meshmate-data/*.bin --out net.nnue")]
pub struct DatagenArgs {
    /// The folder to append to (made if missing; keep it outside the work tree).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games to play.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub games: u64,
    /// Nodes searched for each move.
    #[arg(long, value_name = "N", default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// Random legal moves that open each game.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Plies after which a game is a draw.
    #[arg(long, value_name = "N", default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=2000))]
    pub max_plies: u32,
    /// Centipawns beyond which four plies in a row decide the game.
    #[arg(long, value_name = "CP", default_value_t = 1000, value_parser = clap::value_parser!(i32).range(100..=30_000))]
    pub adjudicate: i32,
    /// Threads playing games (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seed of the run (its file's name; game g is seeded from it and g).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// The static evaluation the games are played with: nnue (the engine's default) or classic.
    #[arg(long, value_name = "EVAL", default_value = "nnue", value_parser = evaluation())]
    pub eval: Evaluation,
    /// Table size of each thread in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = hash())]
    pub hash: usize,
}

/// `train-nnue`.
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  meshmate train-nnue games-1.txt games-2.txt --out crate/eval/nnue/default.nnue\n  meshmate train-nnue data/datagen-1.bin data/datagen-2.bin --out net.nnue\n  meshmate train-nnue data/datagen-3.bin --init net.nnue --rate 0.0001 --epochs 4 --out net-2.nnue")]
pub struct TrainArgs {
    /// The positions: `datagen`'s records (files ending in .bin), or one `FEN;result;score`
    /// a line (White's view); several files are read in order, as one.
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the network file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 25, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub epochs: u32,
    /// Weight of the search score in the target (the rest is the game result), 0 to 1.
    #[arg(long, value_name = "L", default_value_t = 1.0)]
    pub lambda: f32,
    /// Positions per Adam step.
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub batch: u32,
    /// Adam's learning rate at the start (it falls linearly to a tenth).
    #[arg(long, value_name = "R", default_value_t = 0.002)]
    pub rate: f32,
    /// Train on the positions only, not also on their mirror images (files a ↔ h).
    #[arg(long)]
    pub no_mirror: bool,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Start from this network file's weights instead of random ones: a network trained
    /// further on new positions.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
}

/// `perft`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  meshmate perft 5\n  meshmate perft 4 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n  meshmate perft --suite ../shared/data/perft.epd --max-depth 5")]
pub struct PerftArgs {
    /// Depth of the move tree (not with --suite).
    #[arg(value_name = "DEPTH", required_unless_present = "suite", conflicts_with = "suite", value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: Option<u32>,
    /// The position, as FEN (its words may be given separately); the start position when left out.
    #[arg(value_name = "FEN", trailing_var_arg = true, allow_hyphen_values = true, requires = "depth")]
    pub fen: Vec<String>,
    /// Check every D1, D2... count of an EPD file instead.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// With --suite: the deepest count checked.
    #[arg(long, value_name = "N", default_value_t = 6, requires = "suite", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub max_depth: u32,
}

/// `suite`.
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  meshmate suite ../shared/data/bratko-kopec.epd --movetime 1000")]
pub struct SuiteArgs {
    /// The EPD file (records with bm or am operations).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Milliseconds per position (1000 unless --depth is given).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed search depth per position.
    #[arg(long, value_name = "D", value_parser = depth())]
    pub depth: Option<i32>,
    /// Transposition table size, MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = hash())]
    pub hash: usize,
}

/// `sim`.
#[derive(Args, Debug)]
#[command(after_help = "Prints per position N, T (virtual seconds) for 1 and p processors, LD (load), SO (search overhead), \
SPE (speedup), W (work), C (critical path) and W/C, then totals, the fit T ≈ a·W/p + b·C, messages and link use.\n\n\
Examples:\n  meshmate sim --algo ybwc --procs 16,64 --preset t800 --suite ../shared/data/bratko-kopec.epd --depth 7 --pure --tt distributed\n  \
meshmate sim --algo lazysmp,abdada --procs 2 --preset multicore --suite ../shared/data/bratko-kopec.epd --depth 12 --seed 1-8\n  \
meshmate sim --bench --preset t800")]
pub struct SimArgs {
    /// Algorithms to compare with the serial search, separated by commas [default with --bench: lazysmp].
    #[arg(long = "algo", value_name = "A[,B...]", required_unless_present_any = ["bench", "signature"], value_delimiter = ',', value_parser = algorithm())]
    pub algorithms: Vec<Algorithm>,
    /// Processor counts, separated by commas (1 to 1024; DeBruijn and hypercube need powers of two) [default with --bench: 1,16,64,256,1024].
    #[arg(long, value_name = "P[,Q...]", required_unless_present_any = ["bench", "signature"], value_delimiter = ',', value_parser = clap::value_parser!(u16).range(1..=MAX_PROCESSORS as i64))]
    pub procs: Vec<u16>,
    /// The simulated machine: its node time, message costs and network [default with --bench: multicore].
    #[arg(long, value_name = "NAME", required_unless_present_any = ["bench", "signature"], value_parser = preset())]
    pub preset: Option<Preset>,
    /// The EPD file of positions.
    #[arg(long, value_name = "FILE", required_unless_present_any = ["bench", "signature"])]
    pub suite: Option<PathBuf>,
    /// Fixed search depth [default with --bench: 5].
    #[arg(long, value_name = "D", required_unless_present_any = ["bench", "signature"], value_parser = depth())]
    pub depth: Option<i32>,
    /// The network, instead of the preset's own.
    #[arg(long, value_name = "NAME", value_parser = network())]
    pub net: Option<Kind>,
    /// Where the parallel runs keep the transposition table (the serial reference always has one global table).
    #[arg(long, value_name = "PLACEMENT", default_value = "global", value_parser = placement())]
    pub tt: Placement,
    /// Seeds of the random work requests and node times: one (7), a range (1-8) or a list (1,3,5); several are pooled.
    #[arg(long, value_name = "SEEDS", default_value = "1", value_parser = seeds)]
    pub seed: Seeds,
    /// Transposition table size, MiB, in all (a fresh table for every search).
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = hash())]
    pub hash: usize,
    /// Search full width as the period's programs did: no table cutoffs, null move, reductions or pruning.
    #[arg(long)]
    pub pure: bool,
    /// Write every event of the run to FILE (JSON lines, docs/trace-schema.md); one seed only.
    #[arg(long, value_name = "FILE.jsonl")]
    pub trace: Option<PathBuf>,
    /// Processors that leave each run, as a class's students may (the classroom presets):
    /// P@MS leaves at MS virtual milliseconds, its connection closed; P@MS:silent falls
    /// silent instead. Machines of P processors or fewer keep all theirs.
    #[arg(long, value_name = "P@MS[:silent]", value_delimiter = ',', value_parser = departure, conflicts_with_all = ["bench", "signature"])]
    pub depart: Vec<Departure>,
    /// Cores of each member but processor 0 on the classroom presets (1, 2 or 4): a member
    /// searching each job on K threads (`join --threads K`) searches Lazy SMP's measured
    /// speedup on K threads faster (crate/machine/sim/member_cores.rs).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64), conflicts_with_all = ["bench", "signature"])]
    pub cores_per_member: u16,
    /// On the classroom presets: split as the papers do (any node deep enough), not in
    /// jobs sized to the round trip, as `speedup --relay --papers-split` does on a class.
    #[arg(long, conflicts_with_all = ["bench", "signature"])]
    pub papers_split: bool,
    /// Print the rows and fits as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Measure the simulator's own speed (simulated nodes per second against the serial engine's) instead.
    #[arg(long, conflicts_with_all = ["suite", "trace", "json", "signature"])]
    pub bench: bool,
    /// Print the trace hash of a fixed run (equal natively and in the browser) and stop.
    #[arg(long, exclusive = true)]
    pub signature: bool,
}

/// The seeds of `--seed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeds(pub Vec<u64>);

/// The most seeds one run takes.
const MOST_SEEDS: usize = 1000;

/// Reads `--seed`: one seed (`7`), a range (`1-8`) or a list (`1,3,5`, ranges allowed).
pub fn seeds(text: &str) -> Result<Seeds, String> {
    let bad = || format!("give a seed, a range like 1-8 or a list like 1,3,5 (not '{text}')");
    let mut seeds = Vec::new();
    for part in text.split(',') {
        let number = |t: &str| t.trim().parse::<u64>().map_err(|_| bad());
        let (from, to) = match part.split_once('-') {
            Some((from, to)) => (number(from)?, number(to)?),
            None => (number(part)?, number(part)?),
        };
        if from > to || seeds.len() as u64 + (to - from) >= MOST_SEEDS as u64 {
            return Err(format!("ranges go upwards, and at most {MOST_SEEDS} seeds (not '{text}')"));
        }
        seeds.extend(from..=to);
    }
    Ok(Seeds(seeds))
}

/// Reads one `--depart`: `3@20` (processor 3 closes at 20 virtual ms) or `3@20:silent`.
pub fn departure(text: &str) -> Result<Departure, String> {
    let bad = || format!("give a departure as P@MS or P@MS:silent, like 3@20 (not '{text}')");
    let (processor, rest) = text.trim().split_once('@').ok_or_else(bad)?;
    let (ms, how) = match rest.split_once(':') {
        Some((ms, "silent")) => (ms, Leaving::Silent),
        Some((ms, "closed")) => (ms, Leaving::Closed),
        Some(_) => return Err(bad()),
        None => (rest, Leaving::Closed),
    };
    let processor: usize = processor.parse().map_err(|_| bad())?;
    let ms: f64 = ms.parse().map_err(|_| bad())?;
    if processor == 0 {
        return Err("processor 0 never leaves: a class without its lecturer is over".into());
    }
    if !(0.0..=3.6e6).contains(&ms) {
        return Err(format!("a departure's time is from 0 to 3600000 ms (not '{text}')"));
    }
    Ok(Departure { processor, at_ns: (ms * 1e6).round() as u64, how })
}

fn preset() -> Named<Preset> {
    Named { values: || PRESETS.iter().map(|p| PossibleValue::new(p.name).help(p.title)).collect(), parse: |name| Preset::by_name(name).map_err(|e| e.to_string()) }
}

fn paper() -> Named<Paper> {
    Named { values: || Paper::ALL.iter().map(|p| PossibleValue::new(p.name()).help(p.suite_file())).collect(), parse: Paper::by_name }
}

fn network() -> Named<Kind> {
    Named { values: || Kind::ALL.iter().map(|k| PossibleValue::new(k.name()).help(k.summary())).collect(), parse: |name| name.parse::<Kind>().map_err(|e| e.to_string()) }
}

/// The evaluations `bench --eval` takes (only the `meshmate` binary has it).
fn evaluation() -> Named<Evaluation> {
    Named {
        values: || Evaluation::ALL.iter().map(|e| PossibleValue::new(e.name())).collect(),
        parse: |name| {
            Evaluation::from_name(name.trim()).ok_or_else(|| {
                let names: Vec<&str> = Evaluation::ALL.iter().map(|e| e.name()).collect();
                format!("unknown evaluation '{name}': expected one of {}", names.join(", "))
            })
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use proptest::strategy::Strategy;

    #[test]
    fn the_grammar_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Words of the command line, for the property below.
    const WORDS: [&str; 28] = [
        "sim", "reproduce", "zugzwang", "--quick", "speedup", "perft", "suite", "bench", "--algo", "--procs", "--preset", "--suite", "--depth", "--net", "--tt", "--seed", "--hash",
        "--pure", "--trace", "--json", "--bench", "--signature", "--threads", "--rounds", "--csv", "--max-depth", "--help", "--depart",
    ];

    proptest::proptest! {
        /// Any command line gives the commands' arguments or a usage error, never a panic.
        #[test]
        fn any_command_line_parses_or_is_refused(words in proptest::collection::vec(proptest::prop_oneof![
            proptest::sample::select(&WORDS[..]).prop_map(String::from),
            "[0-9,-]{1,8}",
            "t800|ybwc,abdada|lazysmp|distributed|debruijn|1-8",
            proptest::arbitrary::any::<String>(),
        ], 0..10)) {
            let _ = Cli::try_parse_from(std::iter::once("meshmate".to_string()).chain(words));
        }

        /// Any text given to --seed is a list of seeds or a message.
        #[test]
        fn any_seed_text_is_seeds_or_a_message(text in "[0-9 ,-]{0,12}|\\PC{0,12}") {
            if let Ok(Seeds(list)) = seeds(&text) {
                proptest::prop_assert!(!list.is_empty() && list.len() <= MOST_SEEDS);
            }
        }
    }

    #[test]
    fn a_departure_is_a_processor_a_time_and_how() {
        assert_eq!(departure("3@20"), Ok(Departure { processor: 3, at_ns: 20_000_000, how: Leaving::Closed }));
        assert_eq!(departure("2@0.5:silent"), Ok(Departure { processor: 2, at_ns: 500_000, how: Leaving::Silent }));
        assert!(departure("0@5").unwrap_err().contains("never leaves"));
        for bad in ["3", "3@", "@5", "3@x", "3@5:asleep", "3@-1", "3@NaN"] {
            assert!(departure(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seeds_are_one_a_range_or_a_list() {
        assert_eq!(seeds("7"), Ok(Seeds(vec![7])));
        assert_eq!(seeds("1-3,9"), Ok(Seeds(vec![1, 2, 3, 9])));
        assert!(seeds("3-1").unwrap_err().contains("ranges go upwards"));
        assert!(seeds("0-5000").is_err());
        assert!(seeds("x").unwrap_err().contains("give a seed"));
    }
}
