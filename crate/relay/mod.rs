//! `meshmate relay`: the WebSocket server that makes the tabs of an online class one
//! parallel computer. Each student's tab is a processor of a search that the lecturer's tab
//! (processor 0) drives; the relay forwards the processors' frames (`crate::machine::frame`)
//! between them, reading only their headers. It stamps each frame with its sender, keeps
//! every (sender, receiver) pair's frames in order, declares silent or misbehaving tabs
//! lost, and records a trace of it all.
//!
//! # Protocol
//!
//! One WebSocket per tab at `ws://HOST:PORT/class`. The upgrade is refused with 403 for a
//! browser page of a foreign `Origin` (allowed: none sent, the page's own, this machine's
//! on any port, `--allow-origin`; `door.rs`), and with 503 past `--max-connections` at once
//! or `--max-unjoined` that have not created or joined yet. Control messages are JSON text with a
//! `"type"`; data frames are binary. Members are numbered 0 (the owner), 1, 2, ... in join
//! order and never reused within a session; processors are numbered per search.
//!
//! Client to relay, text:
//! - `{"type":"create","token":T}` → `{"type":"created","code":C,"member":0}`: a new
//!   session, which the creator owns, if T is the lecturer's token (`--lecturer-token-file`,
//!   or the one the relay prints at start); else an error and close. C is 128 bits from the
//!   operating system, as 32 hex digits; `created` also carries `"resume":R` (as many bits).
//! - `{"type":"resume","code":C,"token":R}` → `{"type":"resumed","code":C,"member":0}`: the
//!   owner comes back after its connection dropped (failed or silent, not closed by it),
//!   within `--owner-grace-ms` (30 s), with the `"resume":R` its `created` carried. Until
//!   then the session waits: the running search is over (every participant gets `lost`
//!   for processor 0, then `ended`), every member gets `{"type":"away","within_ms":G}`,
//!   and members may still join; when the owner resumes, every member gets
//!   `{"type":"back"}`. Past the grace period (or at once with 0, or when the
//!   owner closes its connection itself) the session closes as below.
//! - `{"type":"join","code":C}` → `{"type":"joined","member":m}`, and `{"type":"waiting"}`
//!   if a search is running (the member takes part in the next one). An unknown code or a
//!   full session (`--max-members` members, the owner included) → `{"type":"error",...}`
//!   and close. The first message must be one of these two (or a beat), within
//!   `--lost-after-ms`.
//! - `{"type":"start"}`, optionally with `"network":N` (a `crate::net` name: `debruijn`,
//!   `hypercube`, `fattree` or `fat-tree`, `bus`, `ring`, `full`); owner only. The roster is
//!   frozen: processor 0 is the owner, processors 1..n-1 the other live members in member
//!   order. Each gets `{"type":"search","search":S,"processor":i,"processors":n,
//!   "members":[member of processor 0, of 1, ...]}` (with `"network":N` if one was named).
//!   S counts 1, 2, ... per session. While a search runs, or if the network cannot have n
//!   processors, the owner gets an error and stays.
//! - `{"type":"end"}` (owner only): every live participant gets `{"type":"ended",
//!   "search":S}`; the waiting members are on the next roster. With no search running the
//!   owner gets an error and stays.
//! - `{"type":"expel","processor":P,"reason":R}` (owner only): processor P of the running
//!   search broke its end (its DONE unreadable, or none in time): it is cut off (1008,
//!   "expelled by the owner: R") and lost. A processor 0, lost or not in the search: the
//!   owner gets an error and stays.
//! - `{"type":"beat"}`: a heartbeat. Any message (a ping too) is a sign of life.
//! - `start`, `end` or `expel` from another member, a second `create` or `join`, invalid JSON, an
//!   unknown type, or a text over 4096 bytes: `{"type":"error","message":...}`, then the
//!   connection is cut off (close code 1008 with the reason).
//!
//! Client to relay, binary: `[to: u16 LE][frame]`; relay to client: `[from: u16 LE][frame]`,
//! `from` written by the relay (a client never names itself). Checked in this order:
//! 1. the sender is no participant of the running search (a frame after `ended`, from a
//!    waiting member): dropped silently, as honest lateness;
//! 2. shorter than 2 + `FRAME_HEADER`, longer than `--max-frame` bytes in all, an unknown
//!    kind, a `FrameKind::owner_only` kind from another processor than 0, `to` ≥ processors
//!    or `to` = the sender's processor: the sender is cut off (1008, the reason says which),
//!    and is lost;
//! 3. the frame's search number is not the running search's: dropped (late);
//! 4. `to` is lost: dropped.
//!
//! Otherwise the frame is forwarded to processor `to`, first in first out per (sender,
//! receiver) pair, after `--delay-ms` times the route's hops (1 hop without a network).
//!
//! Relay to client, text, besides the replies above:
//! - to the owner, `{"type":"members","members":[live member numbers]}` whenever a member
//!   joins or leaves;
//! - `{"type":"lost","search":n,"processor":i}` to every other live participant when
//!   participant i of search n closes, is cut off, cannot keep up (more than its queue
//!   holds wait for it, below) or is silent for `--lost-after-ms` (checked every 100 ms). It
//!   comes after every frame of i the relay already forwarded. The relay alone decides who
//!   is lost; a lost member's connection is closed. A member may leave after the search
//!   ended but before the owner's `end` reached the relay: its notice then names a search
//!   that is over, and a client that already runs the next one (where processor i is
//!   somebody else) drops it;
//! - `{"type":"closed","reason":...}` to everyone when the owner leaves (closes its
//!   connection, or does not resume in time): then their connections close (code 1000)
//!   and the session is gone;
//! - to the owner, about every 100 ms while there are new ones, `{"type":"trace",
//!   "events":[...],"dropped":D}` (D: events left out of the stream so far: past 20,000
//!   a batch, and whole batches while half the owner's queue is taken; the stream is the
//!   owner's to watch, never a reason to cut it off).
//!
//! Trace events: `{"t":µs since the session was created,"ev":"join"|"leave"|"lost"|"start"|
//! "end"|"send"|"deliver"|"refused",...}` with `member`, `search`, `processor` (the lost
//! one), `processors` (at start), `from`, `to`, `kind` (`FrameKind::name`), `bytes` (on the
//! wire, address included), `hops` (with a network), `reason` where they apply. `send` is
//! when the relay accepts a frame, `deliver` when it hands it to the receiver's socket.
//! Written as JSON lines to `DIR/C.jsonl` with `--trace-dir DIR`, and the latest 200,000
//! served to the lecturer by `GET /class/C/trace?token=T` (JSON lines; the header
//! `x-trace-dropped` counts older ones; without the token, 403). `GET /health` answers `ok`.
//!
//! Limits per connection: `--max-rate` messages a second and 8 MiB a second (the owner:
//! `--owner-max-rate` and 64 MiB a second), each with a burst of twice that; past either,
//! the connection is cut off. At most 8192 messages or 16 MiB wait for a member, 32,768 or
//! 64 MiB for the owner, and `--max-queued-mib` in all queues together. At most
//! `--max-sessions` sessions at once.

mod connection;
mod door;
mod limits;
mod outbox;
mod protocol;
mod session;
mod trace;

use door::Doors;
use outbox::{Outbox, Total};
use session::Session;
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How the relay is run (`meshmate relay`'s options).
#[derive(Clone, Debug)]
pub struct Config {
    /// Where it listens; port 0 picks a free one (printed at start).
    pub listen: SocketAddr,
    /// The injected delay of every forwarded frame, per hop.
    pub delay: Duration,
    /// How long a member may be silent before it is lost.
    pub lost_after: Duration,
    /// The longest binary message, address included.
    pub max_frame: usize,
    /// Messages a second one connection may send.
    pub max_rate: u32,
    /// Bytes a second one connection may send.
    pub max_bytes_rate: u32,
    /// Messages a second the owner may send (processor 0 talks to every member).
    pub owner_max_rate: u32,
    /// Bytes a second the owner may send.
    pub owner_max_bytes_rate: u32,
    /// Where each session's trace is written as `CODE.jsonl`.
    pub trace_dir: Option<PathBuf>,
    /// The most sessions at once.
    pub max_sessions: usize,
    /// The most members of one session, the owner included.
    pub max_members: usize,
    /// The token that creating a session takes; `None`: one is made and printed at start.
    pub lecturer_token: Option<String>,
    /// Origins besides this machine's and the page's own whose pages may open the socket.
    pub allowed_origins: Vec<String>,
    /// The most connections at once, joined or not.
    pub max_connections: usize,
    /// The most connections at once that have not created or joined a session yet.
    pub max_unjoined: usize,
    /// The most bytes waiting in all connections' queues together.
    pub max_queued_bytes: usize,
    /// How long a session waits for its owner to resume after the owner's connection
    /// dropped (zero: it closes at once).
    pub owner_grace: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8091)),
            delay: Duration::ZERO,
            lost_after: Duration::from_secs(10),
            max_frame: 65536,
            max_rate: 5000,
            max_bytes_rate: 8 << 20,
            owner_max_rate: 50_000,
            owner_max_bytes_rate: 64 << 20,
            trace_dir: None,
            max_sessions: 64,
            max_members: 256,
            lecturer_token: None,
            allowed_origins: Vec::new(),
            max_connections: 1024,
            max_unjoined: 64,
            max_queued_bytes: 1 << 30,
            owner_grace: Duration::from_secs(30),
        }
    }
}

/// The running relay: its configuration, sessions by code, the lecturer's token, its
/// connections and the bytes queued for them.
struct Relay {
    config: Arc<Config>,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    token: String,
    doors: Arc<Doors>,
    total: Arc<Total>,
}

/// How often sessions look for silent members and send the owner its trace.
const TICK: Duration = Duration::from_millis(100);

impl Relay {
    /// A new session owned by the connection of `outbox`, if `token` is the lecturer's.
    fn create(self: &Arc<Relay>, outbox: Outbox, token: &str) -> Result<Arc<Session>, String> {
        if !door::token_matches(&self.token, token) {
            return Err("creating a class takes the lecturer's token (the relay's --lecturer-token-file, or the one it printed at start)".into());
        }
        let code = door::new_token().map_err(|e| format!("no session code: {e}"))?;
        let resume = door::new_token()?;
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if sessions.len() >= self.config.max_sessions {
            return Err(format!("the relay is full ({} sessions)", self.config.max_sessions));
        }
        let session = Session::create(code.clone(), resume, self.config.clone(), outbox);
        sessions.insert(code, session.clone());
        drop(sessions);
        let (relay, ticking) = (self.clone(), session.clone());
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tick.tick().await;
                if !ticking.tick() {
                    break relay.settle(&ticking);
                }
            }
        });
        Ok(session)
    }

    /// Joins the session `code` with `outbox`: the session and the new member's number.
    fn join(&self, code: &str, outbox: Outbox) -> Result<(Arc<Session>, u32), String> {
        let session = self.session(code).ok_or("no session has this code")?;
        let member = session.join(outbox)?;
        Ok((session, member))
    }

    /// The owner of session `code` comes back with `outbox` and its resume `token`.
    fn resume(&self, code: &str, token: &str, outbox: Outbox) -> Result<Arc<Session>, String> {
        let session = self.session(code).ok_or("no session has this code")?;
        session.resume(token, outbox)?;
        Ok(session)
    }

    fn session(&self, code: &str) -> Option<Arc<Session>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).get(code).cloned()
    }

    /// Forgets `session` if its owner has left.
    fn settle(&self, session: &Arc<Session>) {
        if session.is_closed() {
            let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
            if sessions.get(&session.code).is_some_and(|s| Arc::ptr_eq(s, session)) {
                sessions.remove(&session.code);
            }
        }
    }
}

/// Runs the relay until the process ends: binds, prints `relay listening on
/// ws://HOST:PORT/class` on standard output, and serves. An error if it cannot start.
pub fn serve(config: Config) -> Result<(), String> {
    if let Some(dir) = &config.trace_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--trace-dir {}: {e}", dir.display()))?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("no async runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let mut out = std::io::stdout();
        writeln!(out, "relay listening on ws://{address}/class").map_err(|e| e.to_string())?;
        let token = match &config.lecturer_token {
            Some(token) => token.clone(),
            None => {
                let token = door::new_token()?;
                writeln!(out, "lecturer token {token}").map_err(|e| e.to_string())?;
                token
            }
        };
        out.flush().map_err(|e| e.to_string())?;
        let doors = Doors::new(config.max_connections, config.max_unjoined);
        let total = Total::new(config.max_queued_bytes);
        let relay = Arc::new(Relay { config: Arc::new(config), sessions: Mutex::default(), token, doors, total });
        // Frames are small and their latency is what a class measures: no Nagle delay.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, routes(relay)).await.map_err(|e| format!("the relay stopped: {e}"))
    })
}

/// The `token` of a query string (`token=T&...`), empty if none.
fn query_token(query: Option<&str>) -> &str {
    query.unwrap_or_default().split('&').find_map(|pair| pair.strip_prefix("token=")).unwrap_or_default()
}

fn routes(relay: Arc<Relay>) -> axum::Router {
    use axum::extract::{ws::WebSocketUpgrade, Path, RawQuery, State};
    use axum::http::{header, StatusCode};
    use axum::response::IntoResponse;
    use axum::routing::get;

    let class = |State(relay): State<Arc<Relay>>, headers: header::HeaderMap, upgrade: WebSocketUpgrade| async move {
        let text = |name| headers.get(name).and_then(|value: &header::HeaderValue| value.to_str().ok());
        if !door::origin_allowed(text(header::ORIGIN), text(header::HOST), &relay.config.allowed_origins) {
            return (
                StatusCode::FORBIDDEN,
                "pages of this origin may not open the class (the relay's --allow-origin)\n",
            )
                .into_response();
        }
        let ticket = match relay.doors.enter() {
            Ok(ticket) => ticket,
            Err(full) => return (StatusCode::SERVICE_UNAVAILABLE, format!("{full}\n")).into_response(),
        };
        // Twice the longest frame: a frame a little too long reaches the check that names
        // it; anything longer is refused by the WebSocket layer before it is buffered.
        let limit = relay.config.max_frame.saturating_mul(2).max(8192);
        upgrade
            .max_message_size(limit)
            .max_frame_size(limit)
            .on_upgrade(move |socket| connection::serve(relay, socket, ticket))
    };
    let trace = |State(relay): State<Arc<Relay>>, Path(code): Path<String>, RawQuery(query): RawQuery| async move {
        // The owner's to read: the class's every frame, and who its members are.
        if !door::token_matches(&relay.token, query_token(query.as_deref())) {
            return (StatusCode::FORBIDDEN, "the trace takes the lecturer's token (?token=)\n").into_response();
        }
        match relay.session(&code) {
            None => (StatusCode::NOT_FOUND, "no session has this code\n").into_response(),
            Some(session) => {
                let (events, dropped) = session.trace_snapshot();
                (
                    [
                        (header::CONTENT_TYPE, "application/x-ndjson".to_string()),
                        (header::HeaderName::from_static("x-trace-dropped"), dropped.to_string()),
                    ],
                    trace::lines(&events),
                )
                    .into_response()
            }
        }
    };
    axum::Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/class", get(class))
        .route("/class/{code}/trace", get(trace))
        .with_state(relay)
}
