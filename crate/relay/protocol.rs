//! The relay's words: the control messages in both directions (JSON text, tagged by
//! `"type"`) and the checks a data frame's header must pass before it is forwarded. Pure
//! functions, so the rules can be read and tested apart from the sockets.

use super::trace::Event;
use crate::machine::frame::{FrameKind, FRAME_HEADER};
use serde::{Deserialize, Serialize};

/// The bytes before a frame on the wire: the processor it goes to (client to relay) or
/// comes from (relay to client), as a little-endian u16.
pub const ADDRESS: usize = 2;

/// The longest control message a client may send; real ones are a few dozen bytes.
const MAX_REQUEST: usize = 4096;

/// A client's control message.
#[derive(Debug, PartialEq, Eq, Deserialize)]
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
    Resume { code: String, token: String },
    /// Join the session with this code.
    Join {
        /// The code `created` gave the owner.
        code: String,
    },
    /// Owner only: freeze the roster and start a search, optionally on a virtual network.
    Start {
        /// A name from `crate::net` (`hypercube`, `fat-tree`, ...).
        #[serde(default)]
        network: Option<String>,
    },
    /// Owner only: the running search is over.
    End,
    /// Owner only: cut off processor `processor` of the running search, which broke its
    /// end (its counters unreadable, or none in time); it is lost like a tab that vanished.
    Expel {
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
}

/// The relay's control message to a client.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Notice {
    /// To the creator: its session's code (it is member 0), and the token it resumes the
    /// session with if its connection drops.
    Created { code: String, member: u32, resume: String },
    /// To an owner that resumed its session.
    Resumed { code: String, member: u32 },
    /// To every member: the owner's connection dropped; the session waits this long for
    /// it to resume, and closes after.
    Away { within_ms: u64 },
    /// To a member that joined: its number in the session.
    Joined { member: u32 },
    /// To a member that joined during a search: it takes part in the next one.
    Waiting,
    /// To each participant of a search that starts: its processor and the roster.
    Search {
        search: u32,
        processor: usize,
        processors: usize,
        /// The member of each processor, processor 0 (the owner) first.
        members: Vec<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        network: Option<&'static str>,
    },
    /// To each participant: the search is over.
    Ended { search: u32 },
    /// A request refused (the connection is closed after it unless it came from the owner
    /// and the rules allow a retry).
    Error { message: String },
    /// To the owner: the live members, whenever one joins or leaves.
    Members { members: Vec<u32> },
    /// To every other participant: this processor of search `search` (the running one, as
    /// the relay sees it) is gone.
    Lost { search: u32, processor: usize },
    /// To everyone: the owner has left, the session is over.
    Closed { reason: String },
    /// To the owner: the trace events since the last batch, and how many were left out of
    /// the stream so far (the batches are bounded).
    Trace { events: Vec<Event>, dropped: u64 },
}

impl Notice {
    /// The JSON text sent on the socket.
    pub fn to_json(&self) -> String {
        // Serializing these plain structs cannot fail; an empty text would be refused by
        // every client rather than crash the relay.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A forwardable frame's header, read by [`address`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addressed {
    /// The receiving processor.
    pub to: usize,
    /// The frame's kind.
    pub kind: FrameKind,
    /// The search the frame says it belongs to.
    pub search: u32,
}

/// Reads `[to: u16][frame]` sent by processor `from` of a search of `processors`: its
/// address and header, or why no honest processor sends it (then the sender is cut off).
/// Checked in this order: length, kind, who may send the kind, the receiver.
pub fn address(message: &[u8], from: usize, processors: usize, max_frame: usize) -> Result<Addressed, String> {
    let Some(&[to_low, to_high, kind, s0, s1, s2, s3]) = message.get(..ADDRESS + FRAME_HEADER) else {
        return Err(format!("a frame shorter than its header ({} bytes)", message.len()));
    };
    if message.len() > max_frame {
        return Err(format!("a frame longer than {max_frame} bytes ({})", message.len()));
    }
    let kind = FrameKind::from_byte(kind).ok_or_else(|| format!("unknown frame kind {kind}"))?;
    if kind.owner_only() && from != 0 {
        return Err(format!("only processor 0 sends {} frames", kind.name()));
    }
    let to = usize::from(u16::from_le_bytes([to_low, to_high]));
    if to >= processors {
        return Err(format!("a frame to processor {to} in a search of {processors}"));
    }
    if to == from {
        return Err(format!("a frame from processor {from} to itself"));
    }
    Ok(Addressed { to, kind, search: u32::from_le_bytes([s0, s1, s2, s3]) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::frame::frame;

    fn to(processor: u16, kind: FrameKind, search: u32) -> Vec<u8> {
        let mut message = processor.to_le_bytes().to_vec();
        message.extend(frame(kind, search, &[7; 3]));
        message
    }

    #[test]
    fn a_frame_passes_only_with_a_whole_header_a_known_kind_and_a_fair_address() {
        let ok = address(&to(2, FrameKind::Program, 9), 1, 3, 100);
        assert_eq!(ok, Ok(Addressed { to: 2, kind: FrameKind::Program, search: 9 }));
        assert!(address(&to(0, FrameKind::Start, 1), 0, 3, 100).is_err(), "processor 0 to itself");
        assert!(address(&to(1, FrameKind::Start, 1), 0, 3, 100).is_ok(), "the owner starts");
        let refused = |message: &[u8], from: usize| address(message, from, 3, 100).unwrap_err();
        assert!(refused(&to(2, FrameKind::Program, 1)[..6], 1).contains("shorter"));
        assert!(refused(&[to(2, FrameKind::Program, 1), vec![0; 100]].concat(), 1).contains("longer than 100"));
        let mut unknown = to(2, FrameKind::Program, 1);
        unknown[2] = 200;
        assert!(refused(&unknown, 1).contains("unknown frame kind 200"));
        assert!(refused(&to(2, FrameKind::Quit, 1), 1).contains("only processor 0 sends quit"));
        assert!(refused(&to(3, FrameKind::Done, 1), 1).contains("processor 3 in a search of 3"));
        assert!(refused(&to(1, FrameKind::Done, 1), 1).contains("to itself"));
    }

    proptest::proptest! {
        /// Whatever arrives, the checks answer; they never panic.
        #[test]
        fn any_bytes_are_addressed_or_refused(message in proptest::collection::vec(proptest::num::u8::ANY, 0..40), from in 0usize..5, processors in 1usize..5) {
            if let Ok(header) = address(&message, from, processors, 32) {
                proptest::prop_assert!(header.to < processors && header.to != from && message.len() <= 32);
            }
        }

        #[test]
        fn any_text_is_a_request_or_refused(text in "\\PC{0,40}|\\{\"type\":\"[a-z]{0,6}\"[^}]{0,20}\\}") {
            let _ = Request::parse(&text);
        }
    }

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
        let notice =
            Notice::Search { search: 1, processor: 0, processors: 2, members: vec![0, 3], network: None }.to_json();
        assert_eq!(notice, r#"{"type":"search","search":1,"processor":0,"processors":2,"members":[0,3]}"#);
    }
}
