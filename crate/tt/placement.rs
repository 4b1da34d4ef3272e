//! Where a parallel search keeps its table: the placements the simulated machines of the
//! classic papers had, chosen per run.
//!
//! - `global`: one table every processor reads and writes (shared memory).
//! - `local`: each processor its own table in its own memory, shared with nobody.
//! - `distributed`: one logical table split into p parts; the entry of hash h is held by
//!   processor h mod p (Zugzwang). All processors use the one [`TranspositionTable`]
//!   split that way; a simulated machine charges each access to another processor's part
//!   as routed messages (`machine::sim`), for which searchers record their accesses.
//! - `tds`: transposition-driven scheduling (TDSAB): nodes travel to the processor that
//!   holds their entry instead of entries to nodes. Each processor has its own table, as
//!   with `local`; since every node of the shared part of the tree is searched at its
//!   home h mod p, its entry is always written and read there.
//!
//! ABDADA's busy table (`BusyTable`) stays one shared structure in every placement: only
//! the transposition table is placed.
//!
//! Memory: the same total in every placement. `--hash` MiB is the global table, or the p
//! parts of the distributed one, or p local tables of a p-th each; or, sized by entries
//! per processor (`TableSize::EntriesEach`), a table that grows with p.

use super::{AllocError, TableSize, TranspositionTable};
use std::sync::Arc;

/// Where the table's entries live (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Placement {
    /// One shared table.
    #[default]
    Global,
    /// One table per processor, no sharing.
    Local,
    /// One table split among the processors, entry h at processor h mod p.
    Distributed,
    /// TDSAB's home processors: each processor's table holds the nodes sent to it.
    Tds,
}

impl Placement {
    /// Every placement, in the order menus list them.
    pub const ALL: [Placement; 4] = [Placement::Global, Placement::Local, Placement::Distributed, Placement::Tds];

    /// The name on the command line, in the Lab and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Placement::Global => "global",
            Placement::Local => "local",
            Placement::Distributed => "distributed",
            Placement::Tds => "tds",
        }
    }

    /// The placement in one line (for `--help` and menus).
    pub fn summary(self) -> &'static str {
        match self {
            Placement::Global => "one table every processor shares",
            Placement::Local => "a table per processor, shared with nobody",
            Placement::Distributed => "one table split among the processors, entry h at processor h mod p (Zugzwang)",
            Placement::Tds => "TDSAB's: nodes travel to the processor that holds their entry",
        }
    }
}

impl std::str::FromStr for Placement {
    type Err = String;

    fn from_str(name: &str) -> Result<Placement, String> {
        Placement::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<&str> = Placement::ALL.iter().map(|p| p.name()).collect();
            format!("unknown table placement '{name}': expected one of {}", names.join(", "))
        })
    }
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The tables of one search on p processors, placed as asked.
#[derive(Clone)]
pub struct Tables {
    placement: Placement,
    /// One table (global, distributed) or one per processor (local, tds).
    tables: Vec<Arc<TranspositionTable>>,
}

/// One shared table (the real machine's, and the simulator's `global` placement).
impl From<&Arc<TranspositionTable>> for Tables {
    fn from(table: &Arc<TranspositionTable>) -> Tables {
        Tables::shared(table.clone())
    }
}

impl Tables {
    /// Fresh tables for `processors` processors holding `mib` MiB in all.
    pub fn new(placement: Placement, mib: usize, processors: usize) -> Result<Tables, AllocError> {
        Tables::sized(placement, TableSize::Mib(mib), processors)
    }

    /// Fresh tables of `size` for `processors` processors.
    pub fn sized(placement: Placement, size: TableSize, processors: usize) -> Result<Tables, AllocError> {
        let processors = processors.max(1);
        let tables = match placement {
            Placement::Global => vec![Arc::new(TranspositionTable::try_split(size, 1, processors)?)],
            Placement::Distributed => vec![Arc::new(TranspositionTable::try_split(size, processors, processors)?)],
            Placement::Local | Placement::Tds => (0..processors).map(|_| TranspositionTable::try_share(size, processors).map(Arc::new)).collect::<Result<_, _>>()?,
        };
        Ok(Tables { placement, tables })
    }

    /// `table` shared by every processor (the global placement of an existing table).
    pub fn shared(table: Arc<TranspositionTable>) -> Tables {
        Tables { placement: Placement::Global, tables: vec![table] }
    }

    /// How the tables are placed.
    pub fn placement(&self) -> Placement {
        self.placement
    }

    /// The table processor `id` reads and writes.
    pub fn of_processor(&self, id: usize) -> &Arc<TranspositionTable> {
        &self.tables[id % self.tables.len()]
    }

    /// The table in which processor `reader` would find the entry of `hash` (with `tds`,
    /// the entry's home): for reports such as a principal variation read from the tables,
    /// which cost nothing on any machine.
    pub fn holding(&self, hash: u64, reader: usize) -> &Arc<TranspositionTable> {
        match self.placement {
            Placement::Tds => &self.tables[super::owner(hash, self.tables.len())],
            Placement::Global | Placement::Local | Placement::Distributed => self.of_processor(reader),
        }
    }

    /// Starts a new search in every table (older entries become preferred victims).
    pub fn new_search(&self) {
        for table in &self.tables {
            table.new_search();
        }
    }
}
