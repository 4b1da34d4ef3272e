//! The class's relay as its clients meet it: the real `meshmate relay` binary on a free
//! port, clients over real sockets (tungstenite's blocking client, as native processors
//! use), the protocol of crate/relay/mod.rs message by message.
// Native only: the wasm test build compiles every test target.
#![cfg(not(target_arch = "wasm32"))]

use meshmate::machine::frame::{frame, FrameKind};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// How long any one wait may take before the test fails rather than hangs.
const PATIENCE: Duration = Duration::from_secs(10);

/// A running relay, killed when dropped.
struct Relay {
    child: Child,
    address: String,
    /// The lecturer's token it printed at start.
    token: String,
}

impl Relay {
    /// `meshmate relay --listen 127.0.0.1:0` and `options`, with `--lost-after-ms 600`
    /// unless they say otherwise.
    fn start(options: &[&str]) -> Relay {
        let lost_after: &[&str] = if options.contains(&"--lost-after-ms") { &[] } else { &["--lost-after-ms", "600"] };
        let mut child = Command::new(env!("CARGO_BIN_EXE_meshmate"))
            .args(["relay", "--listen", "127.0.0.1:0"])
            .args(lost_after)
            .args(options)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the relay starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines().map(Result::unwrap);
        let line = lines.next().unwrap();
        let address = line
            .strip_prefix("relay listening on ws://")
            .and_then(|rest| rest.strip_suffix("/class"))
            .unwrap_or_else(|| panic!("the first line: {line:?}"))
            .to_string();
        let line = lines.next().unwrap();
        let token = line.strip_prefix("lecturer token ").unwrap_or_else(|| panic!("the second line: {line:?}")).to_string();
        Relay { child, address, token }
    }

    fn connect(&self) -> Client {
        self.upgrade(None).unwrap_or_else(|status| panic!("the upgrade was refused: {status}"))
    }

    /// A WebSocket to the relay, from a page of `origin` if given; the HTTP status if the
    /// upgrade is refused.
    fn upgrade(&self, origin: Option<&str>) -> Result<Client, u16> {
        use tungstenite::client::IntoClientRequest;
        let stream = TcpStream::connect(&self.address).unwrap();
        stream.set_nodelay(true).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let mut request = format!("ws://{}/class", self.address).into_client_request().unwrap();
        if let Some(origin) = origin {
            request.headers_mut().insert("origin", origin.parse().unwrap());
        }
        let socket = match tungstenite::client(request, stream) {
            Ok((socket, _)) => socket,
            Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => return Err(response.status().as_u16()),
            Err(e) => panic!("the upgrade failed: {e}"),
        };
        // Short reads from now on, so a waiting client can beat.
        socket.get_ref().set_read_timeout(Some(Duration::from_millis(50))).unwrap();
        Ok(Client { socket, beating: true, last_sent: Instant::now(), trace: Vec::new(), dropped: 0 })
    }

    /// A new session: its owner and code.
    fn create(&self) -> (Client, String) {
        let mut owner = self.connect();
        owner.send(json!({"type": "create", "token": self.token}));
        let created = owner.expect("created");
        assert_eq!(created["member"], 0);
        let code = created["code"].as_str().unwrap().to_string();
        assert!(code.len() == 32 && code.chars().all(|c| c.is_ascii_hexdigit()), "128 bits as hex: {code}");
        (owner, code)
    }

    /// A member joining `code`: the client and its member number.
    fn join(&self, code: &str) -> (Client, u64) {
        let mut member = self.connect();
        member.send(json!({"type": "join", "code": code}));
        let joined = member.expect("joined");
        (member, joined["member"].as_u64().unwrap())
    }

    /// The trace of session `code` as its lecturer reads it: status, headers, body.
    fn trace(&self, code: &str) -> (u16, String, String) {
        self.get(&format!("/class/{code}/trace?token={}", self.token))
    }

    /// `GET path`: the status line's code, the headers and the body.
    fn get(&self, path: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        (head[9..12].parse().unwrap(), head.to_string(), body.to_string())
    }

    /// The relay's resident memory, KiB.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a client receives.
#[derive(Debug)]
enum Got {
    Text(Value),
    Frame { from: u16, frame: Vec<u8> },
    Closed { code: u16, reason: String },
}

/// A tab: a WebSocket that beats while it waits (unless told not to), and keeps the trace
/// events it was streamed.
struct Client {
    socket: WebSocket<TcpStream>,
    beating: bool,
    last_sent: Instant,
    trace: Vec<Value>,
    /// The events the trace stream says it left out, as of its latest batch.
    dropped: u64,
}

impl Client {
    fn send(&mut self, message: Value) {
        self.socket.send(Message::text(message.to_string())).unwrap();
        self.last_sent = Instant::now();
    }

    /// Sends `frame` to processor `to`; false if the socket is gone.
    fn send_frame(&mut self, to: u16, frame: &[u8]) -> bool {
        self.last_sent = Instant::now();
        self.socket.send(Message::binary([&to.to_le_bytes()[..], frame].concat())).is_ok()
    }

    /// The next message within `wait`, if any; trace batches are kept aside.
    fn poll(&mut self, wait: Duration) -> Option<Got> {
        let deadline = Instant::now() + wait;
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    if value["type"] == "trace" {
                        self.trace.extend(value["events"].as_array().unwrap().iter().cloned());
                        self.dropped = value["dropped"].as_u64().unwrap();
                        continue;
                    }
                    return Some(Got::Text(value));
                }
                Ok(Message::Binary(bytes)) => {
                    return Some(Got::Frame {
                        from: u16::from_le_bytes([bytes[0], bytes[1]]),
                        frame: bytes[2..].to_vec(),
                    })
                }
                Ok(Message::Close(close)) => {
                    let (code, reason) =
                        close.map_or((1005, String::new()), |c| (u16::from(c.code), c.reason.to_string()));
                    return Some(Got::Closed { code, reason });
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
                {
                    if self.beating && self.last_sent.elapsed() > Duration::from_millis(150) {
                        let _ = self.socket.send(Message::text(r#"{"type":"beat"}"#));
                        self.last_sent = Instant::now();
                    }
                    if Instant::now() >= deadline {
                        return None;
                    }
                }
                Err(e) => return Some(Got::Closed { code: 1006, reason: e.to_string() }),
            }
        }
    }

    fn next(&mut self) -> Got {
        self.poll(PATIENCE).expect("a message in time")
    }

    /// The next control message of this type, skipping `members` updates.
    fn expect(&mut self, kind: &str) -> Value {
        loop {
            match self.next() {
                Got::Text(value) if value["type"] == kind => return value,
                Got::Text(value) if value["type"] == "members" => {}
                other => panic!("expected {kind}, got {other:?}"),
            }
        }
    }

    /// The next data frame: its stamp and bytes.
    fn frame(&mut self) -> (u16, Vec<u8>) {
        loop {
            match self.next() {
                Got::Frame { from, frame } => return (from, frame),
                Got::Text(value) if value["type"] == "members" => {}
                other => panic!("expected a frame, got {other:?}"),
            }
        }
    }

    /// The close frame that ends the connection, after any last messages: its code and reason.
    fn closed(&mut self) -> (u16, String) {
        loop {
            if let Got::Closed { code, reason } = self.next() {
                return (code, reason);
            }
        }
    }

    /// Nothing but members updates (and beats) for `wait`.
    fn quiet(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Some(got) = self.poll(deadline.saturating_duration_since(Instant::now())) {
            assert!(matches!(&got, Got::Text(v) if v["type"] == "members"), "nothing expected, got {got:?}");
        }
    }
}

/// A program frame of search `search` carrying `body`.
fn program(search: u32, body: &[u8]) -> Vec<u8> {
    frame(FrameKind::Program, search, body)
}

/// Owner and `helpers` members, and a started search 1 on `network`: each helper is the
/// processor of its join order.
fn class(relay: &Relay, helpers: usize, network: Option<&str>) -> (Client, String, Vec<Client>) {
    let (mut owner, code) = relay.create();
    let members: Vec<Client> = (0..helpers).map(|_| relay.join(&code).0).collect();
    owner.send(match network {
        Some(net) => json!({"type": "start", "network": net}),
        None => json!({"type": "start"}),
    });
    let mut clients: Vec<Client> = std::iter::once(owner).chain(members).collect();
    for (processor, client) in clients.iter_mut().enumerate() {
        let search = client.expect("search");
        assert_eq!(
            (search["search"].as_u64(), search["processor"].as_u64(), search["processors"].as_u64()),
            (Some(1), Some(processor as u64), Some(helpers as u64 + 1))
        );
    }
    let owner = clients.remove(0);
    (owner, code, clients)
}

#[test]
fn create_join_and_start_give_each_processor_its_place() {
    let relay = Relay::start(&[]);
    let (mut owner, code) = relay.create();
    let (mut a, member_a) = relay.join(&code);
    assert_eq!(owner.expect("members")["members"], json!([0, 1]));
    let (mut b, member_b) = relay.join(&code);
    assert_eq!(owner.expect("members")["members"], json!([0, 1, 2]));
    assert_eq!((member_a, member_b), (1, 2));
    owner.send(json!({"type": "start"}));
    for (processor, client) in [&mut owner, &mut a, &mut b].into_iter().enumerate() {
        assert_eq!(
            client.expect("search"),
            json!({"type": "search", "search": 1, "processor": processor, "processors": 3, "members": [0, 1, 2]})
        );
    }
    owner.send(json!({"type": "start"}));
    assert!(
        owner.expect("error")["message"].as_str().unwrap().contains("search 1 is running"),
        "the owner is told, not cut off"
    );
    owner.send(json!({"type": "end"}));
    for client in [&mut owner, &mut a, &mut b] {
        assert_eq!(client.expect("ended"), json!({"type": "ended", "search": 1}));
    }
    owner.send(json!({"type": "start", "network": "hypercube"}));
    assert!(
        owner.expect("error")["message"].as_str().unwrap().contains("power of two"),
        "3 processors are no hypercube"
    );
    owner.send(json!({"type": "start"}));
    assert_eq!(owner.expect("search")["search"], 2, "searches count per session");

    let mut stranger = relay.connect();
    stranger.send(json!({"type": "join", "code": "0123456789abcdef0123456789abcdef"}));
    assert!(stranger.expect("error")["message"].as_str().unwrap().contains("no session"));
    assert_eq!(stranger.closed().0, 1008);
    assert_eq!(relay.get("/health").2, "ok");
}

#[test]
fn frames_carry_the_relays_stamp_and_keep_their_order() {
    let relay = Relay::start(&[]);
    let (mut owner, _, mut helpers) = class(&relay, 2, None);
    // Processor 2 writes only `to` (1); processor 1 reads `from` 2: the stamp is the relay's.
    for i in 0..1000u32 {
        assert!(helpers[1].send_frame(1, &program(1, &i.to_le_bytes())));
    }
    for i in 0..1000u32 {
        assert_eq!(helpers[0].frame(), (2, program(1, &i.to_le_bytes())), "frame {i} in order, stamped 2");
    }
    assert!(helpers[0].send_frame(0, &frame(FrameKind::Done, 1, b"counters")));
    assert_eq!(owner.frame(), (1, frame(FrameKind::Done, 1, b"counters")));
    assert!(owner.send_frame(2, &frame(FrameKind::Finished, 1, &[])), "the owner may finish");
    assert_eq!(helpers[1].frame(), (0, frame(FrameKind::Finished, 1, &[])));
    // A frame of another search is late, not wrong: dropped, and its sender stays.
    assert!(helpers[0].send_frame(0, &program(7, b"late")));
    assert!(helpers[0].send_frame(0, &program(1, b"now")));
    assert_eq!(owner.frame(), (1, program(1, b"now")));
}

#[test]
fn a_member_joining_during_a_search_waits_for_the_next() {
    let relay = Relay::start(&[]);
    let (mut owner, code, mut helpers) = class(&relay, 1, None);
    let (mut late, member) = relay.join(&code);
    assert_eq!(member, 2);
    late.expect("waiting");
    assert!(late.send_frame(0, &program(1, b"too early")), "dropped silently");
    std::thread::sleep(Duration::from_millis(100));
    assert!(helpers[0].send_frame(0, &program(1, b"on time")));
    assert_eq!(owner.frame(), (1, program(1, b"on time")));
    owner.send(json!({"type": "end"}));
    owner.expect("ended");
    helpers[0].expect("ended");
    owner.send(json!({"type": "start"}));
    let search = late.expect("search");
    assert_eq!((search["processor"].as_u64(), search["members"].clone()), (Some(2), json!([0, 1, 2])));
    assert!(late.send_frame(1, &program(2, b"now in")));
    assert_eq!(helpers[0].expect("search")["search"], 2);
    assert_eq!(helpers[0].frame(), (2, program(2, b"now in")));
}

#[test]
fn a_start_from_a_member_or_bad_json_cuts_it_off_and_the_others_go_on() {
    let relay = Relay::start(&[]);
    let (mut owner, _, mut helpers) = class(&relay, 3, None);
    helpers[0].send(json!({"type": "start"}));
    assert!(helpers[0].expect("error")["message"].as_str().unwrap().contains("only the owner"));
    let (code, reason) = helpers[0].closed();
    assert_eq!((code, reason.contains("only the owner")), (1008, true), "{reason}");
    let lost = owner.expect("lost");
    assert_eq!((&lost["search"], &lost["processor"]), (&json!(1), &json!(1)), "the notice names the search: processor 1 of the next may be somebody else");
    assert_eq!(helpers[1].expect("lost")["processor"], 1);
    helpers[1].socket.send(Message::text("{not json")).unwrap();
    assert!(helpers[1].expect("error")["message"].as_str().unwrap().contains("bad control message"));
    assert_eq!(helpers[1].closed().0, 1008);
    assert_eq!(owner.expect("lost")["processor"], 2);
    assert!(helpers[2].send_frame(0, &program(1, b"still here")));
    assert_eq!(owner.frame(), (3, program(1, b"still here")));
    assert!(owner.send_frame(3, &program(1, b"so am I")));
    assert_eq!(helpers[2].expect("lost")["processor"], 1);
    assert_eq!(helpers[2].expect("lost")["processor"], 2);
    assert_eq!(helpers[2].frame(), (0, program(1, b"so am I")));
    assert!(helpers[2].send_frame(1, &program(1, b"to the lost")), "dropped, not refused");
    assert!(helpers[2].send_frame(0, &program(1, b"after")));
    assert_eq!(owner.frame(), (3, program(1, b"after")));
}

#[test]
fn frames_no_honest_processor_sends_cut_off_their_sender() {
    let relay = Relay::start(&["--max-frame", "1000"]);
    let mut unknown = program(1, b"x");
    unknown[0] = 250;
    let cases: [(u16, Vec<u8>, &str); 6] = [
        (0, program(1, b"")[..3].to_vec(), "shorter than its header"),
        (0, program(1, &[0; 1000]), "longer than 1000 bytes"),
        (0, unknown, "unknown frame kind 250"),
        (0, frame(FrameKind::Start, 1, b"task"), "only processor 0 sends start"),
        (8, program(1, b""), "processor 8 in a search of 8"),
        (0, program(1, b""), "to itself"),
    ];
    let (mut owner, _, mut helpers) = class(&relay, 7, None);
    for (i, (to, bad, says)) in cases.into_iter().enumerate() {
        let processor = i as u16 + 2;
        let to = if says == "to itself" { processor } else { to };
        assert!(helpers[i + 1].send_frame(to, &bad));
        let (code, reason) = helpers[i + 1].closed();
        assert_eq!(code, 1008, "{says}");
        assert!(reason.contains(says), "{reason:?} says {says:?}");
        assert_eq!(owner.expect("lost")["processor"], processor, "{says}");
        assert!(helpers[0].send_frame(0, &program(1, &[i as u8])), "processor 1 goes on");
        assert_eq!(owner.frame(), (1, program(1, &[i as u8])));
    }
}

#[test]
fn a_flood_past_the_rate_cap_is_cut_off() {
    let relay = Relay::start(&["--max-rate", "100"]);
    let (mut owner, _, mut helpers) = class(&relay, 1, None);
    let mut sent = 0;
    while sent < 1000 && helpers[0].send_frame(0, &program(1, b"flood")) {
        sent += 1;
    }
    loop {
        match owner.next() {
            Got::Frame { from: 1, .. } => {}
            Got::Text(value) if value["type"] == "lost" => break assert_eq!(value["processor"], 1),
            other => panic!("frames then lost, got {other:?}"),
        }
    }
    let (code, _) = helpers[0].closed();
    assert!(code == 1008 || code == 1006, "cut off: {code}");
}

#[test]
fn a_silent_participant_is_lost_and_a_beating_one_is_not() {
    let relay = Relay::start(&[]);
    let (mut owner, _, mut helpers) = class(&relay, 2, None);
    helpers[1].beating = false;
    let start = Instant::now();
    helpers[1].send(json!({"type": "beat"})); // its last sign of life
    let mut lost = Vec::new();
    while start.elapsed() < Duration::from_millis(1800) {
        for (processor, client) in [&mut owner, &mut helpers[0]].into_iter().enumerate() {
            if let Some(got) = client.poll(Duration::from_millis(50)) {
                match got {
                    Got::Text(value) if value["type"] == "lost" => {
                        lost.push((processor, value["processor"].clone(), start.elapsed()))
                    }
                    Got::Text(value) if value["type"] == "members" => assert_eq!(value["members"], json!([0, 1])),
                    other => panic!("only lost notices (and members to the owner) expected, got {other:?}"),
                }
            }
        }
    }
    let mut told: Vec<(usize, Value)> = lost.iter().map(|(p, lost, _)| (*p, lost.clone())).collect();
    told.sort_by_key(|(p, _)| *p);
    assert_eq!(told, [(0, json!(2)), (1, json!(2))], "both told once, of processor 2: {lost:?}");
    assert!(lost.iter().all(|l| l.2 >= Duration::from_millis(600)), "not before the timeout: {lost:?}");
    let (code, reason) = helpers[1].closed();
    assert_eq!(code, 1008);
    assert!(reason.contains("silent"), "{reason}");
}

#[test]
fn the_owner_leaving_closes_the_session_for_everyone() {
    let relay = Relay::start(&[]);
    let (mut owner, code, mut helpers) = class(&relay, 2, None);
    let (mut waiting, _) = relay.join(&code);
    waiting.expect("waiting");
    owner.socket.close(None).unwrap();
    for client in helpers.iter_mut().chain([&mut waiting]) {
        assert!(client.expect("closed")["reason"].as_str().unwrap().contains("the owner left"));
        assert_eq!(client.closed().0, 1000);
    }
    let mut late = relay.connect();
    late.send(json!({"type": "join", "code": code}));
    late.expect("error");
}

#[test]
fn an_injected_delay_delays_each_hop() {
    let relay = Relay::start(&["--delay-ms", "50"]);
    let (mut owner, code, mut helpers) = class(&relay, 3, Some("ring"));
    for (processor, hops) in [(1usize, 1u32), (2, 2)] {
        let sent = Instant::now();
        assert!(helpers[processor - 1].send_frame(0, &program(1, b"slow")));
        assert_eq!(owner.frame().0, processor as u16);
        assert!(sent.elapsed() >= Duration::from_millis(50) * hops, "{hops} hops took {:?}", sent.elapsed());
    }
    // Order holds under the delay: a lost notice comes after the frames already forwarded.
    for i in 0..20u8 {
        assert!(helpers[1].send_frame(0, &program(1, &[i])));
    }
    helpers[1].socket.close(None).unwrap();
    for i in 0..20u8 {
        assert_eq!(owner.frame(), (2, program(1, &[i])));
    }
    assert_eq!(owner.expect("lost")["processor"], 2);
    let (_, _, trace) = relay.trace(&code);
    assert!(trace.lines().any(|l| l.contains(r#""ev":"deliver""#) && l.contains(r#""hops":2"#)), "{trace}");
}

/// The injected delay holds each frame for itself, not behind the frames before it:
/// twenty frames of one pair and one of another, sent at once, all arrive about one delay
/// later, each pair's in order (held one after the other they would take 2.1 s).
#[test]
fn the_injected_delay_overlaps_the_frames_in_flight() {
    let relay = Relay::start(&["--delay-ms", "100"]);
    let (mut owner, _, mut helpers) = class(&relay, 2, None);
    let sent = Instant::now();
    for i in 0..20u8 {
        assert!(helpers[0].send_frame(0, &program(1, &[i])));
    }
    assert!(helpers[1].send_frame(0, &program(1, b"other")));
    let mut from_first = Vec::new();
    for _ in 0..21 {
        match owner.frame() {
            (1, frame) => from_first.push(frame),
            (from, frame) => assert_eq!((from, frame), (2, program(1, b"other"))),
        }
    }
    let took = sent.elapsed();
    assert_eq!(from_first, (0..20u8).map(|i| program(1, &[i])).collect::<Vec<_>>());
    assert!(took >= Duration::from_millis(100) && took < Duration::from_millis(1_000), "21 frames behind 100 ms each took {took:?}");
}

#[test]
fn the_trace_has_the_sessions_events_over_http_in_the_stream_and_in_its_file() {
    let dir = std::env::temp_dir().join(format!("meshmate-relay-trace-{}", std::process::id()));
    let relay = Relay::start(&["--trace-dir", dir.to_str().unwrap()]);
    let (mut owner, code, mut helpers) = class(&relay, 2, None);
    assert!(helpers[0].send_frame(0, &program(1, b"traced")));
    assert_eq!(owner.frame().0, 1);
    assert!(helpers[1].send_frame(9, &program(1, b"")));
    assert_eq!(owner.expect("lost")["processor"], 2);
    owner.quiet(Duration::from_millis(300));
    let (status, head, body) = relay.trace(&code);
    assert_eq!(status, 200, "{head}");
    let events: Vec<Value> = body.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let has = |events: &[Value], ev: &str| events.iter().any(|e| e["ev"] == ev);
    for ev in ["join", "start", "send", "deliver", "refused", "leave", "lost"] {
        assert!(has(&events, ev), "{ev} over HTTP: {body}");
        assert!(has(&owner.trace, ev), "{ev} streamed to the owner");
    }
    let send = events.iter().find(|e| e["ev"] == "send").unwrap();
    assert_eq!(
        (&send["from"], &send["to"], &send["kind"], &send["bytes"], &send["search"]),
        (&json!(1), &json!(0), &json!("program"), &json!(13), &json!(1))
    );
    assert!(events.windows(2).all(|w| w[0]["t"].as_u64() <= w[1]["t"].as_u64()), "one clock");
    assert_eq!(relay.trace("nosuchcode").0, 404);
    // The trace is the lecturer's: not for a student who knows the code.
    assert_eq!(relay.get(&format!("/class/{code}/trace")).0, 403);
    assert_eq!(relay.get(&format!("/class/{code}/trace?token={}", "0".repeat(32))).0, 403);
    owner.socket.close(None).unwrap();
    assert_eq!(helpers[0].expect("lost")["processor"], 2);
    helpers[0].expect("closed");
    let file = std::fs::read_to_string(dir.join(format!("{code}.jsonl"))).unwrap();
    assert!(file.lines().count() > events.len(), "the file has the owner's leaving too");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn memory_stays_bounded_over_a_hundred_searches() {
    let relay = Relay::start(&[]);
    let mut warm = 0;
    for round in 0..10 {
        let (mut owner, _, mut helpers) = class(&relay, 3, None);
        for search in 1..=10u32 {
            if search > 1 {
                owner.send(json!({"type": "start"}));
                owner.expect("search");
                for helper in &mut helpers {
                    helper.expect("search");
                }
            }
            for helper in &mut helpers {
                for _ in 0..20 {
                    assert!(helper.send_frame(0, &program(search, &[7; 16 << 10])));
                }
            }
            for _ in 0..60 {
                owner.frame();
            }
            owner.send(json!({"type": "end"}));
            owner.expect("ended");
            for helper in &mut helpers {
                helper.expect("ended");
            }
        }
        owner.socket.close(None).unwrap();
        for helper in &mut helpers {
            helper.expect("closed");
        }
        if round == 1 {
            warm = relay.rss_kib();
        }
    }
    let grown = relay.rss_kib().saturating_sub(warm);
    assert!(grown < 20 << 10, "the relay grew {grown} KiB after warming up");
}

#[test]
fn a_receiver_that_cannot_keep_up_is_cut_off_not_buffered() {
    let relay = Relay::start(&[]);
    let (mut owner, code, mut helpers) = class(&relay, 3, None);
    // Processor 1 reads nothing; 28 MiB come its way, more than the relay queues for it.
    let big = program(1, &[1; 16 << 10]);
    for _ in 0..600 {
        for sender in &mut helpers[1..] {
            assert!(sender.send_frame(1, &big));
        }
        assert!(owner.send_frame(1, &big));
    }
    assert_eq!(owner.expect("lost")["processor"], 1);
    assert_eq!(helpers[2].expect("lost")["processor"], 1);
    let (_, _, trace) = relay.trace(&code);
    assert!(trace.lines().any(|l| l.contains(r#""ev":"refused","member":1,"reason":"cannot keep up"#)), "{trace}");
}

/// An owner that reads nothing for a while (a laptop busy drawing, a slow link) while the
/// class floods the trace: the batches its queue has no room for are left out and
/// counted, and the owner stays, its session whole. (Queued in full, they would fill the
/// owner's queue and cut it off, ending the class for everyone.)
#[test]
fn a_trace_flood_is_left_out_and_counted_never_cutting_the_owner_off() {
    // Silent for up to a minute: while its socket does not drain, the relay cannot read
    // the owner's beats.
    let relay = Relay::start(&["--max-rate", "1000000", "--lost-after-ms", "60000"]);
    let (mut owner, _, helpers) = class(&relay, 2, None);
    // About 50 MB of trace: more than half the owner's queue, so some is left out.
    const FRAMES: usize = 300_000;
    let mut helpers = helpers.into_iter();
    let (mut sender, mut receiver) = (helpers.next().unwrap(), helpers.next().unwrap());
    // The receiver keeps up (no more than a few thousand frames wait for it); the owner
    // does not.
    let received = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let flood = std::thread::spawn({
        let received = received.clone();
        move || {
            for i in 0..FRAMES {
                while i - received.load(std::sync::atomic::Ordering::Relaxed) > 2000 {
                    std::thread::yield_now();
                }
                assert!(sender.send_frame(2, &program(1, &(i as u32).to_le_bytes())), "the sender stays");
            }
            sender
        }
    });
    let drain = std::thread::spawn(move || {
        for i in 1..=FRAMES {
            receiver.frame();
            received.store(i, std::sync::atomic::Ordering::Relaxed);
        }
        receiver
    });
    // The owner beats but reads nothing until the flood has passed.
    while !(flood.is_finished() && drain.is_finished()) {
        owner.send(json!({"type": "beat"}));
        std::thread::sleep(Duration::from_millis(100));
    }
    let (mut sender, mut receiver) = (flood.join().unwrap(), drain.join().unwrap());
    owner.send(json!({"type": "end"}));
    owner.expect("ended");
    let last = owner.trace.iter().rev().find(|e| e["ev"] == "send").cloned();
    assert!(last.is_some(), "the owner was streamed some of the trace");
    for member in [&mut sender, &mut receiver] {
        member.expect("ended");
    }
    owner.send(json!({"type": "start"}));
    assert_eq!(owner.expect("search")["search"], 2, "the class goes on");
    // The stream's own count of what it left out, in the latest batch.
    owner.quiet(Duration::from_millis(300));
    assert!(owner.dropped > 0, "batches were left out and counted");
}

/// A page a student happens to visit cannot open the class: a foreign Origin is refused at
/// the upgrade; this machine's pages, the page's own origin, the origins allowed with
/// `--allow-origin` and native clients (no Origin) are let in.
#[test]
fn an_upgrade_from_a_foreign_origin_is_refused() {
    let relay = Relay::start(&["--allow-origin", "https://class.example.org"]);
    for foreign in ["https://evil.example", "http://10.1.2.3:8080", "null"] {
        assert_eq!(relay.upgrade(Some(foreign)).err(), Some(403), "{foreign}");
    }
    let own = format!("http://{}", relay.address);
    for allowed in ["https://class.example.org", "http://localhost:5173", own.as_str()] {
        let mut client = relay.upgrade(Some(allowed)).unwrap_or_else(|status| panic!("{allowed}: {status}"));
        client.send(json!({"type": "join", "code": "0".repeat(32)}));
        assert!(client.expect("error")["message"].as_str().unwrap().contains("no session"), "{allowed}: a socket of the relay's");
    }
}

/// Strangers (no token, or a wrong one) cannot create sessions, so however many try, the
/// lecturer still creates its class with its token and runs it; students need only the code.
#[test]
fn strangers_cannot_create_sessions_and_the_lecturer_still_can() {
    let relay = Relay::start(&[]);
    for i in 0..65 {
        let mut stranger = relay.connect();
        stranger.send(if i % 2 == 0 { json!({"type": "create"}) } else { json!({"type": "create", "token": "0".repeat(32)}) });
        assert!(stranger.expect("error")["message"].as_str().unwrap().contains("lecturer's token"), "stranger {i}");
        assert_eq!(stranger.closed().0, 1008);
    }
    let (mut owner, _, mut helpers) = class(&relay, 2, None);
    assert!(helpers[0].send_frame(0, &program(1, b"hello")));
    assert_eq!(owner.frame(), (1, program(1, b"hello")));
    assert!(owner.send_frame(2, &program(1, b"back")));
    assert_eq!(helpers[1].frame(), (0, program(1, b"back")));
}

/// Connections that never join hold no more than `--max-unjoined` places, and a newer one
/// takes the oldest one's place (closed, "evicted"): strangers who open connections and say
/// nothing push each other out, and cannot keep a class's students from joining. All
/// connections together hold no more than `--max-connections`: past it the upgrade is
/// refused (503), and a place comes back when its connection goes.
#[test]
fn strangers_past_the_unjoined_cap_are_evicted_and_connections_past_the_cap_refused() {
    let relay = Relay::start(&["--max-connections", "4", "--max-unjoined", "2", "--lost-after-ms", "60000"]);
    let evicted = |client: &mut Client, who: &str| {
        let (code, reason) = client.closed();
        assert!(code == 1008 && reason.contains("evicted"), "{who} gave its place: {code} {reason}");
    };
    let mut oldest = relay.connect();
    let mut strangers: Vec<Client> = (0..2).map(|_| relay.connect()).collect();
    evicted(&mut oldest, "the oldest stranger");
    // The lecturer and a student still get in past the two strangers holding the cap,
    // each taking the place of the oldest one.
    let mut owner = relay.connect();
    owner.send(json!({"type": "create", "token": relay.token}));
    let code = owner.expect("created")["code"].as_str().unwrap().to_string();
    let (_member, _) = relay.join(&code);
    evicted(&mut strangers[0], "the older stranger, for the lecturer");
    // Four connections at once at most (a stranger, the lecturer, the student): one more
    // fills the relay once the evicted strangers are gone, and a fifth is refused.
    let deadline = Instant::now() + PATIENCE;
    let mut more = Vec::new();
    while more.is_empty() {
        match relay.upgrade(None) {
            Ok(client) => more.push(client),
            Err(503) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(status) => panic!("no place came back: {status}"),
        }
    }
    assert_eq!(relay.upgrade(None).err(), Some(503), "a fifth connection");
}

/// The owner's connection drops (Wi-Fi, a laptop lid) in the middle of a search: the
/// search is over (processor 0 lost, then ended, as every participant is told), the members
/// wait, and the owner resumes its session with the token `created` gave it, its class
/// intact for the next search. A wrong token, or a resume while the owner is here, is
/// refused; an owner that does not come back within the grace period closes the session.
#[test]
fn a_dropped_owner_resumes_its_class_within_the_grace_period() {
    let relay = Relay::start(&["--owner-grace-ms", "5000"]);
    let mut owner = relay.connect();
    owner.send(json!({"type": "create", "token": relay.token}));
    let created = owner.expect("created");
    let (code, resume) = (created["code"].as_str().unwrap().to_string(), created["resume"].as_str().unwrap().to_string());
    assert!(resume.len() == 32 && resume != code && resume != relay.token, "a token of its own: {resume}");
    let mut helpers: Vec<Client> = (0..2).map(|_| relay.join(&code).0).collect();
    owner.send(json!({"type": "start"}));
    owner.expect("search");
    for helper in &mut helpers {
        helper.expect("search");
    }
    let mut intruder = relay.connect();
    intruder.send(json!({"type": "resume", "code": code, "token": resume}));
    assert!(intruder.expect("error")["message"].as_str().unwrap().contains("no owner of this session is away"), "the owner is here");
    drop(owner); // the socket gone without a close
    for helper in &mut helpers {
        assert_eq!((helper.expect("lost")["processor"].as_u64(), helper.expect("ended")["search"].as_u64()), (Some(0), Some(1)));
        assert_eq!(helper.expect("away")["within_ms"], 5000);
    }
    let mut wrong = relay.connect();
    wrong.send(json!({"type": "resume", "code": code, "token": relay.token}));
    wrong.expect("error");
    let mut owner = relay.connect();
    owner.send(json!({"type": "resume", "code": code, "token": resume}));
    assert_eq!(owner.expect("resumed")["member"], 0);
    for helper in &mut helpers {
        helper.expect("back");
    }
    owner.send(json!({"type": "start"}));
    let search = owner.expect("search");
    assert_eq!((&search["search"], &search["members"]), (&json!(2), &json!([0, 1, 2])), "the same class");
    for (i, helper) in helpers.iter_mut().enumerate() {
        let search = helper.expect("search");
        assert_eq!((search["search"].as_u64(), search["processor"].as_u64()), (Some(2), Some(i as u64 + 1)));
    }
    assert!(helpers[1].send_frame(0, &program(2, b"still here")));
    assert_eq!(owner.frame(), (2, program(2, b"still here")));

    let relay = Relay::start(&["--owner-grace-ms", "300"]);
    let (owner, _, mut helpers) = class(&relay, 1, None);
    drop(owner);
    for notice in ["lost", "ended", "away"] {
        helpers[0].expect(notice);
    }
    assert!(helpers[0].expect("closed")["reason"].as_str().unwrap().contains("did not resume within 300 ms"));
}

/// The relay's memory has one bound over all connections, not only one per connection:
/// four receivers that read nothing, each sent less than its own queue holds, together
/// past `--max-queued-mib`, and one of them is cut off as one that cannot keep up.
#[test]
fn all_queues_together_stay_under_the_relays_bound() {
    let relay = Relay::start(&["--max-queued-mib", "16"]);
    // The helpers read nothing.
    let (mut owner, code, _helpers) = class(&relay, 4, None);
    // 15 MiB for each: under a member's 16 MiB; 60 MiB together, of which the sockets'
    // buffers hold at most about 10 MB each.
    let big = program(1, &[1; 16 << 10]);
    for _ in 0..15 << 6 {
        for to in 1..=4 {
            assert!(owner.send_frame(to, &big));
        }
    }
    let lost = owner.expect("lost");
    assert!((1..=4).contains(&lost["processor"].as_u64().unwrap()), "{lost}");
    let (_, _, trace) = relay.trace(&code);
    assert!(trace.lines().any(|l| l.contains(r#""ev":"refused""#) && l.contains("cannot keep up")), "{trace}");
}

/// A TCP line between clients and the relay that the test cuts as a network would: no
/// close frame, the connections simply gone.
struct Line {
    port: u16,
    /// Both ends of each connection through it, for [`Line::cut`].
    connections: std::sync::Arc<std::sync::Mutex<Vec<TcpStream>>>,
    /// How many connections it has carried.
    carried: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Line {
    /// A line to the relay at `address` (host:port), carrying every connection made to it.
    fn to(address: &str) -> Line {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let line = Line { port, connections: Default::default(), carried: Default::default() };
        let (connections, carried, address) = (line.connections.clone(), line.carried.clone(), address.to_string());
        std::thread::spawn(move || {
            for near in listener.incoming().map_while(Result::ok) {
                let Ok(far) = TcpStream::connect(&address) else { continue };
                carried.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let pipe = |mut from: TcpStream, mut to: TcpStream| {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    })
                };
                pipe(near.try_clone().unwrap(), far.try_clone().unwrap());
                pipe(far.try_clone().unwrap(), near.try_clone().unwrap());
                connections.lock().unwrap().extend([near, far]);
            }
        });
        line
    }

    fn url(&self) -> String {
        format!("ws://127.0.0.1:{}/class", self.port)
    }

    /// Cuts every connection through the line.
    fn cut(&self) {
        for stream in self.connections.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A native lecturer (`RelayLink`) whose connection is cut during a search comes back
/// as the tab's lecturer does: its processor 0 hears its student lost and finishes alone,
/// the link resumes the session with its token on a new connection, and the class's next
/// search runs on the same members. Before, the class ended with the owner's connection.
#[test]
fn a_native_owner_cut_off_resumes_and_its_class_searches_on() {
    use meshmate::machine::cluster::link::{Arrival, Link};
    use meshmate::machine::cluster::relay::RelayLink;
    let relay = Relay::start(&["--lost-after-ms", "5000"]);
    let line = Line::to(&relay.address);
    let mut owner = RelayLink::create(&line.url(), &relay.token).expect("a session through the line");
    let (mut student, _) = relay.join(owner.code());
    owner.wait_for_members(1, PATIENCE).unwrap();
    assert_eq!(owner.start(), Ok(2));
    student.expect("search");

    line.cut();
    assert_eq!(student.expect("lost")["processor"], 0);
    assert_eq!(student.expect("ended")["search"], 1);
    assert_eq!(student.expect("away")["within_ms"], 30_000);
    let deadline = Instant::now() + PATIENCE;
    while !matches!(owner.receive(), Some(Arrival::Lost(1))) {
        assert!(Instant::now() < deadline, "processor 0 hears its student lost");
        owner.await_arrival(Duration::from_millis(50));
    }
    // Refused while the link resumes (at most a try a second), then the same class.
    let processors = loop {
        match owner.start() {
            Ok(processors) => break processors,
            Err(e) => assert!(Instant::now() < deadline, "not resumed in time: {e}"),
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!((processors, owner.closed()), (2, None));
    student.expect("back");
    let search = student.expect("search");
    assert_eq!((&search["search"], &search["members"]), (&json!(2), &json!([0, 1])));
    assert!(line.carried.load(std::sync::atomic::Ordering::SeqCst) >= 2, "it came back on a new connection");
    assert!(student.send_frame(0, &program(2, b"still here")));
    let deadline = Instant::now() + PATIENCE;
    loop {
        match owner.receive() {
            Some(Arrival::Frame(frame)) => break assert_eq!((frame.from, frame.body.as_slice()), (1, &b"still here"[..])),
            Some(Arrival::Lost(p)) => panic!("processor {p} lost in search 2"),
            None => assert!(Instant::now() < deadline && owner.await_arrival(Duration::from_millis(50))),
        }
    }
}

/// A relay that takes the connection and never answers the WebSocket handshake is an
/// error in time, not a hang: the native link's way in (and the owner's tries to resume)
/// once waited on it forever.
#[test]
fn a_relay_that_never_answers_the_handshake_is_an_error_not_a_hang() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}/class", silent.local_addr().unwrap());
    let refused = meshmate::machine::cluster::relay::RelayLink::join(&url, "code").err().expect("no class there");
    assert!(refused.contains(&url), "{refused}");
}
