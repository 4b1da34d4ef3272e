//! The message vocabulary every parallel algorithm speaks (Zugzwang's names, plus DTS's
//! and the table's). Machines count and show messages by kind; what a message carries is
//! the algorithm's business, so machines are generic over the payload type.

use super::wire::WireError;

/// Kinds of message, as counted, traced and drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// An idle processor asks for a subproblem.
    WorkRequest,
    /// A subproblem: a position with its window and depth.
    Work,
    /// The asked processor has nothing to give.
    NoWork,
    /// The value of a subproblem, back to its owner.
    Result,
    /// The owner's window narrowed: the helper may cut more.
    NewBound,
    /// The owner no longer needs the subproblem.
    Cutoff,
    /// An idle processor asks everyone for a split point (DTS).
    Help,
    /// A busy processor's offer of split points, or the choice of one (DTS).
    Split,
    /// A position sent to its home processor (TDS), or a table lookup.
    TtRequest,
    /// A table entry or a position's value, back to the asker.
    TtAnswer,
    /// A table entry stored at its home processor.
    TtPut,
    /// The machine tells a program that a processor is gone (a class's tab that left).
    Lost,
}

impl MessageKind {
    /// Every kind, in a fixed order (counters are indexed by it).
    pub const ALL: [MessageKind; 12] = [
        MessageKind::WorkRequest,
        MessageKind::Work,
        MessageKind::NoWork,
        MessageKind::Result,
        MessageKind::NewBound,
        MessageKind::Cutoff,
        MessageKind::Help,
        MessageKind::Split,
        MessageKind::TtRequest,
        MessageKind::TtAnswer,
        MessageKind::TtPut,
        MessageKind::Lost,
    ];

    /// The number of kinds.
    pub const COUNT: usize = MessageKind::ALL.len();

    /// This kind's index in [`MessageKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in tables, traces and the UI.
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::WorkRequest => "work-request",
            MessageKind::Work => "work",
            MessageKind::NoWork => "no-work",
            MessageKind::Result => "result",
            MessageKind::NewBound => "new-bound",
            MessageKind::Cutoff => "cutoff",
            MessageKind::Help => "help",
            MessageKind::Split => "split",
            MessageKind::TtRequest => "tt-request",
            MessageKind::TtAnswer => "tt-answer",
            MessageKind::TtPut => "tt-put",
            MessageKind::Lost => "lost",
        }
    }
}

/// What a machine needs to know of a message: its kind, and its bytes for a machine
/// whose processors share no memory (a cluster's processes).
pub trait Payload: Send {
    /// The message's kind.
    fn kind(&self) -> MessageKind;
    /// Appends the message's bytes to `out`.
    fn encode(&self, out: &mut Vec<u8>);
    /// The message `bytes` (from [`Payload::encode`]) stand for.
    fn decode(bytes: &[u8]) -> Result<Self, WireError>
    where
        Self: Sized;
    /// The message telling a program that `processor` is gone (a machine whose processors
    /// can vanish mid-search makes it; it never travels). `None`: these programs cannot
    /// go on without a processor, so such a machine does not run them.
    fn lost(_processor: usize) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}
