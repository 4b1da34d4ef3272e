//! Frames: what the processors of a machine made of several processes say to each other
//! (over MPI, or through the class's relay). A frame is a kind byte, the number of the
//! search it belongs to, and bytes; the link it travels on names its sender. The relay
//! reads the header only, to refuse frames that no honest processor sends.

use super::wire::{Reader, WireError, Writer};

/// The bytes before a frame's body: its kind and its search's number.
pub const FRAME_HEADER: usize = 5;

/// What a frame says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A program's message to the program on the receiving processor.
    Program,
    /// Processor 0 to the others: a search starts, here is the task to build programs from.
    Start,
    /// Processor 0 to the others: processor 0 has finished; finish now.
    Finished,
    /// A processor to processor 0: finished, with its counters.
    Done,
    /// A processor to processor 0: how many nodes it has searched so far.
    Nodes,
    /// Processor 0 to the others: the engine quits; end the process.
    Quit,
    /// A lookup in the distributed table, to the processor holding the entry.
    TableRequest,
    /// The holder's answer to a lookup.
    TableAnswer,
    /// A result to store, to the processor holding the entry.
    TablePut,
}

impl FrameKind {
    const ALL: [FrameKind; 9] = [
        FrameKind::Program,
        FrameKind::Start,
        FrameKind::Finished,
        FrameKind::Done,
        FrameKind::Nodes,
        FrameKind::Quit,
        FrameKind::TableRequest,
        FrameKind::TableAnswer,
        FrameKind::TablePut,
    ];

    /// The kind a frame's first byte names, if any.
    pub fn from_byte(byte: u8) -> Option<FrameKind> {
        FrameKind::ALL.get(byte as usize).copied()
    }

    /// Whether only processor 0 (the search's owner) may send it: the frames that start,
    /// end and quit searches.
    pub fn owner_only(self) -> bool {
        matches!(self, FrameKind::Start | FrameKind::Finished | FrameKind::Quit)
    }

    /// Its name, for traces and errors.
    pub fn name(self) -> &'static str {
        match self {
            FrameKind::Program => "program",
            FrameKind::Start => "start",
            FrameKind::Finished => "finished",
            FrameKind::Done => "done",
            FrameKind::Nodes => "nodes",
            FrameKind::Quit => "quit",
            FrameKind::TableRequest => "table-request",
            FrameKind::TableAnswer => "table-answer",
            FrameKind::TablePut => "table-put",
        }
    }
}

/// One received frame.
pub struct Frame {
    /// The processor that sent it (as its link says: MPI's status, the relay's stamp).
    pub from: usize,
    /// What it says.
    pub kind: FrameKind,
    /// The search it belongs to.
    pub search: u32,
    /// What it carries.
    pub body: Vec<u8>,
}

impl Frame {
    /// The frame in `bytes` from processor `from`: a known kind and a whole header, or an
    /// error.
    pub fn parse(from: usize, mut bytes: Vec<u8>) -> Result<Frame, WireError> {
        let mut r = Reader::new(&bytes);
        let kind = FrameKind::from_byte(r.u8()?).ok_or_else(|| WireError("frame kind".into()))?;
        let search = r.u32()?;
        bytes.drain(..FRAME_HEADER);
        Ok(Frame { from, kind, search, body: bytes })
    }
}

/// A frame as it travels through the class's relay: `[processor: u16 LE][frame]`, the
/// receiver on the way in, the sender (the relay's stamp) on the way out.
pub fn addressed(processor: usize, frame: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(2 + frame.len());
    bytes.extend_from_slice(&(processor as u16).to_le_bytes());
    bytes.extend_from_slice(frame);
    bytes
}

impl Frame {
    /// The frame in relayed `bytes` ([`addressed`] by the relay with its sender), if they
    /// hold one.
    pub fn stamped(bytes: &[u8]) -> Option<Frame> {
        let (from, frame) = bytes.split_first_chunk::<2>()?;
        Frame::parse(u16::from_le_bytes(*from) as usize, frame.to_vec()).ok()
    }
}

/// The frame bytes: kind, search, body.
pub fn frame(kind: FrameKind, search: u32, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(FRAME_HEADER + body.len());
    let mut w = Writer(&mut bytes);
    w.u8(kind as u8);
    w.u32(search);
    bytes.extend_from_slice(body);
    bytes
}

/// A frame of two words built on the stack, as the distributed table's frames are (one
/// lookup or store a node: no allocation for them).
pub struct SmallFrame {
    bytes: [u8; FRAME_HEADER + 16],
}

impl SmallFrame {
    /// The frame `kind` of search `search` carrying `first` and `second`.
    pub fn new(kind: FrameKind, search: u32, first: u64, second: u64) -> SmallFrame {
        let mut bytes = [0u8; FRAME_HEADER + 16];
        bytes[0] = kind as u8;
        bytes[1..5].copy_from_slice(&search.to_le_bytes());
        bytes[5..13].copy_from_slice(&first.to_le_bytes());
        bytes[13..21].copy_from_slice(&second.to_le_bytes());
        SmallFrame { bytes }
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reads_back_and_bad_headers_are_refused() {
        let f = Frame::parse(3, frame(FrameKind::Nodes, 7, &[1, 2])).unwrap();
        assert_eq!((f.from, f.kind, f.search, f.body), (3, FrameKind::Nodes, 7, vec![1, 2]));
        assert!(Frame::parse(0, vec![9, 0, 0, 0, 0]).is_err(), "kind 9 is no kind");
        assert!(Frame::parse(0, vec![0, 1, 2]).is_err(), "a header cut short");
        assert!(FrameKind::Start.owner_only() && !FrameKind::Done.owner_only());
        let relayed = Frame::stamped(&addressed(300, &frame(FrameKind::Done, 2, &[9]))).unwrap();
        assert_eq!((relayed.from, relayed.kind, relayed.body), (300, FrameKind::Done, vec![9]));
        assert!(Frame::stamped(&[1]).is_none());
    }
}
