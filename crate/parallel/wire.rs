//! Every parallel message as a machine's [`Payload`], in one place: its kind for the
//! counters, and its bytes for machines whose processors share no memory
//! (`machine::cluster`). The work-splitting algorithms' [`Message`], TDSAB's
//! [`TdsMessage`], APHID's [`AphidMessage`], and the [`HelperTask`] from which a processor in another process
//! builds its program. No paper: the papers' machines had their own message formats.
//!
//! Invariants: decoding what was encoded gives the message back, field for field (the
//! round-trip tests below catch a field added to one direction only); bytes that are no
//! message — an unknown variant, a short or overlong body — decode to a [`WireError`],
//! never a panic. A field added to a message is added here, to both directions.

use super::aphid::message::{AphidMessage, LeafProblem, LeafValue, Want};
use super::message::{Message, Pace};
use super::tdsab::job::{Job, Target, TdsMessage};
use super::Algorithm;
use crate::machine::wire::{Reader, WireError, Writer};
use crate::machine::{MessageKind, Payload};
use crate::eval::Evaluation;
use crate::search::{NodeKind, SearchOptions, Subproblem, TreePath, INFINITY, MAX_PLY};
use cozy_chess::Board;

/// What a processor in another process needs to build its program for one search.
#[derive(Clone, Debug, PartialEq)]
pub struct HelperTask {
    /// The algorithm (one that runs on separate memories: see `Algorithm::needs_shared_memory`).
    pub algorithm: Algorithm,
    /// The root position.
    pub board: Board,
    /// Hashes of the game before it.
    pub history: Vec<u64>,
    /// Processor 0's search options (`Pure`, `Eval`): every process searches alike.
    pub options: SearchOptions,
    /// The size of processor 0's table: each process keeps a table of that size.
    pub hash_mib: usize,
    /// How often processor 0's table has been emptied: a process empties its own when this
    /// changes (after `ucinewgame`, `Clear Hash`, or a measurement's fresh start).
    pub table_clears: u32,
    /// Whether the processes' tables are the parts of one distributed table (entry h at
    /// processor h mod p) rather than a table of their own each.
    pub distributed: bool,
}

/// One byte per variant, in declaration order.
fn tag(bytes: &mut Reader<'_>, variants: u8, what: &str) -> Result<u8, WireError> {
    let t = bytes.u8()?;
    if t >= variants {
        return Err(WireError(format!("{what} variant {t}")));
    }
    Ok(t)
}

pub(super) fn encode_task(task: &HelperTask, out: &mut Vec<u8>) {
    let mut w = Writer(out);
    w.str(task.algorithm.name());
    w.board(&task.board);
    w.u64s(&task.history);
    w.bool(task.options.pure);
    w.bool(task.options.table_cutoffs);
    w.bool(task.options.table_ordering_only);
    w.str(task.options.evaluation.name());
    w.usize(task.hash_mib);
    w.u32(task.table_clears);
    w.bool(task.distributed);
}

/// The task processor 0 announced (a class's tab reads its position to show it).
pub fn decode_task(bytes: &[u8]) -> Result<HelperTask, WireError> {
    let mut r = Reader::new(bytes);
    let name = r.str()?;
    let algorithm = Algorithm::from_name(&name).ok_or_else(|| WireError(format!("algorithm '{name}'")))?;
    let (board, history, pure, table_cutoffs, table_ordering_only) = (r.board()?, r.u64s()?, r.bool()?, r.bool()?, r.bool()?);
    let name = r.str()?;
    let evaluation = Evaluation::from_name(&name).ok_or_else(|| WireError(format!("evaluation '{name}'")))?;
    let options = SearchOptions { pure, table_cutoffs, table_ordering_only, evaluation };
    let task = HelperTask { algorithm, board, history, options, hash_mib: r.usize()?, table_clears: r.u32()?, distributed: r.bool()? };
    r.finish()?;
    Ok(task)
}

fn encode_subproblem(p: &Subproblem, w: &mut Writer<'_>) {
    w.board(&p.board);
    w.u64s(&p.path);
    w.i32(p.alpha);
    w.i32(p.beta);
    w.i32(p.depth);
    w.usize(p.ply);
    w.u8(match p.kind {
        NodeKind::Pv => 0,
        NodeKind::Cut => 1,
        NodeKind::All => 2,
    });
    w.u64(p.line.packed());
    for ply in &p.killers {
        ply.iter().for_each(|&k| w.option_mv(k));
    }
}

/// A score from another processor: within the searcher's bounds, or an error (a peer of
/// a class may send anything).
fn score(value: i32, what: &str) -> Result<i32, WireError> {
    (-INFINITY..=INFINITY).contains(&value).then_some(value).ok_or_else(|| WireError(format!("{what} {value} out of range")))
}

/// A window from another processor: two scores, the lower below the upper.
fn window(alpha: i32, beta: i32) -> Result<(i32, i32), WireError> {
    let (alpha, beta) = (score(alpha, "alpha")?, score(beta, "beta")?);
    (alpha < beta).then_some((alpha, beta)).ok_or_else(|| WireError(format!("window ({alpha}, {beta}) is empty")))
}

fn decode_subproblem(r: &mut Reader<'_>) -> Result<Subproblem, WireError> {
    let (board, path, alpha, beta, depth, ply) = (r.board()?, r.u64s()?, r.i32()?, r.i32()?, r.i32()?, r.usize()?);
    // Values, not only lengths: a forged ply or depth would index past the searcher's stack.
    let (alpha, beta) = window(alpha, beta)?;
    if !(1..MAX_PLY).contains(&ply) || !(-(MAX_PLY as i32)..MAX_PLY as i32).contains(&depth) || path.len() > 2 * MAX_PLY + 100 {
        return Err(WireError(format!("subproblem at ply {ply}, depth {depth}, path of {} out of range", path.len())));
    }
    let kind = [NodeKind::Pv, NodeKind::Cut, NodeKind::All][tag(r, 3, "node kind")? as usize];
    let line = TreePath::from_packed(r.u64()?);
    let mut problem = Subproblem { board, path, alpha, beta, depth, ply, kind, line, killers: Default::default() };
    for killer in problem.killers.iter_mut().flatten() {
        *killer = r.option_mv()?;
    }
    Ok(problem)
}

/// A job's pace; a least depth no search reaches is refused.
fn decode_pace(r: &mut Reader<'_>) -> Result<Option<Pace>, WireError> {
    let (some, least_depth, expected_nodes, round_trip_nodes) = (r.bool()?, r.i32()?, r.u64()?, r.u64()?);
    if !(0..=MAX_PLY as i32).contains(&least_depth) {
        return Err(WireError(format!("a job's least depth {least_depth}")));
    }
    Ok(some.then_some(Pace { least_depth, expected_nodes, round_trip_nodes }))
}

impl Payload for Message {
    fn kind(&self) -> MessageKind {
        match self {
            Message::WorkRequest { .. } => MessageKind::WorkRequest,
            Message::Work { .. } => MessageKind::Work,
            Message::NoWork => MessageKind::NoWork,
            Message::Result { .. } => MessageKind::Result,
            Message::NewBound { .. } => MessageKind::NewBound,
            Message::Cutoff { .. } => MessageKind::Cutoff,
            Message::Help => MessageKind::Help,
            Message::Offer { .. } => MessageKind::Split,
            Message::Lost => MessageKind::Lost,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        let mut w = Writer(out);
        match self {
            Message::WorkRequest { rate } => {
                w.u8(0);
                w.bool(rate.is_some());
                w.u32(rate.unwrap_or(0));
            }
            Message::Work { job, problem, pace } => {
                w.u8(1);
                w.u32(*job);
                encode_subproblem(problem, &mut w);
                w.bool(pace.is_some());
                let pace = pace.unwrap_or(Pace { least_depth: 0, expected_nodes: 0, round_trip_nodes: 0 });
                w.i32(pace.least_depth);
                w.u64(pace.expected_nodes);
                w.u64(pace.round_trip_nodes);
            }
            Message::NoWork => w.u8(2),
            Message::Result { job, value, pv, span, wants_work } => {
                w.u8(3);
                w.u32(*job);
                w.i32(*value);
                w.mvs(pv);
                w.u64(*span);
                w.bool(*wants_work);
            }
            Message::NewBound { job, alpha, beta } => {
                w.u8(4);
                w.u32(*job);
                w.i32(*alpha);
                w.i32(*beta);
            }
            Message::Cutoff { job } => {
                w.u8(5);
                w.u32(*job);
            }
            Message::Help => w.u8(6),
            Message::Offer { merit } => {
                w.u8(7);
                w.bool(merit.is_some());
                w.i32(merit.unwrap_or(0));
            }
            // Only the machine tells a loss: a tag `decode` refuses, so no peer forges one.
            Message::Lost => w.u8(8),
        }
    }

    fn lost(_processor: usize) -> Option<Self> {
        Some(Message::Lost)
    }

    fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(bytes);
        let message = match tag(&mut r, 8, "message")? {
            0 => {
                let (some, rate) = (r.bool()?, r.u32()?);
                Message::WorkRequest { rate: some.then_some(rate) }
            }
            1 => Message::Work { job: r.u32()?, problem: Box::new(decode_subproblem(&mut r)?), pace: decode_pace(&mut r)? },
            2 => Message::NoWork,
            3 => Message::Result { job: r.u32()?, value: score(r.i32()?, "value")?, pv: r.mvs()?, span: r.u64()?, wants_work: r.bool()? },
            4 => {
                let job = r.u32()?;
                let (alpha, beta) = window(r.i32()?, r.i32()?)?;
                Message::NewBound { job, alpha, beta }
            }
            5 => Message::Cutoff { job: r.u32()? },
            6 => Message::Help,
            _ => {
                let (some, merit) = (r.bool()?, r.i32()?);
                Message::Offer { merit: some.then_some(merit) }
            }
        };
        r.finish()?;
        Ok(message)
    }
}

fn encode_target(t: &Target, w: &mut Writer<'_>) {
    match *t {
        Target::Driver => w.u8(0),
        Target::Node { home, id, child } => {
            w.u8(1);
            w.usize(home);
            w.u64(id);
            w.u16(child);
        }
    }
}

fn decode_target(r: &mut Reader<'_>) -> Result<Target, WireError> {
    Ok(match tag(r, 2, "target")? {
        0 => Target::Driver,
        _ => Target::Node { home: r.usize()?, id: r.u64()?, child: r.u16()? },
    })
}

fn encode_signature(signature: &[u16], w: &mut Writer<'_>) {
    w.usize(signature.len());
    signature.iter().for_each(|&c| w.u16(c));
}

fn decode_signature(r: &mut Reader<'_>) -> Result<Vec<u16>, WireError> {
    let n = r.usize()?;
    (0..n).map(|_| r.u16()).collect()
}

impl Payload for TdsMessage {
    fn kind(&self) -> MessageKind {
        match self {
            TdsMessage::Node(_) => MessageKind::TtRequest,
            TdsMessage::Value { .. } => MessageKind::TtAnswer,
            TdsMessage::Cutoff { .. } | TdsMessage::Finish => MessageKind::Cutoff,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        let mut w = Writer(out);
        match self {
            TdsMessage::Node(job) => {
                w.u8(0);
                w.u32(job.pass);
                w.board(&job.board);
                w.usize(job.ply);
                w.i32(job.depth);
                w.i32(job.gamma);
                w.u64s(&job.path);
                encode_signature(&job.signature, &mut w);
                encode_target(&job.target, &mut w);
                w.mvs(&job.root_moves);
                w.bool(job.null_allowed);
            }
            TdsMessage::Value { pass, target, value, best } => {
                w.u8(1);
                w.u32(*pass);
                encode_target(target, &mut w);
                w.i32(*value);
                w.option_mv(*best);
            }
            TdsMessage::Cutoff { pass, prefix } => {
                w.u8(2);
                w.u32(*pass);
                encode_signature(prefix, &mut w);
            }
            TdsMessage::Finish => w.u8(3),
        }
    }

    fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(bytes);
        let message = match tag(&mut r, 4, "TDSAB message")? {
            0 => TdsMessage::Node(Box::new(Job {
                pass: r.u32()?,
                board: r.board()?,
                ply: r.usize()?,
                depth: r.i32()?,
                gamma: r.i32()?,
                path: r.u64s()?,
                signature: decode_signature(&mut r)?,
                target: decode_target(&mut r)?,
                root_moves: r.mvs()?,
                null_allowed: r.bool()?,
            })),
            1 => TdsMessage::Value { pass: r.u32()?, target: decode_target(&mut r)?, value: r.i32()?, best: r.option_mv()? },
            2 => TdsMessage::Cutoff { pass: r.u32()?, prefix: decode_signature(&mut r)? },
            _ => TdsMessage::Finish,
        };
        r.finish()?;
        Ok(message)
    }
}

/// A remaining depth from another processor: within the searcher's plies.
fn remaining_depth(depth: i32) -> Result<i32, WireError> {
    (0..MAX_PLY as i32).contains(&depth).then_some(depth).ok_or_else(|| WireError(format!("depth {depth} out of range")))
}

fn encode_want(want: &Want, w: &mut Writer<'_>) {
    w.i32(want.depth);
    w.i32(want.alpha);
    w.i32(want.beta);
    w.i32(want.most);
    w.u32(want.order);
}

fn decode_want(r: &mut Reader<'_>) -> Result<Want, WireError> {
    let (depth, alpha, beta, most, order) = (remaining_depth(r.i32()?)?, r.i32()?, r.i32()?, remaining_depth(r.i32()?)?, r.u32()?);
    let (alpha, beta) = window(alpha, beta)?;
    Ok(Want { depth, alpha, beta, most, order })
}

impl Payload for AphidMessage {
    fn kind(&self) -> MessageKind {
        match self {
            AphidMessage::Leaf { .. } => MessageKind::Work,
            AphidMessage::Want { .. } => MessageKind::NewBound,
            AphidMessage::Value { .. } => MessageKind::Result,
            AphidMessage::Lost => MessageKind::Lost,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        let mut w = Writer(out);
        match self {
            AphidMessage::Leaf { leaf, problem } => {
                w.u8(0);
                w.u32(*leaf);
                w.board(&problem.board);
                w.u64s(&problem.path);
                w.mvs(&problem.moves);
                encode_want(&problem.want, &mut w);
            }
            AphidMessage::Want { leaf, want } => {
                w.u8(1);
                w.u32(*leaf);
                encode_want(want, &mut w);
            }
            AphidMessage::Value { leaf, value } => {
                w.u8(2);
                w.u32(*leaf);
                w.i32(value.depth);
                w.i32(value.alpha);
                w.i32(value.beta);
                w.i32(value.value);
                w.mvs(&value.pv);
            }
            // Only the machine tells a loss: a tag `decode` refuses, so no peer forges one.
            AphidMessage::Lost => w.u8(3),
        }
    }

    fn lost(_processor: usize) -> Option<Self> {
        Some(AphidMessage::Lost)
    }

    fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(bytes);
        let message = match tag(&mut r, 3, "APHID message")? {
            0 => {
                let (leaf, board, path, moves) = (r.u32()?, r.board()?, r.u64s()?, r.mvs()?);
                // The leaf's distance from the root is its number of moves: a ply the
                // searcher's stack holds, as for any subproblem.
                if !(1..MAX_PLY).contains(&moves.len()) || path.len() > 2 * MAX_PLY + 100 {
                    return Err(WireError(format!("leaf {} plies deep, path of {} out of range", moves.len(), path.len())));
                }
                AphidMessage::Leaf { leaf, problem: Box::new(LeafProblem { board, path, moves, want: decode_want(&mut r)? }) }
            }
            1 => AphidMessage::Want { leaf: r.u32()?, want: decode_want(&mut r)? },
            _ => {
                let leaf = r.u32()?;
                let (depth, alpha, beta, value, pv) = (remaining_depth(r.i32()?)?, r.i32()?, r.i32()?, score(r.i32()?, "value")?, r.mvs()?);
                let (alpha, beta) = window(alpha, beta)?;
                AphidMessage::Value { leaf, value: LeafValue { depth, alpha, beta, value, pv } }
            }
        };
        r.finish()?;
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_fen;
    use crate::machine::Payload;

    fn board() -> Board {
        parse_fen("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3").unwrap()
    }

    /// Messages have no equality (nothing else compares them): their debug text does.
    fn round_trip<M: Payload + std::fmt::Debug>(m: M) {
        let mut bytes = Vec::new();
        m.encode(&mut bytes);
        let back = M::decode(&bytes).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        assert_eq!(format!("{back:?}"), format!("{m:?}"));
        // Any cut is an error, never a panic or a different message.
        for end in 0..bytes.len() {
            assert!(M::decode(&bytes[..end]).is_err(), "{m:?} cut to {end} bytes");
        }
    }

    /// Every variant of every message comes back field for field.
    #[test]
    fn every_message_comes_back_as_sent() {
        let mv = |text: &str| text.parse().unwrap();
        let problem = Subproblem {
            board: board(),
            path: vec![11, 22, 33],
            alpha: -40,
            beta: 41,
            depth: 7,
            ply: 3,
            kind: NodeKind::Cut,
            line: TreePath::from_packed(0x1234_5678),
            killers: [[Some(mv("e2a6")), None], [None, Some(mv("a7a8q"))]],
        };
        for m in [
            Message::WorkRequest { rate: None },
            Message::WorkRequest { rate: Some(812) },
            Message::Work { job: 9, problem: Box::new(problem.clone()), pace: None },
            Message::Work { job: 9, problem: Box::new(problem), pace: Some(Pace { least_depth: 7, expected_nodes: 1 << 33, round_trip_nodes: 21_000 }) },
            Message::NoWork,
            Message::Result { job: 3, value: -29_990, pv: vec![mv("e2a6"), mv("b4c3")], span: 1 << 40, wants_work: true },
            Message::NewBound { job: 4, alpha: -5, beta: 6 },
            Message::Cutoff { job: u32::MAX },
            Message::Help,
            Message::Offer { merit: Some(-3) },
            Message::Offer { merit: None },
        ] {
            round_trip(m);
        }
        let job = Job {
            pass: 5,
            board: board(),
            ply: 2,
            depth: 4,
            gamma: -17,
            path: vec![1, 2],
            signature: vec![0, 2, 7],
            target: Target::Node { home: 3, id: 77, child: 9 },
            root_moves: vec![mv("a1b1")],
            null_allowed: false,
        };
        for m in [
            TdsMessage::Node(Box::new(job)),
            TdsMessage::Value { pass: 2, target: Target::Driver, value: 31, best: Some(mv("e2a6")) },
            TdsMessage::Value { pass: 2, target: Target::Node { home: 1, id: 2, child: 3 }, value: 0, best: None },
            TdsMessage::Cutoff { pass: 8, prefix: vec![] },
            TdsMessage::Finish,
        ] {
            round_trip(m);
        }
    }

    /// APHID's messages come back field for field, and forged ones are refused.
    #[test]
    fn aphid_messages_come_back_as_sent_and_forged_ones_are_refused() {
        let mv = |text: &str| text.parse().unwrap();
        let want = Want { depth: 5, alpha: -30, beta: -29, most: 6, order: 17 };
        let problem = LeafProblem { board: board(), path: vec![7, 8, 9], moves: vec![mv("e2e4"), mv("d7d5")], want };
        let value = LeafValue { depth: 5, alpha: -30, beta: -29, value: -29_990, pv: vec![mv("e2a6")] };
        for m in [AphidMessage::Leaf { leaf: 3, problem: Box::new(problem.clone()) }, AphidMessage::Want { leaf: u32::MAX, want }, AphidMessage::Value { leaf: 0, value: value.clone() }] {
            round_trip(m);
        }
        let forged = |m: AphidMessage| {
            let mut bytes = Vec::new();
            m.encode(&mut bytes);
            AphidMessage::decode(&bytes)
        };
        assert!(forged(AphidMessage::Leaf { leaf: 1, problem: Box::new(LeafProblem { moves: vec![], ..problem.clone() }) }).is_err(), "a leaf at the root");
        assert!(forged(AphidMessage::Want { leaf: 1, want: Want { depth: -1, ..want } }).is_err());
        assert!(forged(AphidMessage::Want { leaf: 1, want: Want { alpha: 5, beta: 5, ..want } }).is_err());
        assert!(forged(AphidMessage::Value { leaf: 1, value: LeafValue { value: i32::MAX, ..value.clone() } }).is_err());
        assert!(forged(AphidMessage::Value { leaf: 1, value: LeafValue { depth: 1 << 20, ..value } }).is_err());
        assert!(forged(AphidMessage::Lost).is_err(), "a loss is the machine's word, never a peer's");
    }

    /// A peer of a class may send anything: values out of the searcher's range are
    /// refused, and the machine's own loss notice cannot be forged.
    #[test]
    fn forged_values_are_refused() {
        let forged = |m: Message| {
            let mut bytes = Vec::new();
            m.encode(&mut bytes);
            Message::decode(&bytes)
        };
        let problem = |ply: usize, depth: i32, alpha: i32, beta: i32| Subproblem { board: board(), path: vec![], alpha, beta, depth, ply, kind: NodeKind::All, line: TreePath::from_packed(0), killers: Default::default() };
        for (ply, depth, alpha, beta) in [(0, 5, -1, 1), (MAX_PLY, 5, -1, 1), (1_000_000, 5, -1, 1), (2, 1 << 20, -1, 1), (2, 5, 7, 7), (2, 5, -INFINITY - 1, 0), (2, 5, 0, i32::MAX)] {
            assert!(forged(Message::Work { job: 1, problem: Box::new(problem(ply, depth, alpha, beta)), pace: None }).is_err(), "ply {ply} depth {depth} window ({alpha}, {beta})");
        }
        assert!(forged(Message::Work { job: 1, problem: Box::new(problem(2, 5, -1, 1)), pace: None }).is_ok());
        for least_depth in [-1, MAX_PLY as i32 + 1, i32::MAX] {
            let pace = Some(Pace { least_depth, expected_nodes: 1, round_trip_nodes: 1 });
            assert!(forged(Message::Work { job: 1, problem: Box::new(problem(2, 5, -1, 1)), pace }).is_err(), "least depth {least_depth}");
        }
        assert!(forged(Message::Result { job: 1, value: i32::MIN, pv: vec![], span: 0, wants_work: false }).is_err());
        assert!(forged(Message::NewBound { job: 1, alpha: 5, beta: -5 }).is_err());
        assert!(forged(Message::Lost).is_err(), "a loss is the machine's word, never a peer's");
    }

    #[test]
    fn a_helper_task_comes_back_as_sent() {
        let task = HelperTask { algorithm: Algorithm::Jamboree, board: board(), history: vec![4, 5], options: SearchOptions { pure: true, table_cutoffs: true, table_ordering_only: true, evaluation: Evaluation::Nnue }, hash_mib: 64, table_clears: 3, distributed: true };
        let mut bytes = Vec::new();
        encode_task(&task, &mut bytes);
        assert_eq!(decode_task(&bytes), Ok(task));
        assert!(decode_task(&bytes[1..]).is_err());
    }
}
