//! A class whose members have several cores, modelled: a member that searches each job
//! on k threads (`meshmate join --threads k`, a cross-origin isolated tab; the helpers of
//! `parallel::cores`) is a processor whose nodes cost `1 / speedup(k)` of one core's,
//! `speedup(k)` being the time-to-depth speedup of Lazy SMP on k threads, which is what
//! its helpers run over the member's table. Processor 0, the lecturer's, keeps one core
//! (its program searches alone), and so does the serial search every speedup is taken
//! against: the class is compared with one core of one laptop.
//!
//! What the model leaves out: a job's helpers start with it and stop with it, so a short
//! job gains less than a root search does; and in pure mode the job's value is its own
//! searcher's, never a helper's, where Lazy SMP at the root takes whichever thread
//! finished first. Both make the factor an upper bound for a member's jobs.

use super::Preset;

/// The time-to-depth speedup of Lazy SMP on k threads, for the k a member may be modelled
/// with.
/// - 2: 1.45 ± 0.07, measured on this 2-core host (depth 14, 64 MiB, the 24 Bratko-Kopec
///   positions, 8 rounds, at 6797555; `python3 tests/experiments/two_threads.py --depth 14
///   --rounds 8`; docs/algorithms.md, its "2 threads" column).
/// - 4: not measurable on this host's two cores. The simulator's `multicore` machine
///   gives Lazy SMP 1.63 on 2 cores and 2.31 on 4 (depth 13, 64 MiB, the 24 positions,
///   seeds 1-4 pooled; single seeds 1.39-1.88 and 2.15-2.39: `meshmate sim --algo lazysmp
///   --procs 2,4 --preset multicore --suite ../shared/data/bratko-kopec.epd --depth 13
///   --hash 64 --seed 1-4`, at f47b96d); the simulator overstates 2 threads by 1.63 /
///   1.45, so 4 is taken as 2.31 × 1.45 / 1.63 = 2.05.
pub const LAZY_SMP_SPEEDUP: [(usize, f64); 3] = [(1, 1.0), (2, 1.45), (4, 2.05)];

/// The speedup a member with `cores` cores is modelled with, or why it cannot be.
pub fn cores_speedup(cores: usize) -> Result<f64, String> {
    LAZY_SMP_SPEEDUP.iter().find(|&&(k, _)| k == cores).map(|&(_, speedup)| speedup).ok_or_else(|| {
        let known: Vec<String> = LAZY_SMP_SPEEDUP.iter().map(|(k, _)| k.to_string()).collect();
        format!("{cores} cores a member: the model knows Lazy SMP's speedup on {} (crate/machine/sim/member_cores.rs)", known.join(", "))
    })
}

/// `preset` for a machine of `processors`, members 1.. having `cores` cores each (their
/// node time divided by [`cores_speedup`]). Only a class's presets (those that announce
/// their task, as a class's processor 0 does) have members. The node times are leaked: a
/// preset holds them for the program's life, and a run builds a few machines.
pub fn with_cores_per_member(preset: Preset, processors: usize, cores: usize) -> Result<Preset, String> {
    let speedup = cores_speedup(cores)?;
    if cores == 1 {
        return Ok(preset);
    }
    if !preset.announces_task {
        return Err(format!("cores a member models a class; {} is no class (its processors are one core each)", preset.name));
    }
    let pattern = preset.node_ns;
    let node_ns: Vec<u64> = (0..processors).map(|id| pattern[id % pattern.len()]).enumerate().map(|(id, ns)| if id == 0 { ns } else { (ns as f64 / speedup).round() as u64 }).collect();
    Ok(Preset { node_ns: Box::leak(node_ns.into_boxed_slice()), ..preset })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::sim::presets::{CLASSROOM_10MS, MULTICORE};

    #[test]
    fn members_but_not_processor_0_search_faster_and_only_in_a_class() {
        let four = with_cores_per_member(CLASSROOM_10MS, 3, 4).unwrap();
        assert_eq!(four.node_ns, &[538, 262, 262]);
        assert_eq!(with_cores_per_member(CLASSROOM_10MS, 3, 1).unwrap().node_ns, &[538]);
        assert!(with_cores_per_member(MULTICORE, 3, 2).unwrap_err().contains("no class"));
        assert!(with_cores_per_member(CLASSROOM_10MS, 3, 3).unwrap_err().contains("1, 2, 4"));
    }
}
