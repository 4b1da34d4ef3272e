//! A `meshmate relay` process for the class experiments (classroom.rs, class_soak.rs):
//! started on a free port with the given options, its URL and lecturer's token read from
//! the two lines it prints, killed when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The binary the relay and the students run.
pub const MESHMATE: &str = "target/release/meshmate";

/// A `meshmate relay` on a free port, ended when dropped.
pub struct Relay {
    pub child: Child,
    pub url: String,
    /// The lecturer's token it printed.
    pub token: String,
}

impl Relay {
    /// Starts one with `options` beside `--listen 127.0.0.1:0`.
    pub fn start(options: &[&str]) -> Relay {
        let mut child = Command::new(MESHMATE)
            .args(["relay", "--listen", "127.0.0.1:0"])
            .args(options)
            .stdout(Stdio::piped())
            .spawn()
            .expect("target/release/meshmate relay (cargo build --release first)");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines().map(Result::unwrap);
        let url = lines.next().unwrap().rsplit(' ').next().unwrap().to_string();
        let token = lines.next().unwrap().rsplit(' ').next().unwrap().to_string();
        Relay { child, url, token }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
