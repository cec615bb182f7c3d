//! `/graphql/ws` under hostile clients: the connection caps (in total and per client
//! address), the `connection_init` deadline, keep-alive pings and the cap on active
//! subscriptions per connection, wrapped around async-graphql's protocol state machine
//! (graphql-transport-ws and the legacy graphql-ws).
//!
//! How each limit answers (`docs/operations.md`):
//! - too many connections: the upgrade completes and the server closes at once with
//!   `4429` ("too many requests" in graphql-transport-ws's vocabulary);
//! - no `connection_init` acknowledged within the deadline: close `4408`
//!   "Connection initialisation timeout", as graphql-transport-ws specifies;
//! - a peer that answers no ping for two keep-alive intervals: close `3008` (async-graphql's
//!   own keep-alive code);
//! - a message (or frame) larger than the HTTP body limit (`max_body_bytes`): close `1009`
//!   "message too big" (RFC 6455); the message is refused as it arrives, before it is
//!   buffered whole, and never reaches the protocol (nothing is acknowledged);
//! - one subscription too many: that operation gets an `error` message with
//!   `extensions.code = "TOO_MANY_SUBSCRIPTIONS"`, the connection and its other
//!   subscriptions carry on;
//! - server shutdown: close `1001` (going away);
//! - the player token the connection authenticated with is rotated or revoked (on any
//!   gateway: each folds the same log): close `4403` "token revoked".

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::net::IpAddr;
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use async_graphql::http::{WebSocket as ProtocolMachine, WebSocketProtocols, WsMessage};
use async_graphql::{Data, Executor};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::http::HeaderMap;
use axum::http::header::SEC_WEBSOCKET_PROTOCOL;
use futures::{SinkExt, StreamExt};

use league_app::App;

use crate::Shutdown;
use crate::auth::Credential;
use crate::config::WsLimits;
use crate::metrics::Metrics;

/// Close code: `connection_init` did not come in time (graphql-transport-ws).
pub const CLOSE_INIT_TIMEOUT: u16 = 4408;
/// Close code: too many connections (in total or from one address).
pub const CLOSE_TOO_MANY: u16 = 4429;
/// Close code: the peer stopped answering pings.
pub const CLOSE_KEEPALIVE: u16 = 3008;
/// Close code: the token the connection authenticated with was rotated or revoked.
pub const CLOSE_TOKEN_REVOKED: u16 = 4403;
/// Close code: the server is shutting down.
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code: a message or frame larger than the limit (RFC 6455 "message too big").
pub const CLOSE_TOO_BIG: u16 = 1009;
/// How long a closing connection waits for the peer's close frame.
const CLOSE_HANDSHAKE: std::time::Duration = std::time::Duration::from_secs(1);
/// `extensions.code` of a subscription refused for the per-connection cap.
pub const TOO_MANY_SUBSCRIPTIONS: &str = "TOO_MANY_SUBSCRIPTIONS";

/// The sub-protocol a client asked for, as async-graphql-axum reads it.
pub fn protocol(headers: &HeaderMap) -> Option<WebSocketProtocols> {
    headers.get(SEC_WEBSOCKET_PROTOCOL).and_then(|v| v.to_str().ok()).and_then(|protocols| {
        protocols.split(',').find_map(|p| WebSocketProtocols::from_str(p.trim()).ok())
    })
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_addr: HashMap<IpAddr, usize>,
}

/// Counts open connections against the caps.
#[derive(Debug, Clone)]
pub struct ConnectionCaps {
    limits: WsLimits,
    open: Arc<Mutex<Open>>,
}

/// One open connection's place under the caps, given back when dropped.
#[derive(Debug)]
pub struct ConnectionPermit {
    open: Arc<Mutex<Open>>,
    addr: IpAddr,
}

impl ConnectionCaps {
    pub fn new(limits: WsLimits) -> Self {
        ConnectionCaps { limits, open: Arc::default() }
    }

    /// A place for one more connection from `addr`, or why there is none.
    pub fn acquire(&self, addr: IpAddr) -> Result<ConnectionPermit, &'static str> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.total >= self.limits.max_connections {
            return Err("too many connections");
        }
        let from_addr = open.per_addr.entry(addr).or_default();
        if *from_addr >= self.limits.max_connections_per_addr {
            return Err("too many connections from this address");
        }
        *from_addr += 1;
        open.total += 1;
        Ok(ConnectionPermit { open: self.open.clone(), addr })
    }
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.per_addr.get_mut(&self.addr) {
            *count -= 1;
            if *count == 0 {
                open.per_addr.remove(&self.addr);
            }
        }
    }
}

/// Closes a connection refused by the caps.
pub async fn refuse(mut socket: WebSocket, why: &'static str) {
    let frame = CloseFrame { code: CLOSE_TOO_MANY, reason: why.into() };
    if socket.send(Message::Close(Some(frame))).await.is_ok() {
        let _ = tokio::time::timeout(CLOSE_HANDSHAKE, socket.recv()).await;
    }
}

/// Whether a read failed on the size limits ([`axum::extract::ws::WebSocketUpgrade::max_message_size`]
/// and `max_frame_size`): tungstenite refuses such a frame from its header, before reading it.
fn is_too_big(error: &axum::Error) -> bool {
    use std::error::Error as _;
    matches!(
        error.source().and_then(|inner| inner.downcast_ref::<tungstenite::Error>()),
        Some(tungstenite::Error::Capacity(_))
    )
}

/// The fields of a client message the limits need.
#[derive(serde::Deserialize)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    id: Option<String>,
}

/// What a client message does to the set of active subscriptions.
enum Effect {
    Start(String),
    Stop(String),
    None,
}

fn effect(bytes: &[u8]) -> Effect {
    match serde_json::from_slice::<ClientMessage>(bytes) {
        Ok(ClientMessage { kind, id: Some(id) }) => match kind.as_str() {
            // graphql-transport-ws / legacy graphql-ws
            "subscribe" | "start" => Effect::Start(id),
            "complete" | "stop" => Effect::Stop(id),
            _ => Effect::None,
        },
        _ => Effect::None,
    }
}

/// The id of a server message that ends an operation (`complete` or `error`). Only the
/// start is looked at, so large `next` messages are not parsed again.
fn finished_id(text: &str) -> Option<String> {
    if !(text.starts_with(r#"{"type":"complete""#) || text.starts_with(r#"{"type":"error""#)) {
        return None;
    }
    serde_json::from_str::<ClientMessage>(text).ok().and_then(|m| m.id)
}

/// The `error` message refusing subscription `id`.
fn too_many_subscriptions(protocol: WebSocketProtocols, id: &str, max: usize) -> String {
    let error = serde_json::json!({
        "message": format!("at most {max} active subscriptions per connection"),
        "extensions": { "code": TOO_MANY_SUBSCRIPTIONS, "max": max },
    });
    let payload = match protocol {
        WebSocketProtocols::GraphQLWS => serde_json::json!([error]),
        WebSocketProtocols::SubscriptionsTransportWS => error,
    };
    serde_json::json!({ "type": "error", "id": id, "payload": payload }).to_string()
}

/// The credential a connection authenticated with in `connection_init` (none before), and
/// the live feed that tells when it may have been rotated or revoked.
#[derive(Debug, Clone)]
pub struct ConnectionCredential {
    app: App,
    credential: Arc<Mutex<Option<Credential>>>,
}

impl ConnectionCredential {
    pub fn new(app: App) -> Self {
        ConnectionCredential { app, credential: Arc::default() }
    }

    /// Records the credential `connection_init` authenticated.
    pub fn set(&self, credential: Credential) {
        *self.credential.lock().unwrap_or_else(PoisonError::into_inner) = Some(credential);
    }

    fn is_current(&self) -> bool {
        let credential = self.credential.lock().unwrap_or_else(PoisonError::into_inner).clone();
        credential.is_none_or(|credential| credential.is_current(&self.app))
    }

    /// Resolves once the connection's token is rotated or revoked (never for the admin's
    /// or an anonymous connection). Subscribed to the live feed from the call, so a change
    /// folded after authentication is never missed; missed notifications (a lagging
    /// receiver) are followed by a check too.
    fn revoked(&self) -> impl Future<Output = ()> + use<> {
        let mut feed = self.app.subscribe();
        let this = self.clone();
        async move {
            loop {
                match feed.recv().await {
                    Ok(note) if !is_token_change(&note.event.event_type) => continue,
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        if !this.is_current() {
                            return;
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }
}

/// Whether events of this stored type change which token or session authenticates a player
/// (an erasure revokes the player's token and sessions too).
fn is_token_change(event_type: &str) -> bool {
    [
        league_domain::EventType::TokenRotated,
        league_domain::EventType::TokenRevoked,
        league_domain::EventType::PlayerErased,
        league_domain::EventType::SessionEnded,
        league_domain::EventType::AllSessionsEnded,
    ]
    .iter()
    .any(|kind| kind.as_str() == event_type)
}

/// Serves one accepted connection until either side closes it or a limit ends it.
#[allow(clippy::too_many_arguments)]
pub async fn serve<E, OnInit, InitFut>(
    socket: WebSocket,
    executor: E,
    protocol: WebSocketProtocols,
    on_init: OnInit,
    limits: WsLimits,
    metrics: Metrics,
    mut shutdown: Shutdown,
    _permit: ConnectionPermit,
    credential: ConnectionCredential,
) where
    E: Executor,
    OnInit: FnOnce(serde_json::Value) -> InitFut + Send + 'static,
    InitFut: Future<Output = async_graphql::Result<Data>> + Send + 'static,
{
    metrics.ws_connections().inc();
    let (mut sink, mut source) = socket.split();
    let (mut to_machine, from_client) = futures::channel::mpsc::channel::<Vec<u8>>(16);
    let machine = ProtocolMachine::new(executor, from_client, protocol).on_connection_init(on_init);
    futures::pin_mut!(machine);
    let init_deadline = tokio::time::sleep(limits.init_timeout);
    tokio::pin!(init_deadline);
    let mut pings = tokio::time::interval(limits.keepalive);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    pings.tick().await;
    let mut acknowledged = false;
    let mut last_heard = Instant::now();
    let mut active: HashSet<String> = HashSet::new();
    let revoked = credential.revoked();
    tokio::pin!(revoked);

    let close: Option<(u16, String)> = loop {
        tokio::select! {
            incoming = source.next() => {
                let bytes = match incoming {
                    Some(Err(error)) if is_too_big(&error) => {
                        break Some((CLOSE_TOO_BIG, "message too big".to_owned()));
                    }
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break None,
                    Some(Ok(Message::Text(text))) => text.as_bytes().to_vec(),
                    Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
                    // Pongs (and pings, answered by axum) prove the peer is alive.
                    Some(Ok(_)) => {
                        last_heard = Instant::now();
                        continue;
                    }
                };
                last_heard = Instant::now();
                match effect(&bytes) {
                    Effect::Start(id) if !active.contains(&id) => {
                        if active.len() >= limits.max_subscriptions {
                            let refusal =
                                too_many_subscriptions(protocol, &id, limits.max_subscriptions);
                            if sink.send(Message::Text(refusal.into())).await.is_err() {
                                break None;
                            }
                            continue;
                        }
                        active.insert(id);
                        metrics.ws_subscriptions().inc();
                    }
                    Effect::Stop(id) => {
                        if active.remove(&id) {
                            metrics.ws_subscriptions().dec();
                        }
                    }
                    Effect::Start(_) | Effect::None => {}
                }
                if to_machine.send(bytes).await.is_err() {
                    break None;
                }
            }
            outgoing = machine.next() => match outgoing {
                None => break None,
                Some(WsMessage::Text(text)) => {
                    if text.starts_with(r#"{"type":"connection_ack""#) {
                        acknowledged = true;
                    } else if let Some(id) = finished_id(&text)
                        && active.remove(&id)
                    {
                        metrics.ws_subscriptions().dec();
                    }
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break None;
                    }
                }
                Some(WsMessage::Close(code, reason)) => break Some((code, reason)),
            },
            () = &mut init_deadline, if !acknowledged => {
                break Some((CLOSE_INIT_TIMEOUT, "Connection initialisation timeout".to_owned()));
            }
            _ = pings.tick() => {
                if last_heard.elapsed() > limits.keepalive * 2 {
                    break Some((CLOSE_KEEPALIVE, "keep-alive timeout".to_owned()));
                }
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break None;
                }
            }
            () = &mut revoked => {
                break Some((CLOSE_TOKEN_REVOKED, "token revoked".to_owned()));
            }
            () = shutdown.requested() => {
                break Some((CLOSE_GOING_AWAY, "server shutting down".to_owned()));
            }
        }
    };
    if let Some((code, reason)) = close
        && sink.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await.is_ok()
    {
        // The closing handshake: give the peer a moment to answer our close frame (and
        // read what it sent meanwhile), so it sees the code rather than a reset.
        let _ = tokio::time::timeout(CLOSE_HANDSHAKE, async {
            while let Some(Ok(message)) = source.next().await {
                if matches!(message, Message::Close(_)) {
                    return;
                }
            }
            // After a message too big the read side has stopped with the rest of the
            // message unread, and closing a socket with unread bytes resets it: wait out
            // the handshake so the peer reads the close frame first.
            if code == CLOSE_TOO_BIG {
                std::future::pending::<()>().await;
            }
        })
        .await;
    }
    metrics.ws_subscriptions().sub(active.len() as i64);
    metrics.ws_connections().dec();
}
