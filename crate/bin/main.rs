//! The native command line: `meshmate` speaks UCI on stdin/stdout; the subcommands
//! measure and check the engine (`meshmate --help` lists them).

#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod files;
#[cfg(not(target_arch = "wasm32"))]
mod host;
#[cfg(not(target_arch = "wasm32"))]
mod output;
#[cfg(not(target_arch = "wasm32"))]
mod progress;
#[cfg(not(target_arch = "wasm32"))]
mod report;
#[cfg(not(target_arch = "wasm32"))]
mod sim;
#[cfg(not(target_arch = "wasm32"))]
mod speedup;
#[cfg(not(target_arch = "wasm32"))]
mod trace_file;
#[cfg(not(target_arch = "wasm32"))]
mod values;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use clap::Parser;
    std::process::exit(cli::run(args::Cli::parse()));
}

/// The command line is native only (in the browser the engine runs in a web worker); the
/// wasm test build compiles every target, this one to nothing.
#[cfg(target_arch = "wasm32")]
fn main() {}
