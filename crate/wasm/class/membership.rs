//! The tab's membership of its class: the relay client every member holds
//! ([`Client`], which a native `meshmate join` holds too) over the worker's WebSocket and
//! timer, held from Rust so that what a member does (beats, the lecturer's resume, which
//! losses count, leaving when its processor cannot take part) is decided once. The client
//! lives in a thread-local of the class worker's own thread, where its socket's events
//! come; what the relay sends goes to the processor's queues ([`super::TAB`]) or to the
//! worker's `hear` function for the page, and the worker's `wake` is called whenever the
//! processor may have something new (the single build's processor may be pausing for it).

use super::{roster, Outgoing, TAB};
use crate::machine::cluster::link::Arrival;
use crate::machine::cluster::relay::client::{Client, Hello, Transmit, Update};
use serde::Serialize;
use std::cell::RefCell;
use std::sync::atomic::Ordering::SeqCst;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BinaryType, CloseEvent, MessageEvent, WebSocket, WorkerGlobalScope};

/// What the page hears of the class (the worker adds the lecturer's drawing to `search`).
#[derive(Serialize)]
#[serde(tag = "class", rename_all = "lowercase")]
enum Heard {
    Created { code: String, member: u32 },
    Joined { member: u32 },
    Waiting,
    Search { search: u32, processor: usize, processors: usize, members: Vec<u32>, network: Option<String> },
    Ended { search: u32 },
    Members { members: Vec<u32> },
    Lost { search: u32, processor: usize },
    /// A student's: the lecturer's connection dropped at `at` (ms since the epoch).
    #[serde(rename_all = "camelCase")]
    Away { within_ms: u64, at: f64 },
    /// A student's: the lecturer resumed.
    Back,
    Trace { events: Vec<crate::machine::cluster::relay::protocol::Event>, dropped: u64 },
    Error { message: String },
    Reconnecting,
    Resumed,
    Closed { reason: String },
}

/// One socket to the relay and the handlers it calls, which live as long as it does.
struct Socket {
    socket: WebSocket,
    _opened: Closure<dyn FnMut()>,
    _message: Closure<dyn FnMut(MessageEvent)>,
    _closed: Closure<dyn FnMut(CloseEvent)>,
}

impl Drop for Socket {
    /// A socket let go calls nothing more (its handlers are about to be freed).
    fn drop(&mut self) {
        self.socket.set_onopen(None);
        self.socket.set_onmessage(None);
        self.socket.set_onclose(None);
    }
}

/// The tab's membership, on the class worker's thread.
struct Membership {
    url: String,
    client: Client,
    socket: Option<Socket>,
    /// The worker's timer for the client's next deadline, and what it calls.
    timer: Option<i32>,
    tick: Closure<dyn FnMut()>,
    hear: js_sys::Function,
    wake: js_sys::Function,
}

thread_local! {
    static MEMBERSHIP: RefCell<Option<Membership>> = const { RefCell::new(None) };
}

/// The worker's global scope: its timers and clock.
fn scope() -> WorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// The client's clock: the worker's monotonic one, ms.
fn now() -> u64 {
    scope().performance().map_or(0.0, |p| p.now()) as u64
}

/// Feeds the membership (`feed`), then does what its client asks: the socket's transmits,
/// the processor's arrivals, the page's updates (after the membership is let go, so that
/// what the worker does on hearing them may call in again), the timer.
fn drive(feed: impl FnOnce(&mut Membership)) {
    let heard = MEMBERSHIP.with(|cell| {
        let mut cell = cell.borrow_mut();
        let membership = cell.as_mut()?;
        feed(membership);
        membership.transmit();
        let updates: Vec<Update> = std::iter::from_fn(|| membership.client.poll_update()).collect();
        let woke = !updates.is_empty();
        let heard = membership.deliver(updates);
        membership.schedule();
        Some((heard, woke, membership.hear.clone(), membership.wake.clone()))
    });
    let Some((heard, woke, hear, wake)) = heard else { return };
    for message in &heard {
        let _ = hear.call1(&JsValue::NULL, message);
    }
    if woke {
        let _ = wake.call0(&JsValue::NULL);
    }
}

impl Membership {
    /// Does what the client asks of its socket, a socket that cannot be opened included.
    fn transmit(&mut self) {
        while let Some(transmit) = self.client.poll_transmit() {
            match transmit {
                Transmit::Connect => {
                    self.socket = None;
                    match open(&self.url) {
                        Ok(socket) => self.socket = Some(socket),
                        Err(why) => self.client.closed(&why, now()),
                    }
                }
                Transmit::Text(text) => {
                    if let Some(socket) = &self.socket {
                        let _ = socket.socket.send_with_str(&text);
                    }
                }
                Transmit::Binary(bytes) => {
                    // A copy the socket owns: the threaded build's memory is shared, and a
                    // socket refuses to send a view of shared memory.
                    if let Some(socket) = &self.socket {
                        let _ = socket.socket.send_with_js_u8_array(&js_sys::Uint8Array::from(&bytes[..]));
                    }
                }
                Transmit::Close(reason) => {
                    if let Some(socket) = self.socket.take() {
                        let _ = socket.socket.close_with_code_and_reason(1000, &reason);
                    }
                }
            }
        }
    }

    /// Hands the client's updates to the processor's queues, and gives back what the page
    /// hears. The client's own losses (its part in a search cut short) come in one batch
    /// with the `Dropped` or `Closed` that cut it: the page hears only the relay's.
    fn deliver(&mut self, updates: Vec<Update>) -> Vec<JsValue> {
        let cut = updates.iter().any(|u| matches!(u, Update::Dropped | Update::Closed(_)));
        let mut heard = Vec::new();
        for update in updates {
            let page = match update {
                Update::Created { code, member } => Heard::Created { code, member },
                Update::Joined { member } => Heard::Joined { member },
                Update::Waiting => Heard::Waiting,
                Update::Search { search, processor, processors, members, network } => {
                    roster(search, processor, processors);
                    Heard::Search { search, processor, processors, members, network }
                }
                Update::Ended { search } => Heard::Ended { search },
                Update::Members(members) => Heard::Members { members },
                Update::Frame(frame) => {
                    TAB.arrive(Arrival::Frame(frame));
                    continue;
                }
                Update::Lost(processor) => {
                    TAB.arrive(Arrival::Lost(processor));
                    if cut {
                        continue;
                    }
                    Heard::Lost { search: self.client.search(), processor }
                }
                Update::Away { within_ms } => Heard::Away { within_ms, at: js_sys::Date::now() },
                Update::Back => Heard::Back,
                Update::Trace { events, dropped } => Heard::Trace { events, dropped },
                Update::Error(message) => Heard::Error { message },
                Update::Dropped => Heard::Reconnecting,
                Update::Resumed => Heard::Resumed,
                Update::Closed(reason) => {
                    // A student's processor stops waiting for searches.
                    TAB.gone.store(true, SeqCst);
                    Heard::Closed { reason }
                }
            };
            heard.push(to_js(&page));
        }
        heard
    }

    /// Sets the worker's timer for the client's next deadline.
    fn schedule(&mut self) {
        if let Some(timer) = self.timer.take() {
            scope().clear_timeout_with_handle(timer);
        }
        if let Some(at) = self.client.deadline() {
            let delay = at.saturating_sub(now()).min(i32::MAX as u64) as i32;
            self.timer = scope().set_timeout_with_callback_and_timeout_and_arguments_0(self.tick.as_ref().unchecked_ref(), delay).ok();
        }
    }
}

/// A page message as JSON gives it (numbers as numbers), as the relay's own were.
fn to_js(message: &impl Serialize) -> JsValue {
    serde_json::to_string(message).ok().and_then(|json| js_sys::JSON::parse(&json).ok()).unwrap_or(JsValue::UNDEFINED)
}

/// Opens a socket to `url` whose events feed the membership, or says why it cannot.
fn open(url: &str) -> Result<Socket, String> {
    let socket = WebSocket::new(url).map_err(|e| format!("{} ({url})", js_message(&e)))?;
    socket.set_binary_type(BinaryType::Arraybuffer);
    let opened = Closure::<dyn FnMut()>::new(|| drive(|m| m.client.opened(now())));
    let message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let data = event.data();
        if let Some(text) = data.as_string() {
            drive(|m| m.client.received_text(&text));
        } else if let Some(buffer) = data.dyn_ref::<js_sys::ArrayBuffer>() {
            let bytes = js_sys::Uint8Array::new(buffer).to_vec();
            drive(|m| m.client.received_binary(&bytes));
        }
    });
    let closed = Closure::<dyn FnMut(CloseEvent)>::new(|event: CloseEvent| {
        let reason = Some(event.reason()).filter(|r| !r.is_empty()).unwrap_or_else(|| "the connection to the relay is gone".into());
        drive(|m| {
            m.socket = None;
            m.client.closed(&reason, now());
        });
    });
    socket.set_onopen(Some(opened.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(closed.as_ref().unchecked_ref()));
    Ok(Socket { socket, _opened: opened, _message: message, _closed: closed })
}

/// What a thrown JavaScript value says.
fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_else(|| format!("{e:?}"))
}

/// Enters the class at the relay at `url` with `hello`: `hear` is called with each message
/// for the page, `wake` whenever the processor may have something new.
fn enter(url: &str, hello: Hello, hear: js_sys::Function, wake: js_sys::Function) -> Result<(), JsValue> {
    MEMBERSHIP.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.is_some() {
            return Err(JsValue::from_str("this tab is already in a class"));
        }
        let tick = Closure::<dyn FnMut()>::new(|| drive(|m| m.client.tick(now())));
        *cell = Some(Membership { url: url.to_string(), client: Client::new(hello), socket: None, timer: None, tick, hear, wake });
        Ok(())
    })?;
    drive(|_| {});
    Ok(())
}

/// The lecturer's tab creates a class at the relay at `url` with its lecturer `token`.
#[wasm_bindgen(js_name = classCreate)]
pub fn class_create(url: &str, token: &str, hear: js_sys::Function, wake: js_sys::Function) -> Result<(), JsValue> {
    enter(url, Hello::Create { token: token.to_string() }, hear, wake)
}

/// A student's tab joins the class `code` at the relay at `url`.
#[wasm_bindgen(js_name = classJoin)]
pub fn class_join(url: &str, code: &str, hear: js_sys::Function, wake: js_sys::Function) -> Result<(), JsValue> {
    enter(url, Hello::Join { code: code.to_string() }, hear, wake)
}

/// The lecturer starts a search on every live member (`network`: a `crate::net` name the
/// relay routes by); its roster comes back as `search`.
#[wasm_bindgen(js_name = classStart)]
pub fn class_start(network: Option<String>) -> Result<(), JsValue> {
    let mut refused = Some("only the lecturer starts a search, once the class is created".to_string());
    drive(|m| refused = m.client.start(network).err());
    refused.map_or(Ok(()), |why| Err(JsValue::from_str(&why)))
}

/// The tab leaves the class: its socket closes normally, which ends the session if the
/// tab owns it.
#[wasm_bindgen(js_name = classLeave)]
pub fn class_leave() {
    drive(|m| m.client.leave("left"));
}

/// Sends what the processor queued to the relay, and gives back what it queued for the
/// page (`{class: 'info' | 'result' | 'position' | 'error', ...}`), oldest first.
#[wasm_bindgen(js_name = classFlush)]
pub fn class_flush() -> JsValue {
    let taken = std::mem::take(&mut *TAB.outgoing.lock().unwrap_or_else(|e| e.into_inner()));
    let mut shown = Vec::new();
    let mut relay = Vec::new();
    for outgoing in taken {
        match outgoing {
            Outgoing::Shown(page) => shown.push(page),
            other => relay.push(other),
        }
    }
    if !relay.is_empty() {
        drive(|m| {
            for outgoing in relay {
                match outgoing {
                    Outgoing::Frame { to, frame } => m.client.send_frame(to, &frame),
                    Outgoing::End => m.client.end(),
                    Outgoing::Expel { processor, reason } => {
                        m.client.expel(processor, &reason);
                    }
                    Outgoing::CannotTakePart(why) => m.client.cannot_take_part(&why),
                    Outgoing::Shown(_) => {}
                }
            }
        });
    }
    serde_wasm_bindgen::to_value(&shown).unwrap_or(JsValue::UNDEFINED)
}
