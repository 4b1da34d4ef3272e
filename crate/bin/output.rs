//! The commands' lines on standard output. A reader that stops early (`meshmate bench |
//! head`) is no error: the command ends quietly, as Unix tools do, where `println!` would
//! panic.

use std::io::{ErrorKind, Write};

/// Writes one line on standard output. Ends the process quietly (exit code 0) when nobody
/// reads it any more, and with a message and exit code 1 on any other failure to write.
pub fn line(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` for the commands' output (see [`line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
pub(crate) use say;
