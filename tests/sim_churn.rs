//! Processors that leave mid-search on the simulator (`Sim::set_departures`), as a
//! class's do: in Pure mode the work-splitting programs still return the serial value,
//! having heard the loss and searched again what they gave the processor that left.

mod common;

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::sim::{presets, Departure, Event, Leaving, Sim, SimError, TraceMode};
use meshmate::machine::{Counters, Machine, MessageKind, ProcessorSnapshot, Threads};
use meshmate::net::Kind;
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchSettings, Task};
use meshmate::tt::{Placement, Tables};

const PROCESSORS: usize = 4;
const DEPTH: i32 = 6;

fn pure() -> SearchSettings {
    SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() }
}

/// Searches `board` with `algorithm` on `machine` (each processor its own table, as in a
/// class): the score and each processor's counters.
fn run(machine: &mut Sim, algorithm: Algorithm, board: &Board) -> (i32, Vec<ProcessorSnapshot>) {
    let p = machine.processors();
    let counters = Counters::new(p);
    let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
    let tables = Tables::new(Placement::Local, 4 * p, p).unwrap();
    let task = Task { board, history: &[], limits: &limits, settings: &pure() };
    let result = search(machine, &mut Vec::new(), tables, &SearchRequest { algorithm, threads: p, task }, &Control::default(), &mut NoReports, &counters);
    (result.score, counters.snapshot())
}

/// When the first work reached `processor` in the last run `sim` traced.
fn first_work(sim: &Sim, processor: u32) -> u64 {
    let events = sim.trace().unwrap().events();
    let msg = events.iter().find_map(|e| match *e {
        Event::Send { msg, to, kind: MessageKind::Work, .. } if to == processor => Some(msg),
        _ => None,
    });
    events.iter().find_map(|e| match *e {
        Event::Deliver { t, msg: m, .. } if Some(m) == msg => Some(t),
        _ => None,
    }).unwrap_or_else(|| panic!("processor {processor} got work"))
}

fn serial_score(board: &Board) -> i32 {
    let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
    let task = Task { board, history: &[], limits: &limits, settings: &pure() };
    let tables = Tables::new(Placement::Global, 4, 1).unwrap();
    search(&mut Threads::default(), &mut Vec::new(), tables, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task }, &Control::default(), &mut NoReports, &Counters::new(1)).score
}

#[test]
fn pure_searches_on_a_class_that_loses_processors_give_the_serial_value() {
    let boards: Vec<Board> = parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap().into_iter().skip(1).take(3).map(|e| e.board).collect();
    let preset = presets::CLASSROOM;
    for (i, board) in boards.iter().enumerate() {
        let serial = serial_score(board);
        for algorithm in [Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::PvSplit, Algorithm::Aphid] {
            let mut sim = Sim::new(preset, preset.net, PROCESSORS, 1).unwrap();
            // The processor that gets work first leaves just as it arrives, so that its owner
            // must search it again; then so does the other in the run that follows: processor
            // 1's tab closes, processor 2's freezes.
            let mut departures: Vec<Departure> = Vec::new();
            for _ in 0..2 {
                sim.set_trace(TraceMode::Full);
                sim.set_departures(departures.clone()).unwrap();
                run(&mut sim, algorithm, board);
                let staying = [1, 2].into_iter().filter(|&p| departures.iter().all(|d| d.processor != p));
                let (processor, at_ns) = staying.map(|p| (p, first_work(&sim, p as u32))).min_by_key(|&(_, t)| t).unwrap();
                let how = if processor == 1 { Leaving::Closed } else { Leaving::Silent };
                departures.push(Departure { processor, at_ns: at_ns + 1, how });
            }
            sim.set_trace(TraceMode::Off);
            sim.set_departures(departures.clone()).unwrap();
            let (score, counters) = run(&mut sim, algorithm, board);
            let case = format!("BK.0{} {algorithm:?}", i + 2);
            assert_eq!(score, serial, "{case}: the value with processors 1 and 2 gone");
            for d in &departures {
                assert!(counters[d.processor].received[MessageKind::Work.index()] > 0, "{case}: processor {} had work before it left", d.processor);
            }
            let heard: u64 = counters.iter().map(|c| c.received[MessageKind::Lost.index()]).sum();
            assert!(heard > 0, "{case}: the loss was heard");
            for d in &departures {
                let (lived_us, left_us) = (counters[d.processor].busy_us + counters[d.processor].idle_us, d.at_ns / 1000);
                assert!(lived_us <= left_us + 1, "{case}: processor {}'s time ends when it leaves ({lived_us} µs, left at {left_us} µs)", d.processor);
            }
        }
    }
}

#[test]
fn only_a_machine_that_notices_losses_loses_processors_and_never_processor_0() {
    let mut class = Sim::new(presets::CLASSROOM, Kind::Full, 4, 1).unwrap();
    let leave = |processor| vec![Departure { processor, at_ns: 1_000, how: Leaving::Closed }];
    assert!(matches!(class.set_departures(leave(0)), Err(SimError::Departure(_))), "processor 0 stays");
    assert!(matches!(class.set_departures(leave(4)), Err(SimError::Departure(_))), "no processor 4 of 4");
    assert!(class.set_departures(leave(3)).is_ok());
    let mut t800 = Sim::new(presets::T800, Kind::DeBruijn, 4, 1).unwrap();
    assert!(matches!(t800.set_departures(leave(1)), Err(SimError::Departure(_))), "a Transputer never leaves");
}
