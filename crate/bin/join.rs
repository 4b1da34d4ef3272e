//! `meshmate join URL CODE`: this process becomes a processor of a class session (see
//! `meshmate::relay`) — the same helper program a tab or an MPI rank runs, over the
//! relay link — until the lecturer ends the session or the relay closes it.

use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::cluster::{Order, Rank};
use meshmate::machine::Remote;
use meshmate::parallel::{help, Helper};

/// Takes part in the searches of session `code` at the relay `url`.
pub fn join(url: &str, code: &str) -> Result<(), String> {
    let link = RelayLink::join(url, code)?;
    eprintln!("joined class {code} as member {}", link.member());
    let mut rank = Rank::new(link).ok_or("the relay made this process processor 0")?;
    let mut helper = Helper::new(meshmate::uci::Options::default().hash_mib)?;
    while let Order::Search(task) = rank.next_order() {
        // A task this processor cannot take: it leaves, and the relay tells the others,
        // who search again what they gave it.
        help(&mut rank, &mut helper, &task).map_err(|e| format!("processor {} cannot take part in the search: {e}", rank.id()))?;
        rank.end_search();
    }
    eprintln!("the class has ended: {}", rank.link().closed().unwrap_or("the lecturer left"));
    Ok(())
}
