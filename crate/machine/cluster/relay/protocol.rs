//! The class relay's words, as types that read and write: the control messages a client
//! sends ([`Request`]) and the relay's answers and notices ([`Notice`]), JSON text tagged by
//! `"type"`, with the trace events the owner is streamed. The relay (`crate::relay`) and
//! every client (native processes through [`super::RelayLink`], browser tabs through
//! `crate::wasm`) speak these same types, so the protocol is written once. Its rules are in
//! `crate::relay`'s documentation.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The bytes before a frame on the wire: the processor it goes to (client to relay) or
/// comes from (relay to client), as a little-endian u16.
pub const ADDRESS: usize = 2;

/// The longest control message a client may send; real ones are a few dozen bytes.
pub const MAX_REQUEST: usize = 4096;

/// A client's control message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Request {
    /// Open a session and own it (member 0): the lecturer's, with its token.
    Create {
        /// The relay's lecturer token (`--lecturer-token-file`, or printed at its start).
        #[serde(default)]
        token: String,
    },
    /// The owner comes back to its session after its connection dropped, within the
    /// relay's grace period, with the `resume` token `created` gave it.
    Resume {
        /// The session's code.
        code: String,
        /// The `resume` token of `created`.
        token: String,
    },
    /// Join the session with this code.
    Join {
        /// The code `created` gave the owner.
        code: String,
    },
    /// Owner only: freeze the roster and start a search, optionally on a virtual network.
    Start {
        /// A name from `crate::net` (`hypercube`, `fat-tree`, ...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        network: Option<String>,
    },
    /// Owner only: the running search is over.
    End,
    /// Owner only: cut off processor `processor` of the running search, which broke its
    /// end (its counters unreadable, or none in time); it is lost like a tab that vanished.
    Expel {
        /// The processor, in the running search.
        processor: usize,
        /// Why, for its close frame and the trace.
        #[serde(default)]
        reason: String,
    },
    /// A heartbeat; every message counts as one.
    Beat,
}

impl Request {
    /// The request in `text`, or why it is refused.
    pub fn parse(text: &str) -> Result<Request, String> {
        if text.len() > MAX_REQUEST {
            return Err(format!("a control message longer than {MAX_REQUEST} bytes"));
        }
        serde_json::from_str(text).map_err(|e| format!("bad control message: {e}"))
    }

    /// The JSON text sent on the socket.
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

/// The relay's control message to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Notice {
    /// To the creator: its session's code (it is member 0), and the token it resumes the
    /// session with if its connection drops.
    Created {
        /// The code students join with.
        code: String,
        /// The creator's member number (0).
        member: u32,
        /// The token the owner resumes with.
        resume: String,
    },
    /// To an owner that resumed its session.
    Resumed {
        /// The session's code.
        code: String,
        /// The owner's member number (0).
        member: u32,
    },
    /// To every member: the owner's connection dropped; the session waits this long for
    /// it to resume, and closes after.
    Away {
        /// How long the session waits, ms.
        within_ms: u64,
    },
    /// To every member: the owner that was away resumed; the class goes on.
    Back,
    /// To a member that joined: its number in the session.
    Joined {
        /// Its member number.
        member: u32,
    },
    /// To a member that joined during a search: it takes part in the next one.
    Waiting,
    /// To each participant of a search that starts: its processor and the roster.
    Search {
        /// The search's number, 1, 2, ... per session.
        search: u32,
        /// The receiver's processor in it.
        processor: usize,
        /// How many processors take part.
        processors: usize,
        /// The member of each processor, processor 0 (the owner) first.
        members: Vec<u32>,
        /// The virtual network the relay routes the search's frames on, if one was named.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        network: Option<String>,
    },
    /// To each participant: the search is over.
    Ended {
        /// The search's number.
        search: u32,
    },
    /// A request refused (the connection is closed after it unless it came from the owner
    /// and the rules allow a retry).
    Error {
        /// Why.
        message: String,
    },
    /// To the owner: the live members, whenever one joins or leaves.
    Members {
        /// Their member numbers, in order.
        members: Vec<u32>,
    },
    /// To every other participant: this processor of search `search` (the running one, as
    /// the relay sees it) is gone.
    Lost {
        /// The search the loss is in.
        search: u32,
        /// The processor lost.
        processor: usize,
    },
    /// To everyone: the owner has left, the session is over.
    Closed {
        /// Why.
        reason: String,
    },
    /// To the owner: the trace events since the last batch, and how many were left out of
    /// the stream so far (the batches are bounded).
    Trace {
        /// The events, oldest first.
        events: Vec<Event>,
        /// How many the stream has left out so far.
        dropped: u64,
    },
}

impl Notice {
    /// The notice in `text`, or why it is none.
    pub fn parse(text: &str) -> Result<Notice, String> {
        serde_json::from_str(text).map_err(|e| format!("not a notice of the relay: {e}"))
    }

    /// The JSON text sent on the socket.
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

/// `message` as JSON text. Serializing these plain types cannot fail; an empty text would
/// be refused by the other end rather than crash this one.
fn to_json(message: &impl Serialize) -> String {
    serde_json::to_string(message).unwrap_or_default()
}

/// What happened, in a trace [`Event`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ev {
    /// A member joined (the owner at creation).
    Join,
    /// A member left: closed, cut off or silent.
    Leave,
    /// A participant of the running search was lost.
    Lost,
    /// A search started.
    Start,
    /// A search ended.
    End,
    /// The relay accepted a frame.
    Send,
    /// The relay handed a frame to the receiver's socket.
    Deliver,
    /// A message refused; its sender is cut off.
    Refused,
}

/// One event of a session's trace; the fields that do not apply are left out of the JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Microseconds since the session was created, stamped when recorded.
    pub t: u64,
    /// What happened.
    pub ev: Ev,
    /// The member it concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<u32>,
    /// The search it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<u32>,
    /// The processor lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processor: Option<u16>,
    /// A search's processor count (at its start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processors: Option<u16>,
    /// A frame's sending processor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u16>,
    /// A frame's receiving processor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u16>,
    /// A frame's kind (`FrameKind::name`): borrowed where the relay writes it, owned where
    /// a client reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Cow<'static, str>>,
    /// A frame's length on the wire, address included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u32>,
    /// A frame's route length on the search's virtual network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hops: Option<u16>,
    /// Why a member left or a message was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Event {
    /// An event of kind `ev` with no fields yet (struct update syntax fills them).
    pub fn new(ev: Ev) -> Event {
        Event {
            t: 0,
            ev,
            member: None,
            search: None,
            processor: None,
            processors: None,
            from: None,
            to: None,
            kind: None,
            bytes: None,
            hops: None,
            reason: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_by_type_and_anything_else_is_refused() {
        assert_eq!(Request::parse(r#"{"type":"join","code":"ab"}"#), Ok(Request::Join { code: "ab".into() }));
        assert_eq!(Request::parse(r#"{"type":"create","token":"t"}"#), Ok(Request::Create { token: "t".into() }));
        assert_eq!(Request::parse(r#"{"type":"create"}"#), Ok(Request::Create { token: String::new() }));
        assert_eq!(
            Request::parse(r#"{"type":"resume","code":"c","token":"r"}"#),
            Ok(Request::Resume { code: "c".into(), token: "r".into() })
        );
        assert_eq!(Request::parse(r#"{"type":"start"}"#), Ok(Request::Start { network: None }));
        assert_eq!(
            Request::parse(r#"{"type":"expel","processor":2}"#),
            Ok(Request::Expel { processor: 2, reason: String::new() })
        );
        assert_eq!(
            Request::parse(r#"{"type":"start","network":"ring"}"#),
            Ok(Request::Start { network: Some("ring".into()) })
        );
        for bad in ["", "{}", r#"{"type":"shout"}"#, r#"{"type":"join"}"#, "[1]", "\u{0}"] {
            assert!(Request::parse(bad).is_err(), "{bad:?}");
        }
        assert!(Request::parse(&format!(r#"{{"type":"beat","pad":"{}"}}"#, "x".repeat(5000)))
            .unwrap_err()
            .contains("longer"));
    }

    /// What a client writes the relay reads as the same request, and what the relay writes
    /// a client reads as the same notice: one set of types, no second spelling to drift.
    #[test]
    fn every_message_reads_back_as_itself() {
        let requests = [
            Request::Create { token: "t".into() },
            Request::Resume { code: "c".into(), token: "r".into() },
            Request::Join { code: "c".into() },
            Request::Start { network: None },
            Request::Start { network: Some("fat-tree".into()) },
            Request::End,
            Request::Expel { processor: 3, reason: "no DONE".into() },
            Request::Beat,
        ];
        for request in requests {
            assert_eq!(Request::parse(&request.to_json()), Ok(request.clone()), "{}", request.to_json());
        }
        let send = Event { member: Some(2), from: Some(1), to: Some(0), kind: Some(Cow::Borrowed("done")), bytes: Some(40), ..Event::new(Ev::Send) };
        let notices = [
            Notice::Created { code: "c".into(), member: 0, resume: "r".into() },
            Notice::Resumed { code: "c".into(), member: 0 },
            Notice::Away { within_ms: 30_000 },
            Notice::Back,
            Notice::Joined { member: 4 },
            Notice::Waiting,
            Notice::Search { search: 2, processor: 1, processors: 3, members: vec![0, 4, 5], network: Some("ring".into()) },
            Notice::Ended { search: 2 },
            Notice::Error { message: "no".into() },
            Notice::Members { members: vec![0, 4] },
            Notice::Lost { search: 2, processor: 1 },
            Notice::Closed { reason: "the owner left".into() },
            Notice::Trace { events: vec![send, Event::new(Ev::End)], dropped: 7 },
        ];
        for notice in notices {
            assert_eq!(Notice::parse(&notice.to_json()), Ok(notice.clone()), "{}", notice.to_json());
        }
    }

    #[test]
    fn the_wire_spelling_is_the_documented_one() {
        let notice = Notice::Search { search: 1, processor: 0, processors: 2, members: vec![0, 3], network: None }.to_json();
        assert_eq!(notice, r#"{"type":"search","search":1,"processor":0,"processors":2,"members":[0,3]}"#);
        assert_eq!(Request::Start { network: None }.to_json(), r#"{"type":"start"}"#);
        assert_eq!(Request::Beat.to_json(), r#"{"type":"beat"}"#);
        assert_eq!(Notice::Away { within_ms: 5 }.to_json(), r#"{"type":"away","within_ms":5}"#);
        let event = Event { member: Some(3), ..Event::new(Ev::Join) };
        assert_eq!(serde_json::to_string(&event).unwrap(), r#"{"t":0,"ev":"join","member":3}"#);
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_a_request_or_refused(text in "\\PC{0,40}|\\{\"type\":\"[a-z]{0,6}\"[^}]{0,20}\\}") {
            let _ = Request::parse(&text);
        }

        #[test]
        fn any_text_is_a_notice_or_refused(text in "\\PC{0,40}|\\{\"type\":\"[a-z]{0,7}\"[^}]{0,30}\\}") {
            let _ = Notice::parse(&text);
        }
    }
}
