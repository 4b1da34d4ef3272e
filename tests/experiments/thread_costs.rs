//! What a message costs on the threads machine, measured natively: the source of the
//! `multicore` preset's message and wake-up constants (crate/machine/sim/presets.rs).
//! The measurement is `meshmate::machine::costs`; the browser runs the same code on its
//! web workers (`node www/tests/thread-costs-wasm.mjs`).
//!
//!     cargo run --release --example thread-costs
//!
//! The machine should be quiet (both cores free).

use meshmate::machine::{costs, Threads};

fn main() {
    println!("{:>12} {:>8} {:>12} {:>12} {:>12} {:>20} {:>8} {:>10}", "waited µs", "rounds", "median µs", "mean µs", "trimmed µs", "trimmed wake-up µs", "caught", "caught µs");
    let rows = costs::measure(&mut Threads::default());
    let spinning = rows[0].trimmed_us;
    for row in rows {
        println!("{:>12} {:>8} {:>12.2} {:>12.2} {:>12.2} {:>20.2} {:>8.3} {:>10.2}", row.waited_us, row.rounds, row.median_us, row.mean_us, row.trimmed_us, row.trimmed_us - spinning, row.caught_share, row.caught_mean_us);
    }
}
