//! The relay under load (docs/class.md): its memory with 32 idle members beating, and the
//! frames a second it forwards between 8 busy processors each sending as fast as it can,
//! with its memory then. A benchmark, not a test: it prints a table.
//!
//! `cargo run --release --example relay-load [SECONDS]` (after `cargo build --release`).
//! The relay runs with `--max-rate` raised out of the way, so the figure is the relay's own
//! limit on this machine, clients included (they share its cores).

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<TcpStream>;

fn connect(url: &str) -> Socket {
    let address = url.trim_start_matches("ws://").split('/').next().unwrap();
    let stream = TcpStream::connect(address).unwrap();
    stream.set_nodelay(true).unwrap();
    tungstenite::client(url, stream).unwrap().0
}

/// Sends `message` and reads until a text of type `answer` comes; returns it.
fn request(socket: &mut Socket, message: &str, answer: &str) -> serde_json::Value {
    socket.send(Message::text(message)).unwrap();
    loop {
        if let Message::Text(text) = socket.read().unwrap() {
            let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
            if value["type"] == answer {
                return value;
            }
        }
    }
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn main() {
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut relay = Command::new("target/release/meshmate").args(["relay", "--listen", "127.0.0.1:0", "--max-rate", "1000000"]).stdout(Stdio::piped()).spawn().expect("target/release/meshmate relay");
    let mut lines = BufReader::new(relay.stdout.take().unwrap()).lines().map(Result::unwrap);
    let url = lines.next().unwrap().rsplit(' ').next().unwrap().to_string();
    let token = lines.next().unwrap().rsplit(' ').next().unwrap().to_string();
    let create = format!(r#"{{"type":"create","token":"{token}"}}"#);
    std::thread::sleep(Duration::from_millis(200));
    let at_start = rss_kib(relay.id());

    // 32 idle members of one session, beating once a second.
    let mut owner = connect(&url);
    let code = request(&mut owner, &create, "created")["code"].as_str().unwrap().to_string();
    let mut idle: Vec<Socket> = (0..32).map(|_| connect(&url)).collect();
    for member in idle.iter_mut() {
        request(member, &format!(r#"{{"type":"join","code":"{code}"}}"#), "joined");
    }
    for _ in 0..2 {
        for member in idle.iter_mut().chain(std::iter::once(&mut owner)) {
            member.send(Message::text(r#"{"type":"beat"}"#)).unwrap();
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    let with_idle = rss_kib(relay.id());
    drop(idle);
    drop(owner);

    // 8 busy processors: each sends 64-byte program frames to the next, and reads.
    let mut owner = connect(&url);
    let code = request(&mut owner, &create, "created")["code"].as_str().unwrap().to_string();
    let mut members: Vec<Socket> = (0..7).map(|_| connect(&url)).collect();
    for member in members.iter_mut() {
        request(member, &format!(r#"{{"type":"join","code":"{code}"}}"#), "joined");
    }
    let search = request(&mut owner, r#"{"type":"start"}"#, "search")["search"].as_u64().unwrap() as u32;
    let mut sockets = vec![owner];
    for mut member in members {
        request(&mut member, r#"{"type":"beat"}"#, "search");
        sockets.push(member);
    }
    let (delivered, running) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicBool::new(true)));
    let started = Instant::now();
    let threads: Vec<_> = sockets
        .into_iter()
        .enumerate()
        .map(|(me, mut socket)| {
            let (delivered, running) = (delivered.clone(), running.clone());
            std::thread::spawn(move || {
                socket.get_mut().set_read_timeout(Some(Duration::from_micros(50))).unwrap();
                let to = ((me + 1) % 8) as u16;
                let mut frame = to.to_le_bytes().to_vec();
                frame.push(0); // FrameKind::Program
                frame.extend_from_slice(&search.to_le_bytes());
                frame.resize(64, 7);
                while running.load(Relaxed) {
                    for _ in 0..32 {
                        let _ = socket.write(Message::binary(frame.clone()));
                    }
                    let _ = socket.flush();
                    while let Ok(message) = socket.read() {
                        if message.is_binary() {
                            delivered.fetch_add(1, Relaxed);
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    let busy_rss = rss_kib(relay.id());
    let count = delivered.load(Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    running.store(false, Relaxed);
    for thread in threads {
        let _ = thread.join();
    }
    let _ = relay.kill();
    let _ = relay.wait();
    println!("| relay | RSS, MiB | frames delivered a second |");
    println!("|---|---|---|");
    println!("| listening, no session | {:.1} | |", at_start as f64 / 1024.0);
    println!("| 32 idle members beating | {:.1} | |", with_idle as f64 / 1024.0);
    println!("| 8 busy processors, 64-byte frames | {:.1} | {:.0} |", busy_rss as f64 / 1024.0, count as f64 / elapsed);
}
