//! The relay's front door: which pages may open its socket (their `Origin`), who may
//! create a session (the lecturer, with its token), and how many connections it holds at
//! once, joined or not yet. Checked before anything reaches a session, so that a page a
//! student happens to visit, or a stranger with a script, cannot fill the relay or lock
//! the lecturer out.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// The hosts whose pages may always open the socket: this machine's, on any port (a
/// lecturer trying things, the tests, `./build.sh serve` on its default address).
const LOCAL_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Whether a browser page at `origin` may open the class socket of a relay it reached as
/// `host` (the request's `Host`). Allowed: no `Origin` at all (a native client such as
/// `meshmate join`; only browsers send one, and they cannot forge it), the page's own
/// origin (the relay, or `www/serve.mjs` passing it on, serves the page), this machine on
/// any port, and the origins in `allowed` (`--allow-origin`).
pub fn origin_allowed(origin: Option<&str>, host: Option<&str>, allowed: &[String]) -> bool {
    let Some(origin) = origin else { return true };
    let origin = origin.trim_end_matches('/');
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some((_, authority)) = origin.split_once("://") else { return false };
    if host.is_some_and(|host| host.eq_ignore_ascii_case(authority)) {
        return true;
    }
    let name = match authority.rsplit_once(':') {
        // A port after the name (an IPv6 address keeps its colons inside brackets).
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(':') => name,
        _ => authority,
    };
    LOCAL_HOSTS.iter().any(|local| local.eq_ignore_ascii_case(name))
}

/// Whether `given` is the lecturer's `token`, compared in a time that does not depend on
/// where they first differ.
pub fn token_matches(token: &str, given: &str) -> bool {
    token.len() == given.len() && token.bytes().zip(given.bytes()).fold(0u8, |diff, (a, b)| diff | (a ^ b)) == 0
}

/// A fresh lecturer token: 128 bits from the operating system as 32 hex digits.
pub fn new_token() -> Result<String, String> {
    let mut bits = [0u8; 16];
    getrandom::fill(&mut bits).map_err(|e| format!("no random bits: {e}"))?;
    Ok(bits.iter().map(|b| format!("{b:02x}")).collect())
}

/// The connections the relay holds, and those of them that have not joined a session yet,
/// oldest first.
#[derive(Debug)]
pub struct Doors {
    max_connections: usize,
    max_unjoined: usize,
    connections: AtomicUsize,
    unjoined: Mutex<VecDeque<Unjoined>>,
    next_id: AtomicU64,
}

/// A connection let in that has not created or joined a session.
#[derive(Debug)]
struct Unjoined {
    id: u64,
    evict: Arc<Notify>,
}

/// One connection let in: counted until it is dropped, and as not joined until
/// [`Ticket::joined`]; until then a newer connection may evict it ([`Ticket::evicted`]).
#[derive(Debug)]
pub struct Ticket {
    doors: Arc<Doors>,
    id: u64,
    evict: Arc<Notify>,
    joined: bool,
}

impl Doors {
    /// Room for `max_connections` connections at once, `max_unjoined` of them not joined.
    pub fn new(max_connections: usize, max_unjoined: usize) -> Arc<Doors> {
        Arc::new(Doors {
            max_connections,
            max_unjoined,
            connections: AtomicUsize::new(0),
            unjoined: Mutex::new(VecDeque::new()),
            next_id: AtomicU64::new(0),
        })
    }

    /// Lets one more connection in, or says that the relay holds its most connections.
    /// Past `max_unjoined` the oldest connection not yet joined is evicted instead of the
    /// new one refused: an honest client creates or joins as soon as its socket opens, so
    /// strangers that open connections and say nothing only push each other out, and
    /// cannot keep a class's students from joining.
    pub fn enter(self: &Arc<Doors>) -> Result<Ticket, String> {
        if self.connections.fetch_add(1, Relaxed) >= self.max_connections {
            self.connections.fetch_sub(1, Relaxed);
            return Err(format!("the relay holds its most connections ({})", self.max_connections));
        }
        let id = self.next_id.fetch_add(1, Relaxed);
        let evict = Arc::new(Notify::new());
        let mut unjoined = self.unjoined.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        while unjoined.len() >= self.max_unjoined.max(1) {
            let Some(oldest) = unjoined.pop_front() else { break };
            // A permit is kept if the connection is not waiting yet: it sees it at once.
            oldest.evict.notify_one();
        }
        unjoined.push_back(Unjoined { id, evict: evict.clone() });
        Ok(Ticket { doors: self.clone(), id, evict, joined: false })
    }

    /// How many connections are held, and how many of them have not joined.
    #[cfg(test)]
    fn counts(&self) -> (usize, usize) {
        let unjoined = self.unjoined.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len();
        (self.connections.load(Relaxed), unjoined)
    }
}

impl Ticket {
    /// Its connection created or joined a session: no newer connection can evict it.
    pub fn joined(&mut self) {
        if !std::mem::replace(&mut self.joined, true) {
            let mut unjoined = self.doors.unjoined.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            unjoined.retain(|waiting| waiting.id != self.id);
        }
    }

    /// Resolves when a newer connection has taken this one's place among those not joined.
    pub async fn evicted(&self) {
        self.evict.notified().await
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.joined();
        self.doors.connections.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_of_this_machine_their_own_origin_and_the_allowed_ones_may_open_the_socket() {
        let allowed = ["https://class.example.org".to_string()];
        let ok = |origin, host| origin_allowed(origin, host, &allowed);
        assert!(ok(None, Some("relay:8091")), "no Origin: not a browser");
        for local in ["http://localhost:5173", "http://127.0.0.1:8080", "https://LOCALHOST", "http://[::1]:9000"] {
            assert!(ok(Some(local), Some("10.0.0.2:8091")), "{local}");
        }
        assert!(ok(Some("http://10.0.0.2:8080"), Some("10.0.0.2:8080")), "the page's own origin");
        assert!(ok(Some("https://class.example.org/"), Some("relay.example.org")), "--allow-origin");
        for foreign in [
            "https://evil.example",
            "http://10.0.0.3:8080",
            "null",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example:80",
            "localhost",
        ] {
            assert!(!ok(Some(foreign), Some("10.0.0.2:8080")), "{foreign}");
        }
    }

    #[test]
    fn only_the_token_itself_matches() {
        assert!(token_matches("3f2a", "3f2a"));
        for wrong in ["", "3f2", "3f2b", "3f2a0"] {
            assert!(!token_matches("3f2a", wrong), "{wrong:?}");
        }
        let token = new_token().unwrap();
        assert!(token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()) && token != new_token().unwrap());
    }

    #[test]
    fn the_doors_count_connections_and_evict_the_oldest_not_yet_joined() {
        let doors = Doors::new(3, 2);
        let mut first = doors.enter().unwrap();
        let second = doors.enter().unwrap();
        let third = doors.enter().unwrap();
        assert_eq!(doors.counts(), (3, 2), "the first was evicted for the third");
        assert!(doors.enter().unwrap_err().contains("most connections (3)"));
        let evicted = |ticket: &Ticket| {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
            runtime.block_on(async { tokio::time::timeout(std::time::Duration::from_millis(50), ticket.evicted()).await.is_ok() })
        };
        assert!(evicted(&first), "the oldest not joined is told");
        assert!(!evicted(&second) && !evicted(&third), "the others stay");
        first.joined();
        assert_eq!(doors.counts(), (3, 2));
        drop(first);
        let mut fourth = doors.enter().unwrap();
        fourth.joined();
        assert!(evicted(&second), "the second was oldest when the fourth came");
        assert_eq!(doors.counts(), (3, 1));
        drop((second, third, fourth));
        assert_eq!(doors.counts(), (0, 0));
    }
}
