//! Operational metrics in the Prometheus text format (`GET /metrics`): GraphQL requests by
//! operation kind and outcome, their latency, appends made through this gateway, open
//! WebSocket connections and subscriptions, and, read at scrape time, the log's head
//! position, the read model's applied position, the lag between them and the store's
//! missed append predictions.

use std::time::Duration;

use league_app::App;
use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts,
    Registry, TextEncoder,
};

/// The gateway's metrics, registered in their own registry (no process-global state, so
/// every router, test or benchmark counts only its own requests).
#[derive(Clone, Debug)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    appends: IntCounter,
    ws_connections: IntGauge,
    ws_subscriptions: IntGauge,
    head: IntGauge,
    applied: IntGauge,
    lag: IntGauge,
    prediction_misses: IntCounter,
    scrape: Histogram,
}

/// The kind of a GraphQL request, as labelled in the metrics (a fixed set: client-chosen
/// operation names would let anyone grow the label space).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperationKind {
    Query,
    Mutation,
    /// Refused before its operation was known (parse error, rate limit, bad credentials).
    Unknown,
}

impl OperationKind {
    fn label(self) -> &'static str {
        match self {
            OperationKind::Query => "query",
            OperationKind::Mutation => "mutation",
            OperationKind::Unknown => "unknown",
        }
    }
}

fn register<T: prometheus::core::Collector + Clone + 'static>(registry: &Registry, metric: T) -> T {
    // Names are fixed and unique within this registry: registering cannot fail.
    registry.register(Box::new(metric.clone())).expect("metric names are unique");
    metric
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let registry = Registry::new();
        let requests = register(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "league_graphql_requests_total",
                    "GraphQL requests by operation kind and outcome",
                ),
                &["operation", "outcome"],
            )
            .expect("valid metric"),
        );
        let latency = register(
            &registry,
            HistogramVec::new(
                HistogramOpts::new(
                    "league_graphql_request_duration_seconds",
                    "Time from a GraphQL request's arrival to its answer",
                )
                .buckets(vec![
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
                ]),
                &["operation"],
            )
            .expect("valid metric"),
        );
        let appends = register(
            &registry,
            IntCounter::new(
                "league_appends_total",
                "Mutations answered without error by this gateway (each appended its events or replayed an idempotent answer)",
            )
            .expect("valid metric"),
        );
        let gauge = |name: &str, help: &str| {
            register(&registry, IntGauge::new(name, help).expect("valid metric"))
        };
        let ws_connections = gauge("league_ws_connections", "Open WebSocket connections");
        let ws_subscriptions = gauge("league_ws_subscriptions", "Active subscriptions");
        let head = gauge("league_log_head_position", "Position of the last event in the log");
        let applied = gauge(
            "league_read_model_applied_position",
            "Position of the last event applied to this gateway's read model",
        );
        let lag =
            gauge("league_read_model_lag", "Events in the log not yet applied to the read model");
        let prediction_misses = register(
            &registry,
            IntCounter::new(
                "league_append_prediction_misses_total",
                "Appends decided again because the log moved under the store's prediction (PostgreSQL; other processes' appends)",
            )
            .expect("valid metric"),
        );
        let scrape = register(
            &registry,
            Histogram::with_opts(HistogramOpts::new(
                "league_metrics_scrape_duration_seconds",
                "Time to read the log head for a scrape",
            ))
            .expect("valid metric"),
        );
        Metrics {
            registry,
            requests,
            latency,
            appends,
            ws_connections,
            ws_subscriptions,
            head,
            applied,
            lag,
            prediction_misses,
            scrape,
        }
    }

    /// Counts one answered GraphQL request.
    pub fn request(&self, kind: OperationKind, outcome: &str, elapsed: Duration) {
        self.requests.with_label_values(&[kind.label(), outcome]).inc();
        self.latency.with_label_values(&[kind.label()]).observe(elapsed.as_secs_f64());
        if kind == OperationKind::Mutation && outcome == "ok" {
            self.appends.inc();
        }
    }

    pub fn ws_connections(&self) -> &IntGauge {
        &self.ws_connections
    }

    pub fn ws_subscriptions(&self) -> &IntGauge {
        &self.ws_subscriptions
    }

    /// The text exposition, with the log positions read now.
    pub async fn render(&self, app: &App) -> String {
        let timer = self.scrape.start_timer();
        let applied = app.applied_position();
        match app.store().head_position().await {
            Ok(head) => {
                self.head.set(i64::try_from(head).unwrap_or(i64::MAX));
                self.lag.set(i64::try_from(head.saturating_sub(applied)).unwrap_or(i64::MAX));
            }
            Err(error) => tracing::warn!(%error, "metrics: cannot read the log head"),
        }
        timer.observe_duration();
        self.applied.set(i64::try_from(applied).unwrap_or(i64::MAX));
        // The store counts since it opened; the counter catches up with it.
        let misses = app.store().prediction_misses();
        self.prediction_misses.inc_by(misses.saturating_sub(self.prediction_misses.get()));
        let mut out = Vec::new();
        // Encoding into a Vec only fails on invalid metric families, which we never build.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}
