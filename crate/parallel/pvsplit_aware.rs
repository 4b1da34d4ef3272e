//! PV-splitting aware of CPU availability, for machines whose processors differ in speed
//! and share their CPUs with other users (a LAN of workstations).
//!
//! CITE: the CPU-availability idea of PV-splitting on networks of workstations (workers
//! chosen by predicted availability; see DESIGN.md, "pvsplit"): work handed to a processor
//! should be in proportion to the speed it will have. Here every processor measures its
//! own speed (nodes per millisecond of its busy time over a recent window, which includes
//! the background load it suffers) and sends it with each work request. The owner then
//! sizes the work it gives: a requester as fast as the owner gets the split point nearest
//! the root (as plain pvsplit), a slower one a deeper split point, about one ply deeper
//! for each factor `BRANCHING` it is slower (the assignment is `work_by_speed`'s), so
//! that its subtree takes it about as long as a big one takes a fast processor, and the
//! principal variation node does not wait for a slow machine on its last son; when no split point is that small, the request
//! waits (held) until one is, or gets NO-WORK. Held requests are served fastest first.
//!
//! Measured on the `lan` preset (3 PCs, Bratko-Kopec, depth 10, `docs/experiments.md`):
//! `BRANCHING` 2.0 took 0.79 of plain pvsplit's time; 2.5 and 3.5 gained less (at depth 9:
//! 0.92 and 0.93 against 0.86 for 2.0); always giving the deepest point when none was
//! small enough lost to plain pvsplit (1.03 at depth 9, with 2.5).
//!
//! Shared state: only the table, as pvsplit.

use super::pvsplit;
use super::split::{Policy, Seek};

/// The aware variant: pvsplit's split points and windows, speed-weighted assignment.
pub(super) const POLICY: Policy = Policy { seek: Seek::AskRandomTellingSpeed, ..pvsplit::POLICY };
