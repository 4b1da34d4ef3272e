//! The native command line: `meshmate` speaks UCI on stdin/stdout; the subcommands
//! measure and check the engine (`meshmate --help` lists them).

/// Keeps `items` for native targets only: the command line has no place in the browser,
/// where the engine runs in a web worker, and the wasm test build compiles every target,
/// this one to an empty `main`.
macro_rules! native {
    ($($item:item)*) => {
        $(#[cfg(not(target_arch = "wasm32"))] $item)*
    };
}

native! {
    mod args;
    #[cfg(feature = "relay")]
    mod class_speedup;
    mod cli;
    mod datagen;
    mod files;
    mod host;
    #[cfg(feature = "relay")]
    mod join;
    mod output;
    mod progress;
    mod report;
    mod reproduce;
    mod sim;
    mod speedup;
    mod trace_file;
    mod train;
    mod values;

    fn main() {
        use clap::Parser;
        std::process::exit(cli::run(args::Cli::parse()));
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
