//! One client's WebSocket, from the upgrade to the close: first a `create` or a `join`,
//! then its messages go to its session and the session's messages come out of its
//! [`Inbox`] when due. One task per connection; it reads and writes in turn, so a client
//! whose socket does not drain stops being read too, and its queue soon overflows.

use super::door::Ticket;
use super::limits::Limits;
use super::outbox::{queue, Bound, Closing, Inbox, Next, Queued};
use super::protocol::{Notice, Request};
use super::session::{Session, NORMAL, OWNER, POLICY};
use super::Relay;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a close (with its last message) may take to write before the socket is dropped.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);

/// A connection that joined a session.
struct Link {
    session: Arc<Session>,
    member: u32,
    inbox: Inbox,
}

/// How the connection ended.
enum Ending {
    /// The session closed it (cut off, the owner left): with this close frame, if any.
    Closed(Option<Closing>),
    /// The client closed its connection.
    Left,
    /// The connection failed (an owner may resume).
    Gone(&'static str),
}

/// Serves one upgraded socket until it closes; `ticket` counts it among the relay's
/// connections meanwhile.
pub async fn serve(relay: Arc<Relay>, mut socket: WebSocket, mut ticket: Ticket) {
    let config = &relay.config;
    let mut limits = Limits::new(config.max_rate, config.max_bytes_rate, Instant::now());
    let Some(mut link) = enter(&relay, &mut socket, &mut limits, &ticket).await else { return };
    ticket.joined();
    if link.member == OWNER {
        // Processor 0 talks to every member: its limits are its own.
        limits = Limits::new(config.owner_max_rate, config.owner_max_bytes_rate, Instant::now());
    }
    let ending = loop {
        tokio::select! {
            next = link.inbox.next() => match next {
                Next::Send(queued) => {
                    if let Err(ending) = write(&mut socket, &mut link, queued).await {
                        break ending;
                    }
                }
                Next::Close(closing) => break Ending::Closed(closing),
            },
            received = socket.recv() => {
                let Some(Ok(message)) = received else { break Ending::Gone("the connection failed") };
                if let Message::Close(_) = message {
                    break Ending::Left;
                }
                let len = message_len(&message);
                match limits.admit(len, Instant::now()) {
                    Err(reason) => link.session.cut(link.member, reason),
                    Ok(()) => match message {
                        Message::Text(text) => link.session.text(link.member, text.as_str()),
                        Message::Binary(bytes) => link.session.frame(link.member, bytes.into()),
                        _ => link.session.alive(link.member),
                    },
                }
                relay.settle(&link.session);
            }
        }
    };
    match ending {
        Ending::Closed(closing) => {
            close(&mut socket, closing.unwrap_or_else(|| Closing { code: NORMAL, reason: String::new(), last: None }))
                .await
        }
        Ending::Left => {
            link.session.leave(link.member, "closed by the client", true);
            relay.settle(&link.session);
        }
        Ending::Gone(reason) => {
            link.session.leave(link.member, reason, false);
            relay.settle(&link.session);
        }
    }
}

/// Writes a due message, unless the session closes the connection meanwhile.
async fn write(socket: &mut WebSocket, link: &mut Link, queued: Queued) -> Result<(), Ending> {
    // Off the queue now, written or not.
    link.inbox.sent(&queued);
    let Queued { message, delivered, .. } = &queued;
    tokio::select! {
        biased;
        closing = link.inbox.closing() => return Err(Ending::Closed(closing)),
        written = socket.send(message.clone()) => written.map_err(|_| Ending::Gone("the connection failed"))?,
    }
    if let Some(event) = delivered {
        link.session.record(event.clone());
    }
    Ok(())
}

/// The first messages: until a `create`, `resume` or `join` succeeds (its link) or the connection
/// is refused, silent too long, evicted by a newer one or closed (`None`).
async fn enter(relay: &Arc<Relay>, socket: &mut WebSocket, limits: &mut Limits, ticket: &Ticket) -> Option<Link> {
    let deadline = tokio::time::Instant::now() + relay.config.lost_after;
    loop {
        let received = tokio::select! {
            received = tokio::time::timeout_at(deadline, socket.recv()) => received,
            () = ticket.evicted() => {
                let reason = format!("evicted: the relay holds its most connections not yet in a session ({})", relay.config.max_unjoined);
                close(socket, Closing { code: POLICY, reason, last: None }).await;
                return None;
            }
        };
        let Ok(received) = received else {
            let reason = format!("silent for more than {} ms", relay.config.lost_after.as_millis());
            close(socket, Closing { code: POLICY, reason, last: None }).await;
            return None;
        };
        let message = received?.ok()?;
        let refused = |reason: String| Closing {
            code: POLICY,
            reason: reason.clone(),
            last: Some(Notice::Error { message: reason }.to_json()),
        };
        if let Err(reason) = limits.admit(message_len(&message), Instant::now()) {
            close(socket, refused(reason.into())).await;
            return None;
        }
        let request = match message {
            Message::Text(text) => Request::parse(text.as_str()),
            Message::Binary(_) => Err("frames before create or join".into()),
            Message::Close(_) => return None,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let entered = match request {
            Ok(Request::Create { token }) => {
                let (outbox, inbox) = queue(Bound::OWNER, relay.total.clone());
                relay.create(outbox, &token).map(|session| (session, OWNER, inbox))
            }
            Ok(Request::Resume { code, token }) => {
                let (outbox, inbox) = queue(Bound::OWNER, relay.total.clone());
                relay.resume(&code, &token, outbox).map(|session| (session, OWNER, inbox))
            }
            Ok(Request::Join { code }) => {
                let (outbox, inbox) = queue(Bound::MEMBER, relay.total.clone());
                relay.join(&code, outbox).map(|(session, member)| (session, member, inbox))
            }
            Ok(Request::Beat) => continue,
            Ok(Request::Start { .. } | Request::End | Request::Expel { .. }) => {
                Err("create or join a session first".into())
            }
            Err(reason) => Err(reason),
        };
        match entered {
            Ok((session, member, inbox)) => return Some(Link { session, member, inbox }),
            Err(reason) => {
                close(socket, refused(reason)).await;
                return None;
            }
        }
    }
}

/// Sends the last message and the close frame, giving up after [`CLOSE_TIMEOUT`].
async fn close(socket: &mut WebSocket, closing: Closing) {
    let Closing { code, reason, last } = closing;
    let frame = CloseFrame { code, reason: truncate(&reason, 123).into() };
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
        if let Some(text) = last {
            socket.send(Message::Text(text.into())).await?;
        }
        socket.send(Message::Close(Some(frame))).await
    })
    .await;
}

/// `text` cut to at most `max` bytes on a character boundary (a close reason's limit).
fn truncate(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn message_len(message: &Message) -> usize {
    match message {
        Message::Text(text) => text.len(),
        Message::Binary(bytes) | Message::Ping(bytes) | Message::Pong(bytes) => bytes.len(),
        Message::Close(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_close_reason_is_cut_on_a_character_boundary() {
        assert_eq!(super::truncate("ab€", 4), "ab");
        assert_eq!(super::truncate("ab", 123), "ab");
    }
}
