//! Where the engine's searches run: on this process's threads, or (with the `cluster`
//! feature) on the ranks of an MPI job, where every search uses every rank and only the
//! algorithms that work without shared memory can run.

use crate::parallel::Algorithm;
use crate::tt::{AllocError, Placement, TranspositionTable};
use std::sync::Arc;
#[cfg(feature = "cluster")]
use std::sync::Mutex;

/// Where searches run.
#[derive(Clone)]
pub enum Site {
    /// Threads of this process (`Threads` processors).
    Threads,
    /// The ranks of an MPI job, this process being rank 0.
    #[cfg(feature = "cluster")]
    Cluster(Arc<Mutex<crate::machine::Cluster<crate::machine::cluster::mpi::MpiLink>>>),
}

impl Site {
    /// Why `algorithm` cannot search here, if it cannot.
    #[cfg_attr(not(feature = "cluster"), allow(unused_variables))]
    pub fn refuses(&self, algorithm: Algorithm) -> Option<String> {
        match self {
            Site::Threads => None,
            #[cfg(feature = "cluster")]
            Site::Cluster(_) => algorithm.needs_shared_memory().map(|why| format!("{why}: on the cluster use ybwc, jamboree, pvsplit, tdsab or aphid")),
        }
    }

    /// Why the site cannot search any more, if it cannot (a cluster's rank stopped
    /// answering): the engine answers with what it has, says why, and ends ([`Site::end`]).
    pub fn fault(&self) -> Option<String> {
        match self {
            Site::Threads => None,
            #[cfg(feature = "cluster")]
            Site::Cluster(cluster) => cluster.lock().unwrap_or_else(|e| e.into_inner()).fault().map(str::to_string),
        }
    }

    /// Ends the engine after a fault: on a cluster, every rank of the job at once.
    #[cfg_attr(not(feature = "cluster"), allow(unused_variables))]
    pub fn end(&self, why: &str) {
        match self {
            Site::Threads => {}
            #[cfg(feature = "cluster")]
            Site::Cluster(cluster) => cluster.lock().unwrap_or_else(|e| e.into_inner()).link().abort(why),
        }
    }

    /// Where the table lives before `setoption name Table` says otherwise: one table the
    /// threads share; on the cluster, a table per rank.
    pub fn default_table(&self) -> Placement {
        match self {
            Site::Threads => Placement::Global,
            #[cfg(feature = "cluster")]
            Site::Cluster(_) => Placement::Local,
        }
    }

    /// The `Table` option's declaration, where the site offers a choice (the cluster: a
    /// table per rank, or Zugzwang's distributed table, entry h at rank h mod p).
    pub fn table_declaration(&self) -> Option<super::Event> {
        match self {
            Site::Threads => None,
            #[cfg(feature = "cluster")]
            Site::Cluster(_) => Some(super::Event::combo_option("Table", "local", &["local", "distributed"])),
        }
    }

    /// The placements `setoption name Table` may choose here.
    pub fn offers_table(&self, placement: Placement) -> bool {
        match self {
            Site::Threads => placement == Placement::Global,
            #[cfg(feature = "cluster")]
            Site::Cluster(_) => matches!(placement, Placement::Local | Placement::Distributed),
        }
    }

    /// A table of `mib` MiB placed as `placement` (one the site offers): rank 0's part of
    /// the distributed table, or a table of this process's own.
    pub fn table(&self, placement: Placement, mib: usize) -> Result<Arc<TranspositionTable>, AllocError> {
        match placement {
            #[cfg(feature = "cluster")]
            Placement::Distributed => crate::machine::cluster::mpi::table_part(mib),
            _ => TranspositionTable::try_new(mib).map(Arc::new),
        }
    }

    /// The processors every parallel search uses here, when the site fixes them (the
    /// cluster: its ranks, as `mpirun -np` set them).
    pub fn fixed_processors(&self) -> Option<usize> {
        match self {
            Site::Threads => None,
            #[cfg(feature = "cluster")]
            Site::Cluster(cluster) => Some(crate::machine::Machine::processors(&*cluster.lock().unwrap_or_else(|e| e.into_inner()))),
        }
    }
}
