//! The relay's side of the class protocol: the messages are the clients' own types
//! (`crate::machine::cluster::relay::protocol`, re-exported here), and here are the checks a
//! data frame's header must pass before it is forwarded. Pure functions, so the rules can
//! be read and tested apart from the sockets.

pub use crate::machine::cluster::relay::protocol::{Event, Ev, Notice, Request, ADDRESS};
use crate::machine::frame::{FrameKind, FRAME_HEADER};

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
    }
}
