//! Progress of the long commands: a bar with the time left on standard error when that
//! is a terminal, and nothing at all otherwise, so that pipes, logs and UCI see exactly
//! the lines they always saw. The commands' own lines go to standard output through
//! [`Progress::println`], which keeps them clear of the bar.

use crate::output::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A count of units of work done, shown on a terminal.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// Progress over `total` units called `unit` ("searches", "positions").
    pub fn new(total: usize, unit: &str) -> Progress {
        let target = if std::io::stderr().is_terminal() { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
        let bar = ProgressBar::with_draw_target(Some(total as u64), target);
        let template = format!("{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {unit}, {{eta}} left {{msg}}");
        bar.set_style(ProgressStyle::with_template(&template).expect("the template is valid").progress_chars("=> "));
        Progress { bar }
    }

    /// Prints a line of the command's output on standard output.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| say!("{line}"));
    }

    /// One unit done.
    pub fn step(&self) {
        self.bar.inc(1);
    }

    /// Says what is being worked on, beside the bar.
    pub fn working_on(&self, what: String) {
        self.bar.set_message(what);
    }
}

impl Drop for Progress {
    /// The bar disappears when the work is done (or abandoned on an error).
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
