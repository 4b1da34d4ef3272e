//! `mpirun -np N meshmate-cluster`: the UCI engine over MPI ranks. Rank 0 speaks UCI on
//! standard input and output as `meshmate` does and searches as processor 0; every other
//! rank is a processor that waits for rank 0's searches and takes part in them (see
//! `meshmate::machine::cluster`). `quit` (or the end of input) ends every rank.
//!
//! `mpirun -np N meshmate-cluster speedup …` measures time-to-depth speedup on the ranks
//! with the options and output of `meshmate speedup`.

mod files;
mod host;
mod output;
mod progress;
mod report;
mod speedup;
mod values;

use clap::{Parser, Subcommand};
use host::{speak_uci, StdHost};
use meshmate::machine::cluster::mpi::MpiLink;
use meshmate::machine::cluster::{Order, Rank};
use meshmate::machine::Cluster;
use meshmate::parallel::{help, Helper};
use meshmate::uci::{Engine, Site};
use speedup::{processor_counts, run_speedup, SpeedupArgs};
use meshmate::search::Control;
use std::sync::{Arc, Mutex};

/// meshmate-cluster: meshmate on the ranks of an MPI job (`mpirun -np N meshmate-cluster`).
/// Without a command rank 0 speaks UCI on standard input and output, for chess GUIs.
#[derive(Parser, Debug)]
#[command(name = "meshmate-cluster", version, about, long_about = None)]
struct Cli {
    /// What to do (UCI when left out).
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Speak UCI on rank 0's standard input and output (the default).
    Uci,
    /// Time-to-depth speedup of parallel algorithms on the ranks against the serial search.
    Speedup(SpeedupArgs),
}

fn main() {
    // Searches run on a thread of their own while the main thread reads input: MPI must
    // allow calls from any thread (one at a time).
    let Some((universe, threading)) = mpi::initialize_with_threading(mpi::Threading::Multiple) else {
        eprintln!("meshmate-cluster: MPI could not be initialised (run it under mpirun)");
        std::process::exit(2);
    };
    if threading < mpi::Threading::Serialized {
        eprintln!("meshmate-cluster: this MPI library gives {threading:?} thread support; the engine needs at least Serialized");
        std::process::exit(2);
    }
    let ranks = mpi::topology::Communicator::size(&universe.world()) as usize;
    if ranks > meshmate::uci::MAX_THREADS {
        eprintln!("meshmate-cluster: {ranks} ranks; the engine counts at most {} processors", meshmate::uci::MAX_THREADS);
        drop(universe);
        std::process::exit(2);
    }
    // Every rank reads the same command line; rank 0 alone says what is wrong with it.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if Cluster::new(MpiLink::new()).is_some() {
                let _ = e.print();
            }
            drop(universe);
            std::process::exit(e.exit_code());
        }
    };
    let mut code = 0;
    if let Some(cluster) = Cluster::new(MpiLink::new()) {
        code = match cli.command {
            None | Some(Command::Uci) => {
                rank_zero_speaks_uci(cluster);
                0
            }
            Some(Command::Speedup(args)) => rank_zero_measures(cluster, args),
        };
    } else if let Some(rank) = Rank::new(MpiLink::new()) {
        serve(rank);
    }
    // MPI_Finalize, once every rank is here.
    drop(universe);
    std::process::exit(code);
}

/// Rank 0: the UCI session; at its end the other ranks are told to quit.
fn rank_zero_speaks_uci(cluster: Cluster<MpiLink>) {
    let cluster = Arc::new(Mutex::new(cluster));
    speak_uci(Engine::at(Arc::new(StdHost::new()), Site::Cluster(cluster.clone())));
    cluster.lock().unwrap_or_else(|e| e.into_inner()).quit();
}

/// Rank 0: `speedup` on the ranks; at its end the other ranks are told to quit. Returns
/// the exit code.
fn rank_zero_measures(cluster: Cluster<MpiLink>, args: SpeedupArgs) -> i32 {
    let cluster = Arc::new(Mutex::new(cluster));
    let measured = speedup_on_ranks(&Site::Cluster(cluster.clone()), args);
    let mut cluster = cluster.lock().unwrap_or_else(|e| e.into_inner());
    cluster.quit();
    match measured {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// `speedup` with every rank as a processor, a table per rank or the distributed table,
/// refusing what the cluster `site` cannot run.
fn speedup_on_ranks(site: &Site, args: SpeedupArgs) -> Result<(), String> {
    let Site::Cluster(cluster) = site else { unreachable!("rank 0's site is the cluster") };
    if args.relay.is_some() {
        return Err("--relay: a class is measured by `meshmate speedup --relay`, not on MPI ranks".into());
    }
    let placement = args.tt.unwrap_or(site.default_table());
    if !site.offers_table(placement) {
        return Err(format!("--tt {placement}: ranks share no memory; choose local (a table per rank, TDSAB's own placement for tdsab) or distributed"));
    }
    if let Some(why) = args.algorithms.iter().find_map(|&a| site.refuses(a)) {
        return Err(why);
    }
    if placement != site.default_table() {
        args.algorithms.iter().try_for_each(|a| a.accepts(placement))?;
    }
    let ranks = site.fixed_processors().unwrap_or(1);
    let threads = processor_counts(&args, ranks);
    if let Some(p) = threads.iter().find(|&&p| p != 1 && p != ranks) {
        return Err(format!("--threads {p}: a parallel search on the cluster uses all {ranks} ranks (mpirun -np sets them); ask for 1 or {ranks}"));
    }
    let tt = site.table(placement, args.hash).map_err(|e| e.to_string())?;
    run_speedup(&mut *cluster.lock().unwrap_or_else(|e| e.into_inner()), &tt, args, threads, &Control::default())
}

/// A rank other than 0: takes part in rank 0's searches until it says quit.
fn serve(mut rank: Rank<MpiLink>) {
    let mut helper = match Helper::new(meshmate::uci::Options::default().hash_mib) {
        Ok(helper) => helper,
        Err(e) => rank.link().abort(&format!("rank {}: {e}", meshmate::machine::Remote::id(&rank))),
    };
    while let Order::Search(task) = rank.next_order() {
        if let Err(e) = help(&mut rank, &mut helper, &task) {
            let id = meshmate::machine::Remote::id(&rank);
            rank.link().abort(&format!("rank {id} cannot take part in the search: {e}"));
        }
        rank.end_search();
    }
}
