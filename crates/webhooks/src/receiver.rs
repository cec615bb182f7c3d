//! A webhook receiver on loopback for tests and `league-bench webhooks`: it records every
//! request (de-duplication id, signature headers, body, arrival time), answers a chosen share
//! of them with `500`, can hold its answers back to keep a delivery in flight, and can limit
//! its rate as Discord does (`429` with `Retry-After` and `retry_after` in the body).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::signature::{DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verify};

/// One request as the receiver saw it.
#[derive(Debug, Clone)]
pub struct Received {
    pub delivery_id: String,
    pub signature: String,
    pub timestamp: String,
    pub body: Bytes,
    pub at: Instant,
    /// Whether it was answered with a 2xx.
    pub accepted: bool,
    /// Whether it was answered `429` (over the rate limit).
    pub throttled: bool,
}

impl Received {
    /// Whether the request carries `secret`'s signature of its body.
    pub fn verifies(&self, secret: &str) -> bool {
        self.timestamp.parse().is_ok_and(|ts| verify(secret, ts, &self.body, &self.signature))
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

#[derive(Debug, Default)]
struct Shared {
    received: Vec<Received>,
    failure_rate: f64,
    /// Failures owed so far: each request adds the rate, and one is answered `500` whenever
    /// a whole failure is owed, so the rate holds exactly and evenly over any run.
    owed: f64,
    hold: Duration,
    /// At most this many requests per window; the window starts at its first request.
    rate_limit: Option<(usize, Duration)>,
    window: Option<(Instant, usize)>,
}

impl Shared {
    /// Counts a request against the rate limit: how long to wait if it is over.
    fn over_limit(&mut self, now: Instant) -> Option<Duration> {
        let (most, length) = self.rate_limit?;
        let (start, count) = match self.window {
            Some((start, count)) if now < start + length => (start, count),
            _ => (now, 0),
        };
        if count < most {
            self.window = Some((start, count + 1));
            None
        } else {
            self.window = Some((start, count));
            Some(start + length - now)
        }
    }
}

/// A running receiver; it stops when dropped.
#[derive(Debug)]
pub struct Receiver {
    pub url: String,
    shared: Arc<Mutex<Shared>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// A receiver on a free loopback port, answering `failure_rate` of requests (0 to 1,
    /// spread evenly: with 0.3, three of every ten) with `500`; its URL is `http://127.0.0.1:<port>/hook`.
    pub async fn start(failure_rate: f64) -> std::io::Result<Receiver> {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let address = listener.local_addr()?;
        let shared = Arc::new(Mutex::new(Shared { failure_rate, ..Shared::default() }));
        let router = Router::new().route("/hook", post(receive)).with_state(shared.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Ok(Receiver { url: format!("http://{address}/hook"), shared, task })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every request so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        self.lock().received.clone()
    }

    /// The share of requests answered with `500` from now on.
    pub fn set_failure_rate(&self, rate: f64) {
        self.lock().failure_rate = rate;
    }

    /// At most `most` requests per `window` from now on; the others are answered `429` with
    /// the wait in `Retry-After` (whole seconds, rounded up) and in the body as Discord does.
    pub fn set_rate_limit(&self, most: usize, window: Duration) {
        self.lock().rate_limit = Some((most, window));
    }

    /// How long each answer is held back from now on.
    pub fn set_hold(&self, hold: Duration) {
        self.lock().hold = hold;
    }

    /// Waits until `count` distinct delivery ids were accepted (or `timeout` passes) and
    /// returns every request so far.
    pub async fn wait_for_accepted(&self, count: usize, timeout: Duration) -> Vec<Received> {
        let deadline = Instant::now() + timeout;
        loop {
            let received = self.received();
            if distinct_accepted(&received) >= count || Instant::now() >= deadline {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The number of distinct delivery ids among accepted requests.
pub fn distinct_accepted(received: &[Received]) -> usize {
    let ids: std::collections::HashSet<&str> =
        received.iter().filter(|r| r.accepted).map(|r| r.delivery_id.as_str()).collect();
    ids.len()
}

async fn receive(
    State(shared): State<Arc<Mutex<Shared>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header =
        |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let (accepted, hold, index) = {
        let mut shared = shared.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        let wait = shared.over_limit(now);
        shared.received.push(Received {
            delivery_id: header(DELIVERY_HEADER),
            signature: header(SIGNATURE_HEADER),
            timestamp: header(TIMESTAMP_HEADER),
            body,
            at: now,
            accepted: false,
            throttled: wait.is_some(),
        });
        let index = shared.received.len() - 1;
        if let Some(wait) = wait {
            drop(shared);
            let seconds = wait.as_secs_f64();
            let answer = serde_json::json!({
                "message": "You are being rate limited.",
                "retry_after": seconds,
                "global": false,
            });
            let retry_after = seconds.ceil().max(1.0).to_string();
            return (StatusCode::TOO_MANY_REQUESTS, [(RETRY_AFTER, retry_after)], Json(answer))
                .into_response();
        }
        shared.owed += shared.failure_rate;
        let accepted = shared.owed < 1.0;
        if !accepted {
            shared.owed -= 1.0;
        }
        (accepted, shared.hold, index)
    };
    if !hold.is_zero() {
        tokio::time::sleep(hold).await;
    }
    // Recorded as accepted only once the answer is about to leave.
    shared.lock().unwrap_or_else(PoisonError::into_inner).received[index].accepted = accepted;
    if accepted { StatusCode::NO_CONTENT } else { StatusCode::INTERNAL_SERVER_ERROR }
        .into_response()
}
