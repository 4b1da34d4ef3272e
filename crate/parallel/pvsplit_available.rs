//! PV-splitting with Hasan's pool of idle workers ordered by predicted CPU availability.
//!
//! CITE: K. S. Hasan, "A Distributed Chess Playing Software System Model Using Dynamic
//! CPU Availability Prediction", School of Computer Science, University of Oklahoma (no
//! year printed; after the author's PDPTA 2010 paper), on PV-splitting by T. A. Marsland
//! and F. Popowich, "Parallel game-tree search", IEEE PAMI 7(4), 1985; the availability
//! model is Beltrán, Guzmán and Bosque's (IEEE Transactions on Computers 57(7), 2008).
//!
//! The idea: on PCs whose owners keep using them, a subtree should go to the worker that
//! will get the most CPU. A monitor reads each logical processor's run queue every period
//! T and predicts, by the paper's Equations (1) and (2), the share a new task would get
//! there (the simulator's load model, `machine::sim::run_queue`, is the same model, so
//! the prediction is right except when a queue changed since the monitor last read it).
//! Idle workers wait in the master's pool; when the master has siblings to hand out, the
//! worker with the highest predicted availability gets the next one.
//!
//! Invariants: only processor 0 (the master) keeps the pool: every idle processor asks
//! it; a request waits in the pool until a split point appears or processor 0 has nothing
//! left to give; the pool is served highest prediction first (unknown predictions, as on
//! real threads, last, in arrival order). Split points, windows and the search are
//! `pvsplit`'s, so pure mode stays exact.
//!
//! Departures from the paper: when there are more siblings than pooled workers the paper
//! assigns them at random; here each pooled worker takes the next sibling in move order,
//! highest availability first, and the rest wait for the next free worker (the workers
//! busy are the same). The master searches beside its workers while it waits for them
//! (pvsplit's helpful master), where Hasan's master blocks on a semaphore.

use super::pvsplit;
use super::split::{Policy, Seek};

/// The paper's pool: pvsplit's split points and windows, idle workers served by
/// predicted availability.
pub(super) const POLICY: Policy = Policy { seek: Seek::PoolByAvailability, ..pvsplit::POLICY };
