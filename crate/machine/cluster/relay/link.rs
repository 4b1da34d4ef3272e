//! The relay link: a native processor's end of a class session, a WebSocket to
//! `meshmate relay` spoken through the class [`Client`], as a browser tab speaks it.
//!
//! A thread of its own holds the socket and the client: it writes what the processor
//! sends and what the client asks (beats, the owner's `resume` on a new socket after a
//! drop), feeds the client what it reads and the time, and passes the client's updates on
//! through a channel, so that sending and receiving never wait on each other. The socket
//! does not block: the thread waits on the processor's sends, which wake it at once, and
//! looks for frames to read between (a read timeout would hold each send for a kernel
//! tick, 8-12 ms here, whatever timeout is asked).

use super::client::{Client, Hello, Transmit, Update};
use crate::machine::cluster::link::{Arrival, Link};
use crate::machine::cluster::MAX_PROCESSORS;
use std::collections::VecDeque;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::CloseFrame;
use tungstenite::Message;

/// How long the socket's thread waits for something to send before it looks for frames
/// to read again.
const READ_SLICE: Duration = Duration::from_micros(200);

/// How long opening a socket to the relay (connection and handshake) may take.
const OPEN_WITHIN: Duration = Duration::from_secs(5);

/// How long a control request (create, join, start) waits for the relay's answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// What the processor asks of the socket's thread.
enum Command {
    /// A frame for processor `to`.
    Frame { to: usize, frame: Vec<u8> },
    /// The owner starts a search on every live member.
    Start,
    /// The owner's search is over.
    End,
    /// The owner has the relay cut a processor off.
    Expel { processor: usize, reason: String },
}

type Socket = tungstenite::WebSocket<TcpStream>;

/// A processor's end of a class session.
pub struct RelayLink {
    commands: Sender<Command>,
    /// The client's updates, in the batches the socket's thread passed on.
    updates: Receiver<Vec<Update>>,
    /// What arrived and is not taken yet, in order.
    held: VecDeque<Update>,
    code: String,
    member: u64,
    /// This processor in the current search (`usize::MAX`: in none yet).
    processor: usize,
    processors: usize,
    search: u32,
    /// The live members, as the relay last told the owner.
    members: Vec<u64>,
    closed: Option<String>,
    /// The socket's thread, waited for when the link is dropped.
    socket_thread: Option<std::thread::JoinHandle<()>>,
}

impl RelayLink {
    /// Creates a session at the relay `url` (`ws://host:port/class`) with the lecturer's
    /// `token`, and owns it.
    pub fn create(url: &str, token: &str) -> Result<RelayLink, String> {
        let mut link = RelayLink::connect(url, Hello::Create { token: token.to_string() })?;
        link.code = link.answer("create", |update| match update {
            Update::Created { code, .. } => Some(code.clone()),
            _ => None,
        })?;
        (link.processor, link.processors) = (0, 1);
        Ok(link)
    }

    /// Joins the session `code` at the relay `url`, to take part from the next search.
    pub fn join(url: &str, code: &str) -> Result<RelayLink, String> {
        let mut link = RelayLink::connect(url, Hello::Join { code: code.to_string() })?;
        link.member = link.answer("join", |update| match update {
            Update::Joined { member } => Some(u64::from(*member)),
            _ => None,
        })?;
        link.code = code.to_string();
        Ok(link)
    }

    /// Opens the socket (so that an unreachable relay is said at once) and hands it to
    /// the socket's thread with a client that enters by `hello`.
    fn connect(url: &str, hello: Hello) -> Result<RelayLink, String> {
        let socket = open(url)?;
        let (commands, from_link) = channel();
        let (to_link, updates) = channel();
        let url = url.to_string();
        let socket_thread = std::thread::Builder::new()
            .name("relay link".into())
            .spawn(move || hold_socket(&url, socket, Client::new(hello), &from_link, &to_link))
            .map_err(|e| e.to_string())?;
        Ok(RelayLink { commands, updates, held: VecDeque::new(), code: String::new(), member: 0, processor: usize::MAX, processors: 0, search: 0, members: Vec::new(), closed: None, socket_thread: Some(socket_thread) })
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
            match self.updates.recv_timeout(left) {
                Ok(batch) => batch.into_iter().for_each(|update| self.hold(update)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err("the relay's connection is gone".into()),
            }
        }
        Ok(())
    }

    /// The owner freezes the roster for the next search: every live member takes part.
    /// Returns how many processors do.
    pub fn start(&mut self) -> Result<usize, String> {
        self.commands.send(Command::Start).map_err(|_| "the relay's connection is gone")?;
        let (search, processor, processors) = self.answer("start", |update| match update {
            Update::Search { search, processor, processors, .. } => Some((*search, *processor, *processors)),
            _ => None,
        })?;
        if processors > MAX_PROCESSORS {
            let _ = self.commands.send(Command::End);
            return Err(format!("the relay's roster has {processors} processors; a class has at most {MAX_PROCESSORS} (the relay's --max-members)"));
        }
        (self.search, self.processor, self.processors) = (search, processor, processors);
        Ok(self.processors)
    }

    /// Waits for the answer to the request `asked`, the first update after it that `pick`
    /// reads; what else comes stays held in order for [`Link::receive`], the owner's member
    /// list taken at once. A refusal, or the end of the membership, is an error.
    fn answer<T>(&mut self, asked: &str, pick: impl Fn(&Update) -> Option<T>) -> Result<T, String> {
        let deadline = Instant::now() + ANSWER_WITHIN;
        let mut looked = self.held.len();
        loop {
            while let Some(update) = self.held.get(looked) {
                if let Some(answer) = pick(update) {
                    if matches!(self.held.remove(looked), Some(Update::Search { .. })) {
                        // What is held from before the roster belongs to earlier searches:
                        // a loss among it names a processor that may be somebody else now.
                        let mut place = 0;
                        self.held.retain(|update| {
                            place += 1;
                            place > looked || !matches!(update, Update::Frame(_) | Update::Lost(_))
                        });
                    }
                    return Ok(answer);
                }
                match update {
                    Update::Error(message) => return Err(format!("the relay refused: {message}")),
                    Update::Closed(why) => return Err(format!("the relay closed the connection: {why}")),
                    Update::Members(members) => {
                        self.members = members.iter().copied().map(u64::from).collect();
                        self.held.remove(looked);
                    }
                    _ => looked += 1,
                }
            }
            let left = deadline.checked_duration_since(Instant::now()).ok_or_else(|| format!("the relay did not answer '{asked}' in time"))?;
            let batch = self.updates.recv_timeout(left).map_err(|_| format!("the relay did not answer '{asked}' in time"))?;
            self.held.extend(batch);
        }
    }

    /// Keeps an update for [`Link::receive`]; the owner's member list is taken at once.
    fn hold(&mut self, update: Update) {
        match update {
            Update::Members(members) => self.members = members.into_iter().map(u64::from).collect(),
            other => self.held.push_back(other),
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
        let _ = self.commands.send(Command::Frame { to, frame });
    }

    fn receive(&mut self) -> Option<Arrival> {
        loop {
            let update = match self.held.pop_front() {
                Some(update) => update,
                None => {
                    let batch = self.updates.try_recv().ok()?;
                    self.held.extend(batch);
                    continue;
                }
            };
            match update {
                Update::Frame(frame) => return Some(Arrival::Frame(frame)),
                Update::Lost(processor) => {
                    // The client's last update says why the membership is over; it comes
                    // in the same batch as the losses that end it.
                    if let Some(Update::Closed(why)) = self.held.back() {
                        self.closed = Some(why.clone());
                    }
                    return Some(Arrival::Lost(processor));
                }
                Update::Search { search, processor, processors, .. } => (self.search, self.processor, self.processors) = (search, processor, processors),
                Update::Members(members) => self.members = members.into_iter().map(u64::from).collect(),
                Update::Closed(why) => self.closed = Some(why),
                _ => {}
            }
        }
    }

    /// Blocks on the socket thread's channel: a frame wakes the processor as soon as the
    /// thread has read it, and a processor waiting a round trip (milliseconds to a tenth of
    /// a second) takes no time from the searches beside it on the same cores.
    fn await_arrival(&mut self, within: Duration) -> bool {
        if self.held.is_empty() {
            match self.updates.recv_timeout(within) {
                Ok(batch) => self.held.extend(batch),
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

    /// A relay's round trip is 0.35 ms on loopback and 20-100 ms over a real network.
    fn round_trip_matters(&self) -> bool {
        true
    }

    /// The owner has the relay cut `processor` off: it is lost, and on no later roster.
    fn expel(&mut self, processor: usize, why: &str) -> bool {
        self.commands.send(Command::Expel { processor, reason: why.to_string() }).is_ok()
    }

    /// The owner tells the relay the search is over: waiting members join the next.
    fn search_over(&mut self) {
        let _ = self.commands.send(Command::End);
    }
}

impl Drop for RelayLink {
    /// Closes the channel to the socket's thread, which then sends what is still queued
    /// (the owner's QUIT frames above all), leaves and closes the socket, and waits for it
    /// to finish (a bounded wait: the thread never blocks longer than opening a socket).
    /// A process that exits without this wait can cut its socket before the thread has
    /// written them; the relay then takes the owner's link for failed and keeps its
    /// members waiting through the owner's grace period instead of ending the session.
    fn drop(&mut self) {
        drop(std::mem::replace(&mut self.commands, channel().0));
        if let Some(thread) = self.socket_thread.take() {
            let _ = thread.join();
        }
    }
}

/// A socket to the relay at `url`, its handshake done within [`OPEN_WITHIN`] (a relay that
/// does not answer is an error, not a hang: the owner's tries to resume go on), that does
/// not block.
fn open(url: &str) -> Result<Socket, String> {
    let address = url.strip_prefix("ws://").and_then(|rest| rest.split('/').next()).ok_or_else(|| format!("{url}: not a ws:// address"))?;
    let resolved = address.to_socket_addrs().map_err(|e| format!("{address}: {e}"))?.next().ok_or_else(|| format!("{address}: no address"))?;
    let stream = TcpStream::connect_timeout(&resolved, OPEN_WITHIN).map_err(|e| format!("{address}: {e}"))?;
    let _ = stream.set_nodelay(true);
    stream.set_read_timeout(Some(OPEN_WITHIN)).map_err(|e| e.to_string())?;
    let (socket, _) = tungstenite::client(url, stream).map_err(|e| format!("{url}: {e}"))?;
    socket.get_ref().set_nonblocking(true).map_err(|e| e.to_string())?;
    Ok(socket)
}

/// The socket's thread: feeds `client` what the socket and the processor (`commands`)
/// bring and the time, does what the client asks of the socket, and passes its updates on
/// to `updates`, until the membership is over or the link is dropped.
fn hold_socket(url: &str, first: Socket, mut client: Client, commands: &Receiver<Command>, updates: &Sender<Vec<Update>>) {
    let clock = Instant::now();
    let now = || u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX);
    // The client's first wish, a socket, is `first`, opened before the thread started.
    let mut first = Some(first);
    let mut socket: Option<Socket> = None;
    loop {
        while let Some(transmit) = client.poll_transmit() {
            transmit_on(&mut socket, transmit, &mut client, url, &mut first, now());
        }
        let batch: Vec<Update> = std::iter::from_fn(|| client.poll_update()).collect();
        if !batch.is_empty() && updates.send(batch).is_err() {
            return close(socket, "left");
        }
        if client.is_over() {
            return close(socket, "left");
        }
        if let Some(open) = &mut socket {
            if let Err(e) = open.flush() {
                if !would_block(&e) {
                    socket = None;
                    client.closed(&e.to_string(), now());
                    continue;
                }
            }
        }
        read_into(&mut socket, &mut client, now());
        // Between two tries to resume there is no socket to read: wait for the next try.
        let wait = match (&socket, client.deadline()) {
            (Some(_), _) => READ_SLICE,
            (None, Some(at)) => Duration::from_millis(at.saturating_sub(now())).min(Duration::from_millis(100)),
            (None, None) => Duration::from_millis(100),
        };
        let mut next = commands.recv_timeout(wait);
        while let Ok(command) = next {
            match command {
                Command::Frame { to, frame } => client.send_frame(to, &frame),
                Command::Start => {
                    if let Err(e) = client.start(None) {
                        let _ = updates.send(vec![Update::Error(e)]);
                    }
                }
                Command::End => client.end(),
                Command::Expel { processor, reason } => {
                    client.expel(processor, &reason);
                }
            }
            next = commands.recv_timeout(Duration::ZERO);
        }
        // The link is dropped: leave politely.
        if matches!(next, Err(RecvTimeoutError::Disconnected)) {
            client.leave("left");
            while let Some(transmit) = client.poll_transmit() {
                transmit_on(&mut socket, transmit, &mut client, url, &mut None, now());
            }
            return close(socket, "left");
        }
        client.tick(now());
    }
}

/// Does what the client asks of the socket: a new one (the first, opened already, or the
/// owner's way back), a message, or its close.
fn transmit_on(socket: &mut Option<Socket>, transmit: Transmit, client: &mut Client, url: &str, first: &mut Option<Socket>, now: u64) {
    let message = match transmit {
        Transmit::Connect => {
            match first.take().map_or_else(|| open(url), Ok) {
                Ok(opened) => {
                    *socket = Some(opened);
                    client.opened(now);
                }
                Err(e) => client.closed(&e, now),
            }
            return;
        }
        Transmit::Text(text) => Message::text(text),
        Transmit::Binary(bytes) => Message::binary(bytes),
        Transmit::Close(reason) => return close(socket.take(), &reason),
    };
    let Some(open) = socket else { return };
    if let Err(e) = open.write(message) {
        if !would_block(&e) {
            *socket = None;
            client.closed(&e.to_string(), now);
        }
    }
}

/// Reads what the socket has into the client, until it would block or is gone.
fn read_into(socket: &mut Option<Socket>, client: &mut Client, now: u64) {
    let Some(open) = socket else { return };
    loop {
        match open.read() {
            Ok(Message::Binary(bytes)) => client.received_binary(&bytes),
            Ok(Message::Text(text)) => client.received_text(text.as_str()),
            Ok(Message::Close(frame)) => {
                *socket = None;
                return client.closed(&frame.map_or("closed".into(), |f| f.reason.to_string()), now);
            }
            Ok(_) => {}
            Err(e) if would_block(&e) => return,
            Err(e) => {
                *socket = None;
                return client.closed(&e.to_string(), now);
            }
        }
    }
}

/// Closes `socket`, if there is one, normally with `reason`.
fn close(socket: Option<Socket>, reason: &str) {
    if let Some(mut socket) = socket {
        let _ = socket.close(Some(CloseFrame { code: CloseCode::Normal, reason: reason.to_string().into() }));
        let _ = socket.flush();
    }
}

/// Whether a socket's error only says it cannot go on now (the socket does not block).
fn would_block(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}
