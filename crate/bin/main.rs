//! The native command line: `meshmate` speaks UCI on stdin/stdout; the subcommands
//! measure and check the engine (`meshmate --help` lists them).

mod args;
mod cli;
mod progress;
mod report;
mod sim;
mod speedup;
mod trace_file;

use clap::Parser;

fn main() {
    std::process::exit(cli::run(args::Cli::parse()));
}
