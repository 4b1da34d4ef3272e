//! A session: the class one owner created, its members, and the search they run. It
//! decides everything the relay decides: who is a processor of which search, which frame
//! goes where, who is lost, and when the session is over. All of it under one lock, per
//! message; the sockets are the connections' business (`connection.rs`).
//!
//! Invariants: member numbers only grow (a member that left is never confused with a new
//! one); a member has a processor exactly while a search runs and it is on the roster; a
//! processor of the running search is lost exactly when its member is gone; while the
//! owner is away (its connection dropped, it may resume) there is no member 0 and no
//! search; once the session is closed it has no members and refuses every call.

use super::outbox::{Closing, Outbox, Overflow};
use super::protocol::{address, Ev, Event, Notice, Request, ADDRESS};
use super::trace::Trace;
use super::Config;
use crate::net::{Kind, Topology};
use std::collections::BTreeMap;
use std::fs::File;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// The owner's member number; its processor is always 0.
pub const OWNER: u32 = 0;

/// WebSocket close codes the relay uses.
pub const NORMAL: u16 = 1000;
/// A message that breaks the protocol.
pub const POLICY: u16 = 1008;

/// A class: one owner and the members that joined it.
pub struct Session {
    /// The code members join with (also the trace file's name).
    pub code: String,
    /// What the owner resumes the session with after its connection dropped.
    resume: String,
    config: Arc<Config>,
    state: Mutex<State>,
    /// Locked after `state` when both are (a connection records deliveries with it alone).
    trace: Mutex<Trace>,
}

struct State {
    members: BTreeMap<u32, Member>,
    next_member: u32,
    searches: u32,
    search: Option<Search>,
    closed: bool,
    /// Since when the owner's connection is gone (it may resume within the grace period).
    away: Option<Instant>,
    /// Members whose queue overflowed during the current call: cut off before it returns.
    overflowed: Vec<u32>,
}

struct Member {
    outbox: Outbox,
    last_seen: Instant,
    /// Its processor in the running search.
    processor: Option<usize>,
}

struct Search {
    number: u32,
    /// The member of each processor.
    roster: Vec<u32>,
    lost: Vec<bool>,
    network: Option<Topology>,
}

impl State {
    /// Notes a sign of life from `member`; false if it is no member (any more).
    fn seen(&mut self, member: u32) -> bool {
        self.members.get_mut(&member).map(|m| m.last_seen = Instant::now()).is_some()
    }

    /// Tells `member` something that orders with its frames.
    fn tell(&mut self, member: u32, notice: &Notice) {
        self.put(member, |outbox| outbox.control(&notice.to_json()));
    }

    /// Tells the owner who is here.
    fn tell_members(&mut self) {
        let members = self.members.keys().copied().collect();
        self.put(OWNER, |outbox| outbox.aside(&Notice::Members { members }.to_json()));
    }

    /// Puts a message in `member`'s outbox; if that overflows, the member is cut off
    /// before the session's call returns ([`Session::settle`]).
    fn put(&mut self, member: u32, put: impl FnOnce(&mut Outbox) -> Result<(), Overflow>) {
        if let Some(m) = self.members.get_mut(&member) {
            if put(&mut m.outbox).is_err() {
                self.overflowed.push(member);
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Session {
    /// A new session owned by the connection of `outbox`, which is told its code and the
    /// token `resume` it comes back with.
    pub fn create(code: String, resume: String, config: Arc<Config>, outbox: Outbox) -> Arc<Session> {
        let file = config.trace_dir.as_ref().and_then(|dir| {
            let path = dir.join(format!("{code}.jsonl"));
            File::create(&path).map_err(|e| eprintln!("relay: no trace file {}: {e}", path.display())).ok()
        });
        let owner = Member { outbox, last_seen: Instant::now(), processor: None };
        let state = State {
            members: BTreeMap::from([(OWNER, owner)]),
            next_member: 1,
            searches: 0,
            search: None,
            closed: false,
            away: None,
            overflowed: Vec::new(),
        };
        let session = Arc::new(Session {
            code,
            resume,
            config,
            state: Mutex::new(state),
            trace: Mutex::new(Trace::new(Instant::now(), file)),
        });
        session.record(Event { member: Some(OWNER), ..Event::new(Ev::Join) });
        let created = Notice::Created { code: session.code.clone(), member: OWNER, resume: session.resume.clone() };
        let mut guard = lock(&session.state);
        guard.tell(OWNER, &created);
        session.settle(&mut guard);
        drop(guard);
        session
    }

    /// Adds a member with `outbox`; its number, or why it cannot join.
    pub fn join(&self, outbox: Outbox) -> Result<u32, String> {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        if state.closed {
            return Err("the session has closed".into());
        }
        if state.members.len() >= self.config.max_members {
            return Err(format!("the session is full ({} members)", self.config.max_members));
        }
        let member = state.next_member;
        state.next_member += 1;
        state.members.insert(member, Member { outbox, last_seen: Instant::now(), processor: None });
        self.record(Event { member: Some(member), ..Event::new(Ev::Join) });
        state.tell(member, &Notice::Joined { member });
        if state.search.is_some() {
            state.tell(member, &Notice::Waiting);
        }
        state.tell_members();
        self.settle(state);
        Ok(member)
    }

    /// The owner comes back with `outbox`, if it is away and `token` is its resume token.
    pub fn resume(&self, token: &str, outbox: Outbox) -> Result<(), String> {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        if state.closed {
            return Err("the session has closed".into());
        }
        if state.away.is_none() || !super::door::token_matches(&self.resume, token) {
            return Err("no owner of this session is away with this token".into());
        }
        state.away = None;
        state.members.insert(OWNER, Member { outbox, last_seen: Instant::now(), processor: None });
        self.record(Event { member: Some(OWNER), reason: Some("resumed".into()), ..Event::new(Ev::Join) });
        state.tell(OWNER, &Notice::Resumed { code: self.code.clone(), member: OWNER });
        let members: Vec<u32> = state.members.keys().copied().filter(|&m| m != OWNER).collect();
        for member in members {
            state.tell(member, &Notice::Back);
        }
        state.tell_members();
        self.settle(state);
        Ok(())
    }

    /// A control message from `member`.
    pub fn text(&self, member: u32, text: &str) {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        if !state.seen(member) {
            return;
        }
        match Request::parse(text) {
            Err(reason) => self.refuse(state, member, reason),
            Ok(Request::Create { .. } | Request::Join { .. } | Request::Resume { .. }) => {
                self.refuse(state, member, "already in a session".into())
            }
            Ok(Request::Beat) => {}
            Ok(Request::Start { .. } | Request::End | Request::Expel { .. }) if member != OWNER => {
                self.refuse(state, member, "only the owner starts, ends and expels".into())
            }
            Ok(Request::Start { network }) => self.start(state, network.as_deref()),
            Ok(Request::End) => self.end(state),
            Ok(Request::Expel { processor, reason }) => self.expel(state, processor, &reason),
        }
        self.settle(state);
    }

    /// A data frame from `member`: `[to: u16][frame]`.
    pub fn frame(&self, member: u32, mut message: Vec<u8>) {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        if !state.seen(member) {
            return;
        }
        // Step 1: a frame from no processor of the running search is late: dropped.
        let Some(from) = state.members.get(&member).and_then(|m| m.processor) else { return };
        let Some(search) = &state.search else { return };
        // Step 2: a frame no honest processor sends cuts its sender off.
        let header = match address(&message, from, search.roster.len(), self.config.max_frame) {
            Ok(header) => header,
            Err(reason) => {
                self.cut_off(state, member, reason, None);
                return self.settle(state);
            }
        };
        // Step 3: a frame of another search, or to a lost processor, is dropped.
        if header.search != search.number || search.lost[header.to] {
            return;
        }
        let receiver = search.roster[header.to];
        let hops = search.network.as_ref().map(|net| net.hops(from, header.to).unwrap_or(1));
        let event = Event {
            search: Some(search.number),
            from: Some(from as u16),
            to: Some(header.to as u16),
            kind: Some(header.kind.name().into()),
            bytes: Some(message.len() as u32),
            hops: hops.map(|h| h as u16),
            ..Event::new(Ev::Send)
        };
        // Step 4: stamped with its sender, and forwarded after the injected delay.
        message[..ADDRESS].copy_from_slice(&(from as u16).to_le_bytes());
        let delay = self.config.delay * hops.unwrap_or(1) as u32;
        self.record(event.clone());
        state.put(receiver, |outbox| outbox.frame(message, delay, Event { ev: Ev::Deliver, ..event }));
        self.settle(state);
    }

    /// Any other sign of life from `member` (a ping).
    pub fn alive(&self, member: u32) {
        lock(&self.state).seen(member);
    }

    /// Cuts `member` off for breaking a limit of the relay's (`reason`).
    pub fn cut(&self, member: u32, reason: &str) {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        self.cut_off(state, member, reason.into(), None);
        self.settle(state);
    }

    /// `member`'s connection ended (`reason`): `deliberately` closed by the client, or it
    /// failed (then an owner may resume).
    pub fn leave(&self, member: u32, reason: &str, deliberately: bool) {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        self.remove(state, member, reason, deliberately);
        self.settle(state);
    }

    /// The periodic work: members silent too long are cut off, the owner gets the trace's
    /// new events, the trace file is written out. Says whether the session is still open.
    pub fn tick(&self) -> bool {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        let lost_after = self.config.lost_after;
        let silent: Vec<u32> =
            state.members.iter().filter(|(_, m)| m.last_seen.elapsed() > lost_after).map(|(&id, _)| id).collect();
        for member in silent {
            self.cut_off(state, member, format!("silent for more than {} ms", lost_after.as_millis()), None);
        }
        let grace = self.config.owner_grace;
        if state.away.is_some_and(|since| since.elapsed() > grace) {
            self.close(state, &format!("its connection dropped and it did not resume within {} ms", grace.as_millis()));
        }
        // The trace is the owner's to watch, not a reason to lose it: a batch its queue
        // has no room for is left out and counted.
        let batch = lock(&self.trace).batch();
        if let Some((events, dropped)) = batch {
            let count = events.len() as u64;
            let text = Notice::Trace { events, dropped }.to_json();
            if !state.members.get_mut(&OWNER).is_some_and(|owner| owner.outbox.lossy(text)) {
                lock(&self.trace).left_out(count);
            }
        }
        self.settle(state);
        lock(&self.trace).flush();
        !state.closed
    }

    /// Whether the owner has left.
    pub fn is_closed(&self) -> bool {
        lock(&self.state).closed
    }

    /// Records a frame's delivery (the connection that wrote it calls this).
    pub fn record(&self, event: Event) {
        lock(&self.trace).record(event);
    }

    /// The kept trace, and how many older events were dropped: a copy, so that it is
    /// written out while frames go on being recorded.
    pub fn trace_snapshot(&self) -> (Vec<Event>, u64) {
        lock(&self.trace).snapshot()
    }

    /// `start`: processor 0 is the owner, the others the live members in member order.
    fn start(&self, state: &mut State, network: Option<&str>) {
        if let Some(search) = &state.search {
            let message = format!("search {} is running: end it first", search.number);
            return state.tell(OWNER, &Notice::Error { message });
        }
        let roster: Vec<u32> = state.members.keys().copied().collect();
        let processors = roster.len();
        let network = match network
            .map(|name| name.replace('-', "").parse::<Kind>().and_then(|kind| Topology::new(kind, processors)))
        {
            None => None,
            Some(Ok(net)) => Some(net),
            Some(Err(e)) => return state.tell(OWNER, &Notice::Error { message: e.to_string() }),
        };
        state.searches += 1;
        let number = state.searches;
        let name = network.as_ref().map(|net| net.kind().name().to_string());
        for (processor, member) in roster.iter().enumerate() {
            if let Some(m) = state.members.get_mut(member) {
                m.processor = Some(processor);
            }
            state.tell(
                *member,
                &Notice::Search { search: number, processor, processors, members: roster.clone(), network: name.clone() },
            );
        }
        self.record(Event { search: Some(number), processors: Some(processors as u16), ..Event::new(Ev::Start) });
        state.search = Some(Search { number, lost: vec![false; processors], roster, network });
    }

    /// `end`: every live participant is told; the waiting members join the next roster.
    fn end(&self, state: &mut State) {
        let Some(search) = state.search.take() else {
            return state.tell(OWNER, &Notice::Error { message: "no search is running".into() });
        };
        for (processor, member) in search.roster.iter().enumerate() {
            if !search.lost[processor] {
                if let Some(m) = state.members.get_mut(member) {
                    m.processor = None;
                }
                state.tell(*member, &Notice::Ended { search: search.number });
            }
        }
        self.record(Event { search: Some(search.number), ..Event::new(Ev::End) });
    }

    /// `expel`: processor `processor` of the running search is cut off, and so lost.
    fn expel(&self, state: &mut State, processor: usize, reason: &str) {
        let expelled = state
            .search
            .as_ref()
            .filter(|search| processor != 0 && !search.lost.get(processor).is_none_or(|&lost| lost))
            .map(|search| search.roster[processor]);
        match expelled {
            Some(member) => self.cut_off(state, member, format!("expelled by the owner: {reason}"), None),
            None => state.tell(OWNER, &Notice::Error { message: format!("no processor {processor} to expel") }),
        }
    }

    /// A refused control message: an error, then the connection is cut off.
    fn refuse(&self, state: &mut State, member: u32, reason: String) {
        let last = Notice::Error { message: reason.clone() }.to_json();
        self.cut_off(state, member, reason, Some(last));
    }

    /// Closes `member`'s connection for breaking the rules and removes it.
    fn cut_off(&self, state: &mut State, member: u32, reason: String, last: Option<String>) {
        let Some(m) = state.members.get(&member) else { return };
        m.outbox.close(Closing { code: POLICY, reason: reason.clone(), last });
        self.record(Event { member: Some(member), reason: Some(reason.clone()), ..Event::new(Ev::Refused) });
        self.remove(state, member, &reason, false);
    }

    /// Removes `member`: a lost processor if it took part in the running search; if it was
    /// the owner, the end of the session when it left `deliberately`, else the owner is away.
    fn remove(&self, state: &mut State, member: u32, reason: &str, deliberately: bool) {
        let Some(gone) = state.members.remove(&member) else { return };
        self.record(Event { member: Some(member), reason: Some(reason.into()), ..Event::new(Ev::Leave) });
        if member == OWNER {
            return if deliberately { self.close(state, reason) } else { self.away(state, reason) };
        }
        if let Some(processor) = gone.processor {
            self.lose(state, member, processor, reason);
        }
        state.tell_members();
    }

    /// Processor `processor` (of `member`) of the running search is lost: recorded, and
    /// every other live participant told.
    fn lose(&self, state: &mut State, member: u32, processor: usize, reason: &str) {
        let Some(search) = state.search.as_mut() else { return };
        search.lost[processor] = true;
        let number = search.number;
        let others: Vec<u32> =
            search.roster.iter().enumerate().filter(|&(p, _)| !search.lost[p]).map(|(_, &m)| m).collect();
        self.record(Event {
            member: Some(member),
            search: Some(number),
            processor: Some(processor as u16),
            reason: Some(reason.into()),
            ..Event::new(Ev::Lost)
        });
        let lost = Notice::Lost { search: number, processor }.to_json();
        for other in others {
            state.put(other, |outbox| outbox.control(&lost));
        }
    }

    /// The owner's connection is gone, not closed by it (`reason`): the running search is
    /// over (its processor 0 lost, as every participant is told, then `ended`), and the
    /// members wait for the owner to resume within the grace period (none: the session
    /// closes now).
    fn away(&self, state: &mut State, reason: &str) {
        let grace = self.config.owner_grace;
        if grace.is_zero() {
            return self.close(state, reason);
        }
        if state.search.is_some() {
            self.lose(state, OWNER, 0, reason);
            self.end(state);
        }
        state.away = Some(Instant::now());
        let away = Notice::Away { within_ms: grace.as_millis() as u64 }.to_json();
        let members: Vec<u32> = state.members.keys().copied().collect();
        for member in members {
            state.put(member, |outbox| outbox.control(&away));
        }
    }

    /// The owner left: everyone is told and let go, the session refuses everything after.
    fn close(&self, state: &mut State, reason: &str) {
        let last = Notice::Closed { reason: format!("the owner left: {reason}") }.to_json();
        for (member, m) in std::mem::take(&mut state.members) {
            m.outbox.close(Closing { code: NORMAL, reason: "the owner left".into(), last: Some(last.clone()) });
            self.record(Event { member: Some(member), reason: Some("the owner left".into()), ..Event::new(Ev::Leave) });
        }
        state.search = None;
        state.closed = true;
        lock(&self.trace).flush();
    }

    /// Cuts off the members whose queues overflowed (which may overflow others: telling
    /// of a loss is a message too).
    fn settle(&self, state: &mut State) {
        while let Some(member) = state.overflowed.pop() {
            self.cut_off(state, member, "cannot keep up: too many messages wait for it".into(), None);
        }
    }
}
