//! The five papers' published tables, as printed (../shared/data/published-figures.md is
//! the source; `tests/papers.rs` checks that every number here appears there in its row).
//! One copy for the command line (`meshmate reproduce`) and the browser Lab: numbers are
//! kept as the printed text (commas, decimals and rounding as in the paper) and read as
//! numbers with [`number`].

/// A printed number read as a value: thousands commas and a trailing `%` dropped.
pub fn number(printed: &str) -> f64 {
    printed.trim().trim_end_matches('%').trim().replace(',', "").parse().unwrap_or(f64::NAN)
}

/// Zugzwang (Feldmann, Mysliwietz, Monien, "A Fully Distributed Chess Program"),
/// Figure 5: one Bratko-Kopec position, 7-ply iterative deepening, 1 against 64 T800s.
#[derive(Clone, Copy, Debug)]
pub struct ZugzwangPosition {
    /// `B01`..`B24`.
    pub id: &'static str,
    /// The move found, as printed (`!` marks the key move).
    pub best: &'static str,
    /// N and T (seconds) on 1 processor.
    pub nodes_1: &'static str,
    /// T(1), seconds.
    pub time_1: &'static str,
    /// N(64).
    pub nodes_64: &'static str,
    /// T(64), seconds.
    pub time_64: &'static str,
    /// LD, %.
    pub load: &'static str,
    /// SO, %.
    pub search_overhead: &'static str,
    /// SPE.
    pub speedup: &'static str,
}

#[allow(clippy::too_many_arguments)] // one row of the paper's table, column by column
const fn zz(id: &'static str, best: &'static str, nodes_1: &'static str, time_1: &'static str, nodes_64: &'static str, time_64: &'static str, load: &'static str, search_overhead: &'static str, speedup: &'static str) -> ZugzwangPosition {
    ZugzwangPosition { id, best, nodes_1, time_1, nodes_64, time_64, load, search_overhead, speedup }
}

/// Zugzwang's Figure 5, the 24 positions.
pub const ZUGZWANG_FIGURE_5: [ZugzwangPosition; 24] = [
    zz("B01", "d6d1!", "279", "1", "302", "1", "3", "8.24", "1.00"),
    zz("B02", "e4e5", "960353", "2794", "1450340", "110", "75", "51.02", "25.40"),
    zz("B03", "f6f5!", "1234177", "3934", "1248054", "110", "67", "1.12", "35.76"),
    zz("B04", "e5e6!", "2694688", "8341", "2642330", "182", "77", "-1.94", "45.83"),
    zz("B05", "c3d5!", "27045744", "83853", "23755133", "1319", "93", "-12.17", "63.57"),
    zz("B06", "g5g6!", "135159", "341", "196952", "35", "32", "45.72", "9.74"),
    zz("B07", "h5f6!", "2151962", "6761", "2928631", "222", "74", "36.09", "30.45"),
    zz("B08", "f4f5!", "40244", "98", "58387", "18", "18", "45.08", "5.44"),
    zz("B09", "d1e1", "4880187", "15146", "10613436", "629", "87", "117.48", "24.08"),
    zz("B10", "c6e5!", "3145315", "9514", "7878164", "493", "86", "150.47", "19.30"),
    zz("B11", "f2f4!", "3144883", "9990", "4268380", "294", "84", "35.72", "33.98"),
    zz("B12", "d7f5!", "1174965", "3832", "1720659", "150", "70", "46.44", "25.55"),
    zz("B13", "a1c1", "4294276", "13595", "8979006", "590", "88", "109.09", "23.04"),
    zz("B14", "d1d2!", "1183076", "3719", "1875714", "154", "68", "58.55", "24.15"),
    zz("B15", "g4g7!", "591698", "1830", "1038041", "83", "72", "75.43", "22.05"),
    zz("B16", "d2e4!", "1321136", "4245", "1394034", "120", "68", "5.52", "35.38"),
    zz("B17", "h7h5!", "863240", "2742", "1428535", "124", "71", "65.49", "22.11"),
    zz("B18", "c5b3!", "3518916", "11209", "5322578", "346", "87", "51.26", "32.40"),
    zz("B19", "e8e4!", "1999356", "6233", "3113029", "216", "78", "55.70", "28.86"),
    zz("B20", "e1g1", "2897562", "9594", "5668009", "387", "87", "95.61", "24.79"),
    zz("B21", "f5h6!", "4676965", "14724", "5393288", "344", "89", "15.32", "42.80"),
    zz("B22", "b7e4!", "1580285", "4925", "4420070", "306", "84", "179.70", "16.09"),
    zz("B23", "c8f5", "2234088", "7336", "3600473", "267", "82", "61.16", "27.48"),
    zz("B24", "e4f5", "2119696", "6344", "1905989", "147", "72", "-10.08", "43.16"),
];

/// Figure 5's totals row Σ: N(1), T(1), N(64), T(64).
pub const ZUGZWANG_TOTALS: [&str; 4] = ["73888253", "231112", "100899579", "6647"];
/// Figure 5's averages row Φ: LD %, SO %, SPE at 64 processors.
pub const ZUGZWANG_AVERAGES: [&str; 3] = ["83", "36.56", "34.77"];
/// The text's headline speedups at 16, 32 and 64 processors (7 plies).
pub const ZUGZWANG_SPEEDUPS: [(usize, &str); 3] = [(16, "15.77"), (32, "25.08"), (64, "34.77")];
/// Figure 4: the 7th iteration alone on 64 processors: speedup and load (%).
pub const ZUGZWANG_LAST_ITERATION: [&str; 2] = ["40.55", "90"];
/// Figure 3: nodes per second of one searcher on position 22 (depth 1–5) alone with a
/// global table, and with the distributed table of 32 processors; the delay, %
/// (`meshmate reproduce zugzwang` measures the first run).
pub const ZUGZWANG_TABLE_COST: [&str; 3] = ["318.30", "303.00", "4.81"];
/// The text's reading of Figure 3: the distributed table costs about 5 %.
pub const ZUGZWANG_TABLE_COST_ABOUT: &str = "5";

/// Cray Blitz (Hyatt, Dynamic Tree Splitting), Table 3: the mean of the per-position
/// speedups at 2, 4, 8 and 16 CPUs of the C916.
pub const CRAY_BLITZ_TABLE_3: [(usize, &str); 4] = [(2, "2.0"), (4, "3.7"), (8, "6.6"), (16, "11.1")];
/// Table 6: each game position's speedup at 2, 4, 8 and 16 CPUs (positions 1–24).
pub const CRAY_BLITZ_TABLE_6: [[&str; 4]; 24] = [
    ["2.0", "3.4", "6.5", "9.1"],
    ["2.0", "3.6", "6.5", "10.4"],
    ["2.0", "3.7", "7.0", "13.7"],
    ["2.0", "3.9", "6.6", "11.1"],
    ["2.0", "3.6", "6.5", "8.9"],
    ["2.0", "3.7", "6.4", "9.5"],
    ["1.9", "3.6", "6.9", "10.1"],
    ["2.0", "3.7", "7.0", "10.7"],
    ["2.0", "3.6", "6.2", "9.9"],
    ["2.0", "3.8", "7.3", "13.0"],
    ["2.0", "3.7", "7.2", "12.4"],
    ["1.9", "3.8", "6.9", "11.5"],
    ["1.9", "3.8", "6.8", "11.1"],
    ["2.0", "3.5", "6.3", "9.8"],
    ["2.0", "3.7", "7.0", "10.9"],
    ["1.9", "3.9", "7.3", "12.9"],
    ["1.7", "2.6", "4.5", "6.0"],
    ["1.8", "2.9", "5.2", "7.7"],
    ["2.0", "3.8", "7.0", "13.2"],
    ["2.0", "3.9", "6.9", "14.1"],
    ["2.0", "4.0", "7.4", "15.3"],
    ["1.9", "3.7", "6.2", "9.7"],
    ["2.0", "3.8", "6.3", "9.9"],
    ["2.0", "3.9", "7.6", "14.4"],
];
/// The processor counts of Tables 3–6's columns after the first.
pub const CRAY_BLITZ_PROCESSORS: [usize; 4] = [2, 4, 8, 16];
/// Derived from Table 5 (published-figures.md 1.7): ΣN(p) / ΣN(1) at 2, 4, 8, 16 CPUs.
pub const CRAY_BLITZ_NODE_RATIO: [&str; 4] = ["1.036", "1.123", "1.235", "1.511"];

/// StarTech (Kuszmaul 1995), Figure 5: processors, t20 (s), rating, all 25 (s).
pub const STARTECH_FIGURE_5: [(usize, &str, &str, &str); 10] = [
    (1, "8936.95", "2139", "38261.91"),
    (2, "5376.45", "2183", "22007.46"),
    (4, "3152.54", "2230", "11614.43"),
    (8, "1932.27", "2272", "7411.54"),
    (16, "1240.72", "2311", "4398.32"),
    (32, "844.00", "2344", "2803.33"),
    (64, "573.19", "2378", "1670.29"),
    (128, "444.78", "2400", "1129.68"),
    (256, "378.72", "2414", "907.24"),
    (512, "319.38", "2429", "677.11"),
];
/// Derived from Figure 5 (published-figures.md 2.7): T(1)/T(p) for t20 and all 25.
pub const STARTECH_RATIOS: [(usize, &str, &str); 9] = [
    (2, "1.66", "1.74"),
    (4, "2.83", "3.29"),
    (8, "4.63", "5.16"),
    (16, "7.20", "8.70"),
    (32, "10.59", "13.65"),
    (64, "15.59", "22.91"),
    (128, "20.09", "33.87"),
    (256, "23.60", "42.17"),
    (512, "27.98", "56.51"),
];
/// Eq. 2: T ≈ c1·W/P + c2·C + constant (seconds).
pub const STARTECH_FIT: [&str; 3] = ["1.02", "1.5", "4.3"];
/// Eq. 1: rating ≈ 2930 − 200·log10(t20).
pub fn startech_rating(t20_seconds: f64) -> f64 {
    2930.0 - 200.0 * t20_seconds.log10()
}
/// What the simulator can set beside one of Figure 8's shares of the cycles: a processor
/// is busy with chess work, busy with messages, or asleep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleUse {
    /// Searching (Jamboree's control flow included, as Figure 9 counts it).
    ChessWork,
    /// Answering another processor's message.
    Messages,
    /// Waiting: for a table read, a child, an abort or work.
    Waiting,
}
/// Figure 8: every printed share of all cycles (512 processors, one typical position), in
/// its order, with the use it is counted under: chess work; waiting for table reads;
/// deliberately idle; searching for work; waiting for a child; answering a table look-up;
/// answering a work request; a child waiting for its abort.
pub const STARTECH_CYCLES: [(&str, CycleUse); 8] = [
    ("68.8%", CycleUse::ChessWork),
    ("14.4%", CycleUse::Waiting),
    ("6.6%", CycleUse::Waiting),
    ("3.6%", CycleUse::Waiting),
    ("3.2%", CycleUse::Waiting),
    ("2.2%", CycleUse::Messages),
    ("0.6%", CycleUse::Messages),
    ("0.5%", CycleUse::Waiting),
];
/// Figure 8's shares counted under `used`, summed (percent).
pub fn startech_cycles(used: CycleUse) -> f64 {
    STARTECH_CYCLES.iter().filter(|c| c.1 == used).map(|c| number(c.0)).sum()
}

/// TDSAB (Kishimoto and Schaeffer), one row of Tables 1 (Awari) and 2 (Amazons):
/// processors, time (s), speedup, search, synchronization and communication overhead (%).
pub type TdsabRow = (usize, &'static str, &'static str, &'static str, &'static str, &'static str);
/// Table 1, Awari, 24 plies.
pub const TDSAB_AWARI: [TdsabRow; 4] = [(8, "463.81", "4.69", "18.5", "20.3", "0.8"), (16, "253.48", "8.59", "15.3", "30.1", "1.1"), (32, "152.67", "14.26", "15.6", "40.5", "1.5"), (64, "99.80", "21.82", "15.6", "55.0", "3.6")];
/// Table 2, Amazons, 5 plies.
pub const TDSAB_AMAZONS: [TdsabRow; 4] = [(8, "343.58", "4.67", "55.8", "11.1", "0.9"), (16, "180.11", "8.90", "55.2", "15.1", "1.0"), (32, "116.11", "13.81", "79.2", "25.4", "1.3"), (64, "68.25", "23.50", "66.4", "35.5", "3.6")];

/// Hasan: the reply time to one human move from each state on one PC and on three
/// unequal PCs (state, 1 PC s, 3 PCs s, speedup derived from the two).
pub const HASAN_STATES: [(usize, &str, &str, &str); 4] = [(1, "35.48", "12.5", "2.84"), (9, "45.07", "20.29", "2.22"), (15, "69.87", "26", "2.69"), (24, "40.06", "16.25", "2.47")];
/// Nodes per second on one PC (average) and the least on three.
pub const HASAN_NODES_PER_SECOND: [&str; 2] = ["421,946", "1,200,000"];
