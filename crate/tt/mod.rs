//! The transposition table, shared by every searcher of every machine.
//!
//! Race contract: the table is read and written by many threads without locks. Each
//! entry is two `AtomicU64` words, `check = key ^ data` and `data`. A torn entry (one
//! word from one writer, one from another) fails the `check ^ data == key` test and is
//! simply a miss, so a racy read can cost a hash hit but never yields wrong data for a
//! position. Relaxed ordering suffices for the same reason.

mod access;
mod busy;
mod entry;
mod placement;
mod remote;

pub use access::{Access, AccessKind};
pub use busy::{BusyMarks, BusyTable};
pub use entry::{pack_move, unpack_move, Bound, Entry};
pub use placement::{Placement, Tables};
pub use remote::RemoteParts;

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Two words per slot, two slots per bucket: one kept by depth, one always replaced.
const SLOTS_PER_BUCKET: usize = 2;
const BYTES_PER_SLOT: usize = 16;

/// One bucket: the words of its slots, `check` then `data` for each. Aligned to its size
/// so that a probe touches one cache line (a bucket straddling two cost a second miss).
#[repr(C, align(32))]
struct Bucket([AtomicU64; SLOTS_PER_BUCKET * 2]);
const _: () = assert!(std::mem::size_of::<Bucket>() == SLOTS_PER_BUCKET * BYTES_PER_SLOT);

/// A lock-free table of search results keyed by Zobrist hash.
///
/// A table may be split into `parts` equal runs of buckets, one per processor of a
/// distributed machine: the entry of hash h lives in part [`owner`]`(h, parts)`, placed
/// in it by the high bits of h as an unsplit table places it in the whole.
///
/// A table may also be one process's part of a table split among processes (a cluster's
/// ranks): it holds the entries of its own part, and reaches the others' through
/// [`RemoteParts`], by messages.
pub struct TranspositionTable {
    slots: Box<[Bucket]>,
    /// Buckets per part (all of them when the table is not split).
    buckets: usize,
    parts: usize,
    generation: AtomicU8,
    /// Times [`TranspositionTable::clear`] ran (a cluster's other processes empty their
    /// tables when processor 0's count moves).
    clears: AtomicU32,
    /// The parts other processes hold, for this process's part of a split table.
    remote: Option<Box<dyn RemoteParts>>,
}

/// The `check` and `data` words of `slot` in `bucket`.
fn load(bucket: &Bucket, slot: usize) -> (u64, u64) {
    (bucket.0[slot * 2].load(Relaxed), bucket.0[slot * 2 + 1].load(Relaxed))
}

/// The part (processor) of a table split into `parts` that holds the entry of `hash`:
/// h mod p, as Zugzwang's distributed table.
pub fn owner(hash: u64, parts: usize) -> usize {
    (hash % parts.max(1) as u64) as usize
}

/// Where `key` falls among `n` equal ranges of the u64 values: `key * n / 2^64`, which
/// spreads keys over the buckets without a division (Lemire's multiply-shift).
#[cfg(target_pointer_width = "64")]
fn scale(key: u64, n: usize) -> usize {
    ((key as u128 * n as u128) >> 64) as usize
}

/// [`scale`] on 32-bit targets (wasm32), where `n` fits in 32 bits: two 64-bit products
/// give the same value as the 128-bit one, which wasm has no instruction for (LLVM
/// emulates it through memory on the shadow stack, at every probe and store).
#[cfg(not(target_pointer_width = "64"))]
fn scale(key: u64, n: usize) -> usize {
    scale_32(key, n as u32)
}

/// `key * n / 2^64` from 64-bit products: with `key = high * 2^32 + low`, it is
/// `(high * n + low * n / 2^32) / 2^32`, and the sum stays below 2^64.
#[cfg(any(test, not(target_pointer_width = "64")))]
fn scale_32(key: u64, n: u32) -> usize {
    let n = n as u64;
    let low = ((key & 0xffff_ffff) * n) >> 32;
    (((key >> 32) * n + low) >> 32) as usize
}

/// The table could not be allocated (the memory allocator refused).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    /// The size that was asked for, in MiB.
    pub mib: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MiB hash table", self.mib)
    }
}

/// How big a search's table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSize {
    /// This many MiB in all, however many processors share them (`--hash`).
    Mib(usize),
    /// This many entries on each processor, so the table grows with p: Zugzwang's
    /// distributed table held k entries on each Transputer, p·k in all.
    EntriesEach(usize),
}

impl TableSize {
    /// Buckets of each of `parts` equal parts of the table of `processors` processors (at
    /// least one).
    fn buckets(self, parts: usize, processors: usize) -> usize {
        let all = match self {
            TableSize::Mib(mib) => mib.saturating_mul(1 << 20) / (BYTES_PER_SLOT * SLOTS_PER_BUCKET),
            TableSize::EntriesEach(entries) => entries.div_ceil(SLOTS_PER_BUCKET).saturating_mul(processors),
        };
        (all / parts.max(1)).max(1)
    }

    /// The whole table's MiB on `processors` processors, rounded up (for a refusal's message).
    fn mib(self, processors: usize) -> usize {
        match self {
            TableSize::Mib(mib) => mib,
            TableSize::EntriesEach(entries) => (entries.saturating_mul(processors) * BYTES_PER_SLOT).div_ceil(1 << 20),
        }
    }
}

impl TranspositionTable {
    /// Allocates a table of `mib` MiB (at least one bucket), reporting refusal instead
    /// of aborting, as browsers on phones often refuse memory growth.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, AllocError> {
        TranspositionTable::try_split(TableSize::Mib(mib), 1, 1)
    }

    /// A table of `size` split into `parts` parts (see the type's documentation), each at
    /// least one bucket, for a machine of `processors` processors.
    pub fn try_split(size: TableSize, parts: usize, processors: usize) -> Result<TranspositionTable, AllocError> {
        let parts = parts.max(1);
        TranspositionTable::allocate(size.mib(processors), size.buckets(parts, processors), parts)
    }

    /// One processor's own table when `size` is shared out equally among `processors`.
    pub fn try_share(size: TableSize, processors: usize) -> Result<TranspositionTable, AllocError> {
        let processors = processors.max(1);
        TranspositionTable::allocate(size.mib(processors), size.buckets(processors, processors), 1)
    }

    fn allocate(mib: usize, buckets: usize, parts: usize) -> Result<TranspositionTable, AllocError> {
        let len = buckets * parts;
        let mut slots: Vec<Bucket> = Vec::new();
        slots.try_reserve_exact(len).map_err(|_| AllocError { mib })?;
        slots.resize_with(len, || Bucket(std::array::from_fn(|_| AtomicU64::new(0))));
        Ok(TranspositionTable { slots: slots.into_boxed_slice(), buckets, parts, generation: AtomicU8::new(0), clears: AtomicU32::new(0), remote: None })
    }

    /// One process's part of a table split among processes: `mib` MiB here, the entries
    /// of the other parts reached through `remote` (see [`RemoteParts`]).
    pub fn try_part(mib: usize, remote: Box<dyn RemoteParts>) -> Result<TranspositionTable, AllocError> {
        Ok(TranspositionTable { remote: Some(remote), ..TranspositionTable::try_new(mib)? })
    }

    /// Makes this part the one whose entries the other processes' lookups and stores
    /// reach, for the search about to start (a process may have made others before).
    pub fn serve_from_here(self: &std::sync::Arc<Self>) {
        if let Some(remote) = &self.remote {
            remote.serve_from(std::sync::Arc::downgrade(self));
        }
    }

    /// Whether this is one process's part of a table split among processes.
    pub fn is_part(&self) -> bool {
        self.remote.is_some()
    }

    /// How many parts the table is split into (1: it is not).
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// Size in MiB as allocated.
    pub fn mib(&self) -> usize {
        std::mem::size_of_val(&*self.slots) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for w in self.slots.iter().flat_map(|b| &b.0) {
            w.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
        self.clears.fetch_add(1, Relaxed);
    }

    /// How many times the table has been cleared.
    pub fn clears(&self) -> u32 {
        self.clears.load(Relaxed)
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & Entry::GENERATION_MASK, Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let within = scale(key, self.buckets);
        // Unsplit tables (every table the engine itself uses) skip the division.
        let part = if self.parts == 1 { 0 } else { owner(key, self.parts) };
        &self.slots[part * self.buckets + within]
    }

    /// Asks the processor to start loading the bucket of `key` into its cache, so that a
    /// probe soon after does not wait for memory (the search calls it as it makes a move).
    /// A hint only: a no-op where the target has no prefetch instruction (wasm).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching reads nothing architecturally visible and never faults; the
        // address is that of a live bucket anyway.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key) as *const Bucket as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up (in another process's part, by messages, when another holds it).
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if let Some((remote, part)) = self.remote.as_ref().and_then(|r| Some((r, r.elsewhere(key)?))) {
            return remote.probe(part, key, self);
        }
        self.probe_here(key)
    }

    /// Looks `key` up in this table's own slots (a part serves its entries to others so).
    pub fn probe_here(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        (0..SLOTS_PER_BUCKET).find_map(|slot| {
            let (check, data) = load(bucket, slot);
            (data != 0 && check ^ data == key).then(|| Entry::unpack(data))
        })
    }

    /// Stores a result (in another process's part, by a message, when another holds it).
    pub fn store(&self, key: u64, entry: Entry) {
        if let Some((remote, part)) = self.remote.as_ref().and_then(|r| Some((r, r.elsewhere(key)?))) {
            return remote.store(part, key, entry);
        }
        self.store_here(key, entry);
    }

    /// Stores a result in this table's own slots. Slot 0 keeps the deepest (or most
    /// recent search's) entry; the other slot takes whatever slot 0 refuses, so fresh
    /// results are never lost.
    pub fn store_here(&self, key: u64, mut entry: Entry) {
        entry.generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut target = 1;
        for slot in 0..SLOTS_PER_BUCKET {
            let (check, data) = load(bucket, slot);
            if data != 0 && check ^ data == key {
                let old = Entry::unpack(data);
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact && old.depth > entry.depth + 2 && old.generation == entry.generation {
                    return;
                }
                target = slot;
                break;
            }
            if slot == 0 {
                let old = Entry::unpack(data);
                if data == 0 || old.generation != entry.generation || old.depth <= entry.depth {
                    target = slot;
                    break;
                }
            }
        }
        let data = entry.pack();
        bucket.0[target * 2].store(key ^ data, Relaxed);
        bucket.0[target * 2 + 1].store(data, Relaxed);
    }

    /// Per mille of the first thousand slots holding an entry of the current search.
    pub fn hashfull(&self) -> u32 {
        let g = self.generation.load(Relaxed);
        let sample = (self.slots.len() * SLOTS_PER_BUCKET).min(1000);
        let used = (0..sample)
            .filter(|&i| {
                let data = load(&self.slots[i / SLOTS_PER_BUCKET], i % SLOTS_PER_BUCKET).1;
                data != 0 && Entry::unpack(data).generation == g
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MiB in all give the sizes they always gave; entries on each processor make a
    /// table that grows with the machine, each part the same.
    #[test]
    fn a_table_of_entries_on_each_processor_grows_with_the_machine() {
        let shape = |t: TranspositionTable| (t.buckets, t.parts);
        // 16 MiB: 2^19 buckets of 32 bytes, whole or in 16 parts.
        assert_eq!(shape(TranspositionTable::try_new(16).unwrap()), (1 << 19, 1));
        assert_eq!(shape(TranspositionTable::try_split(TableSize::Mib(16), 16, 16).unwrap()), (1 << 15, 16));
        assert_eq!(shape(TranspositionTable::try_share(TableSize::Mib(16), 16).unwrap()), (1 << 15, 1));
        // 20,000 entries (10,000 buckets) on each of 16 processors.
        let each = TableSize::EntriesEach(20_000);
        assert_eq!(shape(TranspositionTable::try_split(each, 16, 16).unwrap()), (10_000, 16));
        assert_eq!(shape(TranspositionTable::try_split(each, 1, 16).unwrap()), (160_000, 1));
        assert_eq!(shape(TranspositionTable::try_share(each, 16).unwrap()), (10_000, 1));
        assert_eq!(shape(TranspositionTable::try_split(each, 1, 1).unwrap()), (10_000, 1));
    }

    #[test]
    fn the_32_bit_bucket_index_is_the_128_bit_one() {
        let mut key = 0x9e37_79b9_7f4a_7c15u64;
        for n in [1u32, 2, 3, 1000, 524_288, 33_554_432, 0x7fff_ffff, u32::MAX] {
            for extreme in [0, 1, u64::MAX, u64::MAX - 1, 1 << 63, 0xffff_ffff, 1 << 32] {
                assert_eq!(scale_32(extreme, n) as u128, (extreme as u128 * n as u128) >> 64, "key {extreme:#x}, n {n}");
            }
            for _ in 0..10_000 {
                key ^= key << 13;
                key ^= key >> 7;
                key ^= key << 17;
                assert_eq!(scale_32(key, n) as u128, (key as u128 * n as u128) >> 64, "key {key:#x}, n {n}");
            }
        }
    }
}
