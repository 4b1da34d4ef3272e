//! PV-splitting that sizes the work it gives by each processor's measured speed, for
//! machines whose processors differ in speed and share their CPUs with other users.
//!
//! CITE: ours, after the CPU-availability idea of K. S. Hasan's PV-splitting on unequal
//! PCs (see `pvsplit` for the citations; the paper's own pool is `pvsplit_available`):
//! work handed to a processor should be in proportion to the speed it will have.
//!
//! The idea: every processor measures its own speed (nodes per millisecond of its busy
//! time over a recent window, which includes the background load it suffers) and sends it
//! with each work request. The owner then sizes the work it gives: a requester as fast as
//! the owner gets the split point nearest the root (as plain pvsplit), a slower one a
//! deeper split point, about one ply deeper for each factor `BRANCHING` it is slower (the
//! assignment is `work_by_speed`'s), so that its subtree takes it about as long as a big
//! one takes a fast processor, and the principal variation node does not wait for a slow
//! machine on its last son; when no split point is that small, the request waits (held)
//! until one is, or gets NO-WORK. Held requests are served fastest first.
//!
//! Invariants: pvsplit's split points and windows, so pure mode stays exact.
//!
//! Departures from Hasan's paper: a measured speed instead of a prediction from run
//! queues, requests to random processors instead of one pool at the master, and
//! subtree sizes chosen by speed (the paper gives every worker one sibling). The
//! measurements behind `BRANCHING` are in docs/tdsab-and-pvsplit.md (2.0 chosen on
//! the old `lan` preset).
//!
//! Shared state: only the table, as pvsplit.

use super::pvsplit;
use super::split::{Policy, Seek};

/// The aware variant: pvsplit's split points and windows, speed-weighted assignment.
pub(super) const POLICY: Policy = Policy { seek: Seek::AskRandomTellingSpeed, ..pvsplit::POLICY };
