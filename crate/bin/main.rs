//! The native command line: `meshmate` speaks UCI on stdin/stdout; the subcommands
//! `bench`, `perft` and `suite` measure and check the engine.

mod cli;
mod trace_file;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::run(&args));
}
