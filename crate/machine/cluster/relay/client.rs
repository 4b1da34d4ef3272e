//! One client of the class relay, without input or output of its own: it is fed what its
//! socket brings (a text, a binary message, the socket opened or gone) and the time, and
//! gives back what to do with the socket ([`Transmit`]), what its holder should hear
//! ([`Update`]) and when it next needs the time ([`Client::deadline`]). A native process
//! ([`super::RelayLink`]) and a browser tab (`crate::wasm`) hold the same one, each with
//! its own socket and clock, so what a member does is decided once:
//!
//! - it beats every [`BEAT_MS`] while its socket is open (the schedule starts when the
//!   socket opens, so a slow handshake costs nothing), and never after its membership is
//!   over;
//! - a `lost` notice counts only for the search this member runs: an earlier search's
//!   processor i may be somebody else now;
//! - a member whose processor cannot take a task leaves the class
//!   ([`Client::cannot_take_part`]), rather than stay on every roster as a processor that
//!   never answers;
//! - the owner whose socket fails (not closed by it, not after the relay said the session
//!   closed) comes back with the `resume` token `created` gave it, on a new socket, again
//!   every [`RESUME_RETRY_MS`] (the relay may not have noticed the drop yet), until the
//!   relay answers `resumed` or [`RESUME_WITHIN_MS`] have passed; a student has no way
//!   back;
//! - when its part in a search is cut short (its socket gone, the session over), its
//!   processor hears the others lost: a student, processor 0; the owner, every other
//!   processor of the running search, so that it finishes the search alone.

use super::protocol::{Event, Notice, Request};
use crate::machine::frame::{addressed, Frame};
use std::collections::VecDeque;

/// How often the relay hears that this member lives (its `--lost-after-ms` is 10 s by
/// default).
pub const BEAT_MS: u64 = 1_000;

/// How long a dropped owner waits between two tries to resume.
pub const RESUME_RETRY_MS: u64 = 1_000;

/// How long it keeps trying: the relay's grace (`--owner-grace-ms`, 30 s by default) after
/// the drop, which the relay may take `--lost-after-ms` (10 s) to notice.
pub const RESUME_WITHIN_MS: u64 = 40_000;

/// How a client enters its class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hello {
    /// The lecturer creates a session, and owns it.
    Create {
        /// The relay's lecturer token.
        token: String,
    },
    /// A student joins a session.
    Join {
        /// The session's code.
        code: String,
    },
}

/// What the client asks of its socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transmit {
    /// Open a socket to the relay, then say [`Client::opened`] or [`Client::closed`].
    Connect,
    /// Send this text.
    Text(String),
    /// Send these bytes.
    Binary(Vec<u8>),
    /// Close the socket normally (code 1000), with this reason.
    Close(String),
}

/// What the client's holder hears.
pub enum Update {
    /// The relay created the session (this member owns it).
    Created {
        /// The code students join with.
        code: String,
        /// This member's number (0).
        member: u32,
    },
    /// The relay took this member into the session.
    Joined {
        /// This member's number.
        member: u32,
    },
    /// A search is running: this member takes part from the next one.
    Waiting,
    /// A search starts.
    Search {
        /// Its number in the session.
        search: u32,
        /// This member's processor in it.
        processor: usize,
        /// How many processors take part.
        processors: usize,
        /// The member of each processor, processor 0 first.
        members: Vec<u32>,
        /// The virtual network it runs on, if one was named.
        network: Option<String>,
    },
    /// The search is over.
    Ended {
        /// Its number.
        search: u32,
    },
    /// The owner's view of the live members.
    Members(Vec<u32>),
    /// A frame from another processor of the search.
    Frame(Frame),
    /// This processor of the search this member runs is gone.
    Lost(usize),
    /// The owner's connection dropped: the session waits for it.
    Away {
        /// How long it waits.
        within_ms: u64,
    },
    /// The owner that was away is back.
    Back,
    /// Trace events for the owner.
    Trace {
        /// The events since the last batch.
        events: Vec<Event>,
        /// How many the stream has left out so far.
        dropped: u64,
    },
    /// The relay refused a request, or cannot be reached.
    Error(String),
    /// The owner's socket failed: it is trying to resume.
    Dropped,
    /// The relay took the owner back.
    Resumed,
    /// The membership is over, with why: always the last update.
    Closed(String),
}

/// Where the socket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Socket {
    /// None: between two tries to resume, or the membership is over.
    None,
    /// Asked for, not open yet.
    Opening,
    Open,
}

/// A dropped owner's way back.
struct Resuming {
    /// Until when it tries, on the client's clock.
    until: u64,
    /// The relay's last refusal.
    refused: Option<String>,
    /// When the next try starts, between two.
    retry_at: Option<u64>,
}

/// One member's end of a class session (see the module's documentation).
pub struct Client {
    hello: Hello,
    socket: Socket,
    /// `(code, token)` once the relay created this member's session: what it resumes with.
    resume: Option<(String, String)>,
    resuming: Option<Resuming>,
    /// Whether the membership is over ([`Update::Closed`] said so).
    over: bool,
    /// The search this member takes or took part in (0: none yet).
    search: u32,
    /// This member's processor in it, and how many take part.
    processor: Option<usize>,
    processors: usize,
    /// Whether that search runs, as far as this member heard: frames, `end` and `expel` go
    /// out only then (a search the relay ended is over there, whatever is still sent).
    running: bool,
    next_beat: Option<u64>,
    transmits: VecDeque<Transmit>,
    updates: VecDeque<Update>,
}

impl Client {
    /// A member that enters its class with `hello`; its first [`Transmit`] asks for a socket.
    pub fn new(hello: Hello) -> Client {
        Client {
            hello,
            socket: Socket::Opening,
            resume: None,
            resuming: None,
            over: false,
            search: 0,
            processor: None,
            processors: 0,
            running: false,
            next_beat: None,
            transmits: VecDeque::from([Transmit::Connect]),
            updates: VecDeque::new(),
        }
    }

    /// What to do with the socket next, oldest first.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    /// What the holder hears next, oldest first.
    pub fn poll_update(&mut self) -> Option<Update> {
        self.updates.pop_front()
    }

    /// When [`Client::tick`] has something to do (a beat, a try to resume), on the clock the
    /// holder feeds it; `None`: not before something else happens.
    pub fn deadline(&self) -> Option<u64> {
        let retry = self.resuming.as_ref().and_then(|r| r.retry_at);
        [self.next_beat, retry].into_iter().flatten().min()
    }

    /// The time is `now` (ms, from any origin, never going back): beats and tries to
    /// resume that are due.
    pub fn tick(&mut self, now: u64) {
        if self.next_beat.is_some_and(|at| at <= now) {
            self.text(Request::Beat);
            self.next_beat = Some(now + BEAT_MS);
        }
        if let Some(resuming) = &mut self.resuming {
            if resuming.retry_at.is_some_and(|at| at <= now) {
                resuming.retry_at = None;
                self.socket = Socket::Opening;
                self.transmits.push_back(Transmit::Connect);
            }
        }
    }

    /// The socket asked for is open: the client enters (or re-enters) its session and starts
    /// beating.
    pub fn opened(&mut self, now: u64) {
        if self.over {
            return self.transmits.push_back(Transmit::Close("left".into()));
        }
        self.socket = Socket::Open;
        self.next_beat = Some(now + BEAT_MS);
        let hello = match (&self.resuming, &self.resume, &self.hello) {
            (Some(_), Some((code, token)), _) => Request::Resume { code: code.clone(), token: token.clone() },
            (_, _, Hello::Create { token }) => Request::Create { token: token.clone() },
            (_, _, Hello::Join { code }) => Request::Join { code: code.clone() },
        };
        self.text(hello);
    }

    /// A text from the relay. What is no notice is dropped; while the owner resumes, only
    /// the answer to its `resume` counts.
    pub fn received_text(&mut self, text: &str) {
        let Ok(notice) = Notice::parse(text) else { return };
        if let Some(resuming) = &mut self.resuming {
            match notice {
                Notice::Resumed { .. } => {
                    self.resuming = None;
                    self.updates.push_back(Update::Resumed);
                }
                Notice::Error { message } => resuming.refused = Some(message),
                _ => {}
            }
            return;
        }
        let update = match notice {
            Notice::Created { code, member, resume } => {
                self.resume = Some((code.clone(), resume));
                (self.processor, self.processors) = (Some(0), 1);
                Update::Created { code, member }
            }
            Notice::Resumed { .. } => return,
            Notice::Away { within_ms } => Update::Away { within_ms },
            Notice::Back => Update::Back,
            Notice::Joined { member } => Update::Joined { member },
            Notice::Waiting => Update::Waiting,
            Notice::Search { search, processor, processors, members, network } => {
                (self.search, self.processor, self.processors, self.running) = (search, Some(processor), processors, true);
                Update::Search { search, processor, processors, members, network }
            }
            Notice::Ended { search } => {
                if search == self.search {
                    self.running = false;
                }
                Update::Ended { search }
            }
            Notice::Error { message } => Update::Error(message),
            Notice::Members { members } => Update::Members(members),
            Notice::Lost { search, processor } if search == self.search => Update::Lost(processor),
            Notice::Lost { .. } => return,
            Notice::Closed { reason } => {
                self.transmits.push_back(Transmit::Close("the session closed".into()));
                return self.finish(reason);
            }
            Notice::Trace { events, dropped } => Update::Trace { events, dropped },
        };
        self.updates.push_back(update);
    }

    /// A binary message from the relay, `[from: u16 LE][frame]`. Bytes that are no frame
    /// are dropped (the relay checked them; nothing here trusts that).
    pub fn received_binary(&mut self, bytes: &[u8]) {
        if let (false, Some(frame)) = (self.over, Frame::stamped(bytes)) {
            self.updates.push_back(Update::Frame(frame));
        }
    }

    /// The socket is gone (`reason`), or the one asked for could not be opened: the owner
    /// tries to resume, anyone else's membership is over.
    pub fn closed(&mut self, reason: &str, now: u64) {
        let opened = self.socket == Socket::Open;
        self.socket = Socket::None;
        self.next_beat = None;
        if self.over {
            return;
        }
        let Some(resuming) = &mut self.resuming else {
            if self.resume.is_none() {
                if !opened {
                    self.updates.push_back(Update::Error(format!("the relay cannot be reached: {reason}")));
                }
                return self.finish(reason.to_string());
            }
            self.resuming = Some(Resuming { until: now + RESUME_WITHIN_MS, refused: None, retry_at: None });
            self.cut_short();
            self.updates.push_back(Update::Dropped);
            self.socket = Socket::Opening;
            return self.transmits.push_back(Transmit::Connect);
        };
        if now >= resuming.until {
            let why = resuming.refused.take().unwrap_or_else(|| reason.to_string());
            let within = RESUME_WITHIN_MS / 1000;
            return self.finish(format!("the connection to the relay dropped and the class could not be resumed within {within} s ({why})"));
        }
        resuming.retry_at = Some(now + RESUME_RETRY_MS);
    }

    /// The owner starts a search on every live member (`network`: a `crate::net` name).
    pub fn start(&mut self, network: Option<String>) -> Result<(), String> {
        if self.resume.is_none() || self.resuming.is_some() || self.socket != Socket::Open {
            return Err("only the lecturer starts a search, once the class is created and while it is connected".into());
        }
        self.text(Request::Start { network });
        Ok(())
    }

    /// Sends `frame` to processor `to` of the running search; dropped when none runs or
    /// the socket is not open (the relay would drop it as late).
    pub fn send_frame(&mut self, to: usize, frame: &[u8]) {
        if self.running && self.socket == Socket::Open {
            self.transmits.push_back(Transmit::Binary(addressed(to, frame)));
        }
    }

    /// Processor 0's search is over, every DONE in: the relay lets late joiners in.
    pub fn end(&mut self) {
        if self.running && self.socket == Socket::Open {
            self.text(Request::End);
        }
    }

    /// The owner has the relay cut processor `processor` off (`reason`: it broke the
    /// search's end). Whether the class goes on without it: yes while the membership lasts
    /// (with the socket down the relay already ended the search, and every other processor
    /// is lost to this one).
    pub fn expel(&mut self, processor: usize, reason: &str) -> bool {
        if self.running && self.socket == Socket::Open {
            self.text(Request::Expel { processor, reason: reason.to_string() });
        }
        !self.over
    }

    /// The member leaves: its socket closes normally, which ends the session if it owns it.
    pub fn leave(&mut self, reason: &str) {
        if self.over {
            return;
        }
        if self.socket != Socket::None {
            self.transmits.push_back(Transmit::Close(reason.to_string()));
        }
        self.finish(reason.to_string());
    }

    /// This member's processor cannot take part in the class's searches (`why`): it leaves,
    /// and the relay tells the others, who search again what they gave it.
    pub fn cannot_take_part(&mut self, why: &str) {
        if self.over {
            return;
        }
        let message = format!("this processor cannot take part in the class's searches, so it left the class: {why}");
        self.updates.push_back(Update::Error(message.clone()));
        if self.socket != Socket::None {
            self.transmits.push_back(Transmit::Close("cannot take part".into()));
        }
        self.finish(message);
    }

    /// The search this member takes or took part in (0: none yet).
    pub fn search(&self) -> u32 {
        self.search
    }

    /// This member's processor in that search, and how many took part.
    pub fn processor(&self) -> Option<(usize, usize)> {
        self.processor.map(|p| (p, self.processors))
    }

    /// Whether the membership is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    fn text(&mut self, request: Request) {
        self.transmits.push_back(Transmit::Text(request.to_json()));
    }

    /// This member's part in the running search is cut short: its processor hears the
    /// processors it can no longer reach lost.
    fn cut_short(&mut self) {
        let owner = matches!(self.hello, Hello::Create { .. });
        if owner && self.running {
            self.updates.extend((1..self.processors).map(Update::Lost));
        } else if !owner {
            self.updates.push_back(Update::Lost(0));
        }
        self.running = false;
    }

    /// The membership is over (`reason`).
    fn finish(&mut self, reason: String) {
        self.cut_short();
        self.over = true;
        self.socket = Socket::None;
        self.next_beat = None;
        self.resuming = None;
        self.updates.push_back(Update::Closed(reason));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::frame::{frame, FrameKind};

    /// The updates waiting, named (frames by their sender), oldest first.
    fn heard(client: &mut Client) -> Vec<String> {
        std::iter::from_fn(|| client.poll_update())
            .map(|update| match update {
                Update::Created { code, member } => format!("created {code} {member}"),
                Update::Joined { member } => format!("joined {member}"),
                Update::Waiting => "waiting".into(),
                Update::Search { search, processor, processors, .. } => format!("search {search} {processor}/{processors}"),
                Update::Ended { search } => format!("ended {search}"),
                Update::Members(members) => format!("members {members:?}"),
                Update::Frame(frame) => format!("frame from {}", frame.from),
                Update::Lost(processor) => format!("lost {processor}"),
                Update::Away { within_ms } => format!("away {within_ms}"),
                Update::Back => "back".into(),
                Update::Trace { events, dropped } => format!("trace {} {dropped}", events.len()),
                Update::Error(message) => format!("error {message}"),
                Update::Dropped => "dropped".into(),
                Update::Resumed => "resumed".into(),
                Update::Closed(reason) => format!("closed {reason}"),
            })
            .collect()
    }

    /// The transmits waiting, oldest first.
    fn sent(client: &mut Client) -> Vec<Transmit> {
        std::iter::from_fn(|| client.poll_transmit()).collect()
    }

    fn text(request: Request) -> Transmit {
        Transmit::Text(request.to_json())
    }

    fn notice(client: &mut Client, notice: Notice) {
        client.received_text(&notice.to_json());
    }

    fn search(search: u32, processor: usize, processors: usize) -> Notice {
        Notice::Search { search, processor, processors, members: (0..processors as u32).collect(), network: None }
    }

    /// A student that joined at time 0 and is processor 1 of 3 in search 1.
    fn student_in_search() -> Client {
        let mut client = Client::new(Hello::Join { code: "c".into() });
        sent(&mut client);
        client.opened(0);
        notice(&mut client, Notice::Joined { member: 1 });
        notice(&mut client, search(1, 1, 3));
        sent(&mut client);
        heard(&mut client);
        client
    }

    /// A lecturer that created its session at time 0 and runs search 1 on 3 processors.
    fn lecturer_in_search() -> Client {
        let mut client = Client::new(Hello::Create { token: "t".into() });
        assert_eq!(sent(&mut client), [Transmit::Connect]);
        client.opened(0);
        assert_eq!(sent(&mut client), [text(Request::Create { token: "t".into() })]);
        notice(&mut client, Notice::Created { code: "c".into(), member: 0, resume: "r".into() });
        client.start(None).unwrap();
        notice(&mut client, search(1, 0, 3));
        assert_eq!(sent(&mut client), [text(Request::Start { network: None })]);
        assert_eq!(heard(&mut client), ["created c 0", "search 1 0/3"]);
        client
    }

    /// The tab's beat timer was started before its socket opened and cleared itself at a
    /// first tick that found it still connecting: after a slow handshake an idle student
    /// was dropped for silence. The beats follow the open socket.
    #[test]
    fn a_slow_handshake_delays_the_beats_and_does_not_stop_them() {
        let mut client = Client::new(Hello::Join { code: "c".into() });
        assert_eq!(sent(&mut client), [Transmit::Connect]);
        assert_eq!(client.deadline(), None, "no beat before the socket opens");
        client.tick(1_500);
        assert_eq!(sent(&mut client), []);
        client.opened(2_000);
        assert_eq!(sent(&mut client), [text(Request::Join { code: "c".into() })]);
        assert_eq!(client.deadline(), Some(2_000 + BEAT_MS));
        for beat in 1..=3 {
            client.tick(2_000 + beat * BEAT_MS);
            assert_eq!(sent(&mut client), [text(Request::Beat)], "beat {beat}");
        }
        client.tick(2_000 + 3 * BEAT_MS + BEAT_MS / 2);
        assert_eq!(sent(&mut client), [], "not twice a beat");
    }

    /// A member may leave after search 1 ended but before the owner's `end` reached the
    /// relay: its notice names search 1, and in search 2 processor 2 is somebody else.
    #[test]
    fn a_loss_counts_only_in_the_search_it_names() {
        let mut client = student_in_search();
        notice(&mut client, Notice::Lost { search: 1, processor: 2 });
        notice(&mut client, Notice::Ended { search: 1 });
        notice(&mut client, search(2, 1, 3));
        notice(&mut client, Notice::Lost { search: 1, processor: 2 });
        notice(&mut client, Notice::Lost { search: 2, processor: 0 });
        assert_eq!(heard(&mut client), ["lost 2", "ended 1", "search 2 1/3", "lost 0"]);
    }

    /// A native `join` left on a task it could not take; a tab only posted an error and
    /// stayed on every later roster as a dead processor that still beat.
    #[test]
    fn a_member_that_cannot_take_part_leaves_and_beats_no_more() {
        let mut client = student_in_search();
        client.cannot_take_part("no memory for its table");
        assert_eq!(sent(&mut client), [Transmit::Close("cannot take part".into())]);
        let heard = heard(&mut client);
        assert!(heard[0].starts_with("error this processor cannot take part") && heard[0].ends_with("no memory for its table"), "{heard:?}");
        assert_eq!(heard[1], "lost 0", "its processor stops waiting for processor 0");
        assert!(heard[2].starts_with("closed ") && heard.len() == 3, "{heard:?}");
        assert!(client.is_over());
        assert_eq!(client.deadline(), None);
        client.tick(60_000);
        client.closed("gone", 60_000);
        assert_eq!(sent(&mut client), [], "no beat, no way back");
    }

    #[test]
    fn frames_end_and_expel_go_out_only_during_a_search_on_an_open_socket() {
        let mut client = student_in_search();
        let done = frame(FrameKind::Done, 1, &[]);
        client.send_frame(0, &done);
        assert_eq!(sent(&mut client), [Transmit::Binary(addressed(0, &done))]);
        let mut stamped = 2u16.to_le_bytes().to_vec();
        stamped.extend(frame(FrameKind::Program, 1, &[9]));
        client.received_binary(&stamped);
        client.received_binary(&[1, 0, 250]);
        assert_eq!(heard(&mut client), ["frame from 2"], "bytes that are no frame are dropped");
        notice(&mut client, Notice::Ended { search: 1 });
        client.send_frame(0, &done);
        client.end();
        assert!(client.expel(2, "late"), "the class goes on");
        assert_eq!(sent(&mut client), [], "the search is over at the relay");
    }

    /// The lecturer's socket cut during a search (the class page's browser test cuts a
    /// tab's against a real relay): its processor 0 hears the others lost and finishes
    /// alone, the client comes back with its token on a new socket, tries again while the
    /// relay has not noticed the drop, and the class goes on.
    #[test]
    fn the_owner_cut_off_resumes_with_its_token_and_the_class_goes_on() {
        let mut client = lecturer_in_search();
        client.closed("reset by peer", 5_000);
        assert_eq!(heard(&mut client), ["lost 1", "lost 2", "dropped"]);
        assert_eq!(sent(&mut client), [Transmit::Connect]);
        client.send_frame(1, &frame(FrameKind::Quit, 1, &[]));
        client.opened(5_100);
        let resume = text(Request::Resume { code: "c".into(), token: "r".into() });
        assert_eq!(sent(&mut client), std::slice::from_ref(&resume), "frames of the ended search are not sent");
        notice(&mut client, Notice::Error { message: "the session's owner is connected".into() });
        client.closed("refused", 5_200);
        assert_eq!(client.deadline(), Some(5_200 + RESUME_RETRY_MS));
        client.tick(5_200 + RESUME_RETRY_MS - 1);
        assert_eq!(sent(&mut client), []);
        client.tick(5_200 + RESUME_RETRY_MS);
        assert_eq!(sent(&mut client), [Transmit::Connect]);
        client.opened(6_300);
        assert_eq!(sent(&mut client), [resume]);
        notice(&mut client, Notice::Members { members: vec![0, 1, 2] });
        notice(&mut client, Notice::Resumed { code: "c".into(), member: 0 });
        notice(&mut client, Notice::Members { members: vec![0, 1, 2] });
        assert_eq!(heard(&mut client), ["resumed", "members [0, 1, 2]"], "only the answer counts while it resumes");
        client.start(None).unwrap();
        notice(&mut client, search(2, 0, 3));
        assert_eq!(heard(&mut client), ["search 2 0/3"]);
        client.leave("left");
        client.closed("left", 7_000);
        assert_eq!(sent(&mut client), [text(Request::Start { network: None }), Transmit::Close("left".into())]);
        assert_eq!(heard(&mut client), ["lost 1", "lost 2", "closed left"], "leaving is no drop");
    }

    #[test]
    fn the_owner_gives_up_resuming_after_the_relays_grace() {
        let mut client = lecturer_in_search();
        client.closed("reset", 0);
        heard(&mut client);
        let mut now = 0;
        while !client.is_over() {
            assert_eq!(sent(&mut client), [Transmit::Connect]);
            client.opened(now);
            sent(&mut client);
            notice(&mut client, Notice::Error { message: "no session with this code".into() });
            now += 100;
            client.closed("refused", now);
            now = client.deadline().unwrap_or(now);
            client.tick(now);
            assert!(now < 2 * RESUME_WITHIN_MS, "it gives up");
        }
        let heard = heard(&mut client);
        assert!(heard.len() == 1 && heard[0].contains("within 40 s (no session with this code)"), "{heard:?}");
        assert!(now >= RESUME_WITHIN_MS);
    }

    #[test]
    fn a_students_failed_socket_ends_its_membership_without_a_way_back() {
        let mut client = student_in_search();
        client.closed("reset", 3_000);
        assert_eq!(heard(&mut client), ["lost 0", "closed reset"]);
        assert_eq!(sent(&mut client), []);
        assert_eq!(client.deadline(), None);
    }

    #[test]
    fn a_closed_session_is_not_resumed() {
        let mut client = lecturer_in_search();
        notice(&mut client, Notice::Closed { reason: "the relay is stopping".into() });
        client.closed("closed", 100);
        assert_eq!(heard(&mut client), ["lost 1", "lost 2", "closed the relay is stopping"]);
        assert_eq!(sent(&mut client), [Transmit::Close("the session closed".into())]);
        assert!(client.start(None).is_err());
    }

    #[test]
    fn a_relay_that_cannot_be_reached_is_said_so() {
        let mut client = Client::new(Hello::Create { token: "t".into() });
        sent(&mut client);
        client.closed("connection refused", 0);
        assert_eq!(heard(&mut client), ["error the relay cannot be reached: connection refused", "closed connection refused"]);
        assert_eq!(sent(&mut client), []);
    }

    #[test]
    fn only_the_connected_owner_starts_a_search() {
        let mut student = student_in_search();
        assert!(student.start(None).is_err());
        let mut owner = Client::new(Hello::Create { token: "t".into() });
        assert!(owner.start(None).is_err(), "before the session exists");
        owner.opened(0);
        notice(&mut owner, Notice::Created { code: "c".into(), member: 0, resume: "r".into() });
        assert_eq!(owner.start(Some("ring".into())), Ok(()));
        assert_eq!(sent(&mut owner).last(), Some(&text(Request::Start { network: Some("ring".into()) })));
    }
}
