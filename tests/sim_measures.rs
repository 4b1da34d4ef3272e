//! The simulator's measures of StarTech and TDSAB: work W and critical path C obey their
//! definitions on real searches, the a·W/P + b·C fit recovers known coefficients, and
//! CPU-availability-aware PV-splitting is exact in pure mode and pays on unequal machines.
mod common;

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::sim::{fit_work_span, Sim, WorkSpan};
use meshmate::stats::{simulate_suite, SimRow, SimSuite};
use meshmate::parallel::Algorithm;
use meshmate::search::{SearchOptions, SearchSettings};
use meshmate::tt::{Placement, TableSize};

fn bratko_kopec(take: usize) -> Vec<Board> {
    parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap().into_iter().take(take).map(|e| e.board).collect()
}

/// Runs `algorithms` on `preset` with each processor count of `procs`, beside the serial search.
fn experiment(preset: &str, procs: &[usize], boards: &[Board], depth: i32, algorithms: &[Algorithm], pure: bool) -> Vec<SimRow> {
    let mut serial = Sim::from_names(preset, None, 1, 1).unwrap();
    let mut machines: Vec<Sim> = procs.iter().map(|&p| Sim::from_names(preset, None, p, 1).unwrap()).collect();
    let settings = SearchSettings { options: SearchOptions { pure, ..SearchOptions::default() }, ..SearchSettings::default() };
    let suite = SimSuite { boards, depth, table: TableSize::Mib(4), placement: Placement::Global, settings, carry: false };
    simulate_suite(&mut serial, &mut machines, &suite, algorithms, &mut |_| {}).unwrap()
}

/// For every message-passing algorithm, on a network with latency: C ≤ T(p) (the span
/// law), C ≤ W, W/C ≥ 1; at p = 1, W = T(1) and a tree has parallelism above 1.
#[test]
fn work_and_critical_path_obey_their_definitions() {
    let algorithms = [Algorithm::PvSplit, Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::Dts, Algorithm::PvSplitAware];
    let rows = experiment("t800", &[1, 4, 16], &bratko_kopec(2), 5, &algorithms, false);
    for r in rows.iter() {
        let c = r.critical_path_ns.unwrap_or_else(|| panic!("{} timed no critical path", r.algorithm));
        assert!(c <= r.time_ns, "{} p={}: C {c} > T {}", r.algorithm, r.processors, r.time_ns);
        assert!(c <= r.work_ns, "{} p={}: C {c} > W {}", r.algorithm, r.processors, r.work_ns);
        assert!(r.parallelism().unwrap() >= 1.0);
        if r.processors == 1 {
            assert_eq!(r.work_ns, r.time_ns, "{}: one processor is busy all the time", r.algorithm);
            assert!(c < r.work_ns, "{}: C {c} is not below W {}: a tree's brothers are parallel", r.algorithm, r.work_ns);
            assert_eq!(r.overheads.synchronization, 0.0);
        }
    }
    // With 16 processors the work spreads: some parallelism, and idle time shows.
    let wide: Vec<&SimRow> = rows.iter().filter(|r| r.processors == 16).collect();
    assert!(wide.iter().any(|r| r.parallelism().unwrap() > 1.5), "{:?}", wide.iter().map(|r| r.parallelism()).collect::<Vec<_>>());
    assert!(wide.iter().all(|r| r.overheads.synchronization > 0.0 && r.overheads.communication > 0.0));
}

/// The shared-table algorithms on several processors and TDSAB report no critical path:
/// C is `None`, not a guess; the serial search's is its tree's span, below its work.
#[test]
fn algorithms_without_a_timed_critical_path_say_so() {
    let rows = experiment("multicore", &[4], &bratko_kopec(1), 4, &[Algorithm::LazySmp, Algorithm::Tdsab], false);
    assert!(rows.iter().filter(|r| r.algorithm != "serial").all(|r| r.critical_path_ns.is_none()));
    let serial = rows.iter().find(|r| r.algorithm == "serial").unwrap();
    let c = serial.critical_path_ns.expect("the serial search reports its span");
    assert!(c > 0 && c < serial.work_ns, "C {c}, W {}", serial.work_ns);
}

/// Exact data made from a = 1.2 and b = 3.5 gives back a and b; one run fits nothing.
#[test]
fn the_fit_recovers_exact_coefficients() {
    let runs: Vec<WorkSpan> = [(1, 1000, 1000), (2, 1100, 400), (4, 1300, 300), (8, 1600, 250), (16, 2000, 240)]
        .into_iter()
        .map(|(p, w, c): (usize, u64, u64)| {
            let (work_ns, critical_path_ns) = (w * 1000, c * 1000);
            let time_ns = (1.2 * work_ns as f64 / p as f64 + 3.5 * critical_path_ns as f64).round() as u64;
            WorkSpan { processors: p, time_ns, work_ns, critical_path_ns }
        })
        .collect();
    let fit = fit_work_span(&runs).expect("two independent terms");
    assert!((fit.a - 1.2).abs() < 1e-3 && (fit.b - 3.5).abs() < 1e-3, "{fit:?}");
    assert!(fit.rms_relative_error < 1e-6);
    assert_eq!(fit.runs, 5);
    assert_eq!(fit_work_span(&runs[..1]), None);
}

/// In pure mode the aware variant returns the serial minimax value, on unequal loaded
/// PCs and on a wider machine.
#[test]
fn aware_pvsplit_is_exact_in_pure_mode() {
    for (preset, p) in [("lan", 3), ("multicore", 7)] {
        let rows = experiment(preset, &[p], &bratko_kopec(3), 5, &[Algorithm::PvSplitAware, Algorithm::PvSplitAvailable], true);
        for pair in rows.chunks(3) {
            assert_eq!(pair[0].score, pair[1].score, "{preset} p={p} position {}", pair[0].position + 1);
            assert_eq!(pair[0].score, pair[2].score, "{preset} p={p} position {} (pool)", pair[0].position + 1);
        }
    }
}

/// On the LAN of three unequal PCs under background load, sizing work by measured speed
/// takes no longer than plain PV-splitting over Bratko-Kopec 1-6 (deterministic virtual
/// time; `docs/experiments.md` has the whole suite).
#[test]
fn aware_pvsplit_is_not_slower_than_pvsplit_on_unequal_machines() {
    let rows = experiment("lan", &[3], &bratko_kopec(6), 9, &[Algorithm::PvSplit, Algorithm::PvSplitAware], false);
    let total = |name: &str| rows.iter().filter(|r| r.algorithm == name).map(|r| r.time_ns).sum::<u64>();
    let ratio = total("pvsplit-aware") as f64 / total("pvsplit") as f64;
    assert!(ratio <= 1.0, "aware / plain time = {ratio:.3}");
}
