//! `meshmate join URL CODE`: this process becomes a processor of a class session (see
//! `meshmate::relay`) — the same helper program a tab or an MPI rank runs, over the
//! relay link — until the lecturer ends the session or the relay closes it. With
//! `--slices MS` it runs as a tab without shared memory does, on one thread; with
//! `--threads N` it searches each job on N threads, and after each search says on stderr
//! how many nodes each thread searched.

use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::cluster::{Order, Rank};
use meshmate::machine::Remote;
use meshmate::parallel::{help, help_in_slices, Helper};
use std::future::Future;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// How long a processor in slices that waits for a frame sleeps before it looks again.
const WAITING_NAP: Duration = Duration::from_micros(50);

/// Takes part in the searches of session `code` at the relay `url`, in slices of
/// `slices` ms if given, else on `threads` threads.
pub fn join(url: &str, code: &str, slices: Option<u32>, threads: usize) -> Result<(), String> {
    let mut helper = Helper::new(meshmate::uci::Options::default().hash_mib)?.with_threads(threads)?;
    let link = RelayLink::join(url, code)?;
    eprintln!("joined class {code} as member {}", link.member());
    let mut rank = Rank::new(link).ok_or("the relay made this process processor 0")?;
    // A task this processor cannot take: it leaves, and the relay tells the others, who
    // search again what they gave it.
    let cannot = |id: usize| move |e: String| format!("processor {id} cannot take part in the search: {e}");
    if let Some(ms) = slices {
        let pause = |waiting: bool| {
            if waiting {
                std::thread::sleep(WAITING_NAP);
            }
            std::future::ready(())
        };
        let id = rank.id();
        run_to_end(help_in_slices(&mut rank, &mut helper, f64::from(ms), pause, |_, _| {})).map_err(cannot(id))?;
    } else {
        while let Order::Search(task) = rank.next_order() {
            help(&mut rank, &mut helper, &task).map_err(cannot(rank.id()))?;
            if threads > 1 {
                let total = rank.counters().snapshot()[rank.id()].nodes;
                let by_thread: Vec<String> = helper.nodes_by_thread(total).iter().map(u64::to_string).collect();
                eprintln!("processor {}: nodes by thread {}", rank.id(), by_thread.join(" "));
            }
            rank.end_search();
        }
    }
    eprintln!("the class has ended: {}", rank.link().closed().unwrap_or("the lecturer left"));
    Ok(())
}

/// Runs `future` to its end on this thread: its pauses sleep instead of waiting on
/// anything outside, so each poll goes on until it is ready.
fn run_to_end<T>(future: impl Future<Output = T>) -> T {
    let mut future = std::pin::pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut context) {
            return value;
        }
    }
}
