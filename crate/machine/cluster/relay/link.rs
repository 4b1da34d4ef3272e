//! The relay link: a native processor's end of a class session, a WebSocket to
//! `meshmate relay` (its protocol is in `crate::relay`'s documentation). The browser's
//! tabs speak the same protocol from JavaScript.
//!
//! A thread of its own holds the socket: it writes what the processor sends, beats every
//! [`BEAT_MS`] so the relay does not declare a busy processor lost, and reads into a
//! channel, so that sending and receiving never wait on each other. The socket does not
//! block: the thread waits on the processor's sends, which wake it at once, and looks for
//! frames to read between (a read timeout would hold each send for a kernel tick, 8-12 ms
//! here, whatever timeout is asked).

use crate::machine::cluster::link::{Arrival, Link};
use crate::machine::cluster::MAX_PROCESSORS;
use crate::machine::frame::{addressed, Frame};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::TcpStream;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tungstenite::Message;

/// How often the socket's thread tells the relay this processor is alive.
const BEAT_MS: u64 = 1_000;

/// How long the socket's thread waits for something to send before it looks for frames
/// to read again.
const READ_SLICE: Duration = Duration::from_micros(200);

/// How long a control request (create, join, start) waits for the relay's answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// What the socket's thread passes on.
enum Incoming {
    /// A frame, `[from: u16 LE][frame]`.
    Frame(Vec<u8>),
    /// A control message.
    Control(Value),
    /// The connection is gone, with why.
    Closed(String),
}

/// A processor's end of a class session.
pub struct RelayLink {
    outgoing: Sender<Message>,
    incoming: Receiver<Incoming>,
    /// What arrived while a control request waited for its answer, in order.
    held: VecDeque<Incoming>,
    code: String,
    member: u64,
    /// This processor in the current search (`usize::MAX`: in none yet).
    processor: usize,
    processors: usize,
    search: u32,
    /// The live members, as the relay last told the owner.
    members: Vec<u64>,
    closed: Option<String>,
}

impl RelayLink {
    /// Creates a session at the relay `url` (`ws://host:port/class`) with the lecturer's
    /// `token`, and owns it.
    pub fn create(url: &str, token: &str) -> Result<RelayLink, String> {
        let mut link = RelayLink::connect(url)?;
        link.request(json!({ "type": "create", "token": token }), "created")?.get("code").and_then(Value::as_str).map(str::to_string).map(|code| link.code = code).ok_or("the relay's answer has no code")?;
        (link.processor, link.processors) = (0, 1);
        Ok(link)
    }

    /// Joins the session `code` at the relay `url`, to take part from the next search.
    pub fn join(url: &str, code: &str) -> Result<RelayLink, String> {
        let mut link = RelayLink::connect(url)?;
        let joined = link.request(json!({ "type": "join", "code": code }), "joined")?;
        link.member = joined.get("member").and_then(Value::as_u64).ok_or("the relay's answer has no member number")?;
        link.code = code.to_string();
        Ok(link)
    }

    fn connect(url: &str) -> Result<RelayLink, String> {
        let address = url.strip_prefix("ws://").and_then(|rest| rest.split('/').next()).ok_or_else(|| format!("{url}: not a ws:// address"))?;
        let stream = TcpStream::connect(address).map_err(|e| format!("{address}: {e}"))?;
        let _ = stream.set_nodelay(true);
        let (socket, _) = tungstenite::client(url, stream).map_err(|e| format!("{url}: {e}"))?;
        let (outgoing, to_socket) = channel();
        let (from_socket, incoming) = channel();
        std::thread::Builder::new().name("relay link".into()).spawn(move || hold_socket(socket, to_socket, from_socket)).map_err(|e| e.to_string())?;
        Ok(RelayLink { outgoing, incoming, held: VecDeque::new(), code: String::new(), member: 0, processor: usize::MAX, processors: 0, search: 0, members: Vec::new(), closed: None })
    }

    /// The session's code, which students join with.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// This processor's member number in the session (0: the owner).
    pub fn member(&self) -> u64 {
        self.member
    }

    /// Why the connection is gone, if it is.
    pub fn closed(&self) -> Option<&str> {
        self.closed.as_deref()
    }

    /// The owner waits until at least `count` other members are live, or `within` has passed.
    pub fn wait_for_members(&mut self, count: usize, within: Duration) -> Result<(), String> {
        let deadline = Instant::now() + within;
        while self.members.iter().filter(|&&m| m != 0).count() < count {
            let left = deadline.checked_duration_since(Instant::now()).ok_or_else(|| format!("{} of {count} members joined in time", self.members.len().saturating_sub(1)))?;
            match self.incoming.recv_timeout(left) {
                Ok(incoming) => self.hold(incoming),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err("the relay's connection is gone".into()),
            }
        }
        Ok(())
    }

    /// The owner freezes the roster for the next search: every live member takes part.
    /// Returns how many processors do.
    pub fn start(&mut self) -> Result<usize, String> {
        let search = self.request(json!({ "type": "start" }), "search")?;
        let processors = search.get("processors").and_then(Value::as_u64).unwrap_or(0);
        if processors > MAX_PROCESSORS as u64 {
            let _ = self.outgoing.send(Message::text(json!({ "type": "end" }).to_string()));
            return Err(format!("the relay's roster has {processors} processors; a class has at most {MAX_PROCESSORS} (the relay's --max-members)"));
        }
        self.take_search(&search);
        Ok(self.processors)
    }

    /// Sends `message` and waits for the answer of type `answer`, holding what else comes.
    fn request(&mut self, message: Value, answer: &str) -> Result<Value, String> {
        self.outgoing.send(Message::text(message.to_string())).map_err(|_| "the relay's connection is gone")?;
        let deadline = Instant::now() + ANSWER_WITHIN;
        loop {
            let left = deadline.checked_duration_since(Instant::now()).ok_or_else(|| format!("the relay did not answer '{}' in time", message["type"]))?;
            match self.incoming.recv_timeout(left) {
                Ok(Incoming::Control(value)) if value["type"] == answer => return Ok(value),
                Ok(Incoming::Control(value)) if value["type"] == "error" => return Err(format!("the relay refused: {}", value["message"])),
                Ok(Incoming::Closed(why)) => return Err(format!("the relay closed the connection: {why}")),
                Ok(other) => self.hold(other),
                Err(_) => return Err(format!("the relay did not answer '{}' in time", message["type"])),
            }
        }
    }

    /// Keeps an arrival for [`Link::receive`]; the owner's member list is taken at once.
    fn hold(&mut self, incoming: Incoming) {
        if let Incoming::Control(value) = &incoming {
            if value["type"] == "members" {
                self.members = value["members"].as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
                return;
            }
        }
        self.held.push_back(incoming);
    }

    /// A `search` message: this processor's place in the search starting.
    fn take_search(&mut self, search: &Value) {
        let number = |key: &str| search.get(key).and_then(Value::as_u64);
        if let (Some(s), Some(p), Some(n)) = (number("search"), number("processor"), number("processors")) {
            (self.search, self.processor, self.processors) = (s as u32, p as usize, n as usize);
        }
    }
}

impl Link for RelayLink {
    fn rank(&self) -> usize {
        self.processor
    }

    fn size(&self) -> usize {
        self.processors
    }

    fn send(&mut self, to: usize, frame: Vec<u8>) {
        // A closed connection drops the frame: the receive side reports it.
        let _ = self.outgoing.send(Message::binary(addressed(to, &frame)));
    }

    fn receive(&mut self) -> Option<Arrival> {
        loop {
            let incoming = match self.held.pop_front() {
                Some(incoming) => incoming,
                None => self.incoming.try_recv().ok()?,
            };
            match incoming {
                // The relay checked the header; a frame it let through still parses.
                Incoming::Frame(bytes) => {
                    if let Some(frame) = Frame::stamped(&bytes) {
                        return Some(Arrival::Frame(frame));
                    }
                }
                Incoming::Control(value) => match value["type"].as_str() {
                    Some("search") => self.take_search(&value),
                    // Only a loss in this search: an earlier search's processor i may be
                    // somebody else (see the relay's protocol).
                    Some("lost") if value["search"].as_u64() == Some(self.search as u64) => {
                        if let Some(p) = value["processor"].as_u64() {
                            return Some(Arrival::Lost(p as usize));
                        }
                    }
                    Some("members") => self.hold(Incoming::Control(value)),
                    // The owner left: for a helper, processor 0 is gone.
                    Some("closed") => {
                        self.closed = Some(value["reason"].as_str().unwrap_or("closed").to_string());
                        return Some(Arrival::Lost(0));
                    }
                    _ => {}
                },
                Incoming::Closed(why) => {
                    self.closed = Some(why);
                    return Some(Arrival::Lost(0));
                }
            }
        }
    }

    /// Blocks on the socket thread's channel: a frame wakes the processor as soon as the
    /// thread has read it, and a processor waiting a round trip (milliseconds to a tenth of
    /// a second) takes no time from the searches beside it on the same cores.
    fn await_arrival(&mut self, within: Duration) -> bool {
        if self.held.is_empty() {
            match self.incoming.recv_timeout(within) {
                Ok(incoming) => self.held.push_back(incoming),
                Err(RecvTimeoutError::Timeout) => {}
                // The socket's thread is gone, and said why (`receive` reports it): nothing
                // will come, so the wait is a plain sleep, never a spin.
                Err(RecvTimeoutError::Disconnected) => std::thread::sleep(within),
            }
        }
        true
    }

    fn next_search(&mut self, _proposed: u32) -> u32 {
        self.search
    }

    /// The owner has the relay cut `processor` off: it is lost, and on no later roster.
    fn expel(&mut self, processor: usize, why: &str) -> bool {
        let expel = json!({ "type": "expel", "processor": processor, "reason": why });
        self.outgoing.send(Message::text(expel.to_string())).is_ok()
    }

    /// The owner tells the relay the search is over: waiting members join the next.
    fn search_over(&mut self) {
        let _ = self.outgoing.send(Message::text(json!({ "type": "end" }).to_string()));
    }
}

/// The socket's thread: writes what `to_socket` brings and a beat now and then, reads
/// into `from_socket`, until either side is gone.
fn hold_socket(mut socket: tungstenite::WebSocket<TcpStream>, to_socket: Receiver<Message>, from_socket: Sender<Incoming>) {
    if let Err(e) = socket.get_mut().set_nonblocking(true) {
        let _ = from_socket.send(Incoming::Closed(e.to_string()));
        return;
    }
    let mut last_beat = Instant::now();
    let beat = json!({ "type": "beat" }).to_string();
    loop {
        loop {
            let incoming = match socket.read() {
                Ok(Message::Binary(bytes)) => Incoming::Frame(bytes.to_vec()),
                Ok(Message::Text(text)) => match serde_json::from_str(text.as_str()) {
                    Ok(value) => Incoming::Control(value),
                    Err(_) => continue,
                },
                Ok(Message::Close(frame)) => Incoming::Closed(frame.map_or("closed".into(), |f| f.reason.to_string())),
                Ok(_) => continue,
                Err(e) if would_block(&e) => break,
                Err(e) => Incoming::Closed(e.to_string()),
            };
            let closed = matches!(incoming, Incoming::Closed(_));
            if from_socket.send(incoming).is_err() || closed {
                return;
            }
        }
        let mut next = to_socket.recv_timeout(READ_SLICE);
        while let Ok(message) = next {
            if let Err(e) = socket.write(message) {
                if !would_block(&e) {
                    let _ = from_socket.send(Incoming::Closed(e.to_string()));
                    return;
                }
            }
            next = to_socket.recv_timeout(Duration::ZERO);
        }
        // The link is dropped: close politely.
        if matches!(next, Err(RecvTimeoutError::Disconnected)) {
            let _ = socket.close(None);
            let _ = socket.flush();
            return;
        }
        if last_beat.elapsed() >= Duration::from_millis(BEAT_MS) {
            last_beat = Instant::now();
            let _ = socket.write(Message::text(beat.clone()));
        }
        if let Err(e) = socket.flush() {
            if !would_block(&e) {
                let _ = from_socket.send(Incoming::Closed(e.to_string()));
                return;
            }
        }
    }
}

/// Whether a socket's error only says it cannot go on now (the socket does not block).
fn would_block(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}
