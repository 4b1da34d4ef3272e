//! `mpirun -np N meshmate-cluster`: the UCI engine over MPI ranks. Rank 0 speaks UCI on
//! standard input and output as `meshmate` does and searches as processor 0; every other
//! rank is a processor that waits for rank 0's searches and takes part in them (see
//! `meshmate::machine::cluster`). `quit` (or the end of input) ends every rank.

use meshmate::machine::cluster::{Order, Rank};
use meshmate::machine::Cluster;
use meshmate::parallel::{help, Helper};
use meshmate::uci::{Engine, Host, Site};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// Prints to stdout and runs searches on std threads.
struct StdHost;

impl Host for StdHost {
    fn emit(&self, line: &str) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        std::thread::spawn(job);
    }
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
    if let Some(cluster) = Cluster::new() {
        speak_uci(cluster);
    } else if let Some(rank) = Rank::new() {
        serve(rank);
    }
    // MPI_Finalize, once every rank is here.
    drop(universe);
}

/// Rank 0: the UCI session; at its end the other ranks are told to quit.
fn speak_uci(cluster: Cluster) {
    let cluster = Arc::new(Mutex::new(cluster));
    let mut engine = Engine::at(Arc::new(StdHost), Site::Cluster(cluster.clone()));
    let mut quit = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !engine.handle_line(&line) {
            quit = true;
            break;
        }
    }
    if !quit {
        engine.end_of_input();
    }
    while !engine.idle() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    cluster.lock().unwrap_or_else(|e| e.into_inner()).quit();
}

/// A rank other than 0: takes part in rank 0's searches until it says quit.
fn serve(mut rank: Rank) {
    let mut helper = match Helper::new(meshmate::uci::Options::default().hash_mib) {
        Ok(helper) => helper,
        Err(e) => rank.abort(&format!("rank {}: {e}", meshmate::machine::Remote::id(&rank))),
    };
    while let Order::Search(task) = rank.next_order() {
        if let Err(e) = help(&mut rank, &mut helper, &task) {
            let id = meshmate::machine::Remote::id(&rank);
            rank.abort(&format!("rank {id} cannot take part in the search: {e}"));
        }
        rank.end_search();
    }
}
