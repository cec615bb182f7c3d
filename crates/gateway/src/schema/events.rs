//! The audit log over GraphQL: the `events` query (every event, or one league's or one
//! tournament's, as a Relay connection whose cursors are global positions) and the `Event`
//! object the live subscriptions also answer with.

use async_graphql::connection::{Connection, Edge};
use async_graphql::{Context, ID, Json, Object};
use chrono::{DateTime, Utc};
use league_app::AuditScope;
use league_store::RecordedEvent;

use crate::error::{GatewayError, GatewayResult};
use crate::schema::context::app;
use crate::schema::inputs::parse_id;
use crate::schema::pagination::{ConnectionTotals, page_complexity, page_size, position_cursor};

pub type EventConnection = Connection<String, Event, ConnectionTotals>;

/// The audit log (merged into the query root).
#[derive(Debug, Default)]
pub struct EventQuery;

#[Object]
impl EventQuery {
    /// The audit log, oldest first: every event, or one league's, or one tournament's (Relay
    /// connection; `first` ≤ 100; cursors are global positions).
    #[graphql(complexity = "page_complexity(first, child_complexity)")]
    async fn events(
        &self,
        ctx: &Context<'_>,
        league_id: Option<ID>,
        tournament_id: Option<ID>,
        first: Option<i32>,
        after: Option<String>,
    ) -> GatewayResult<EventConnection> {
        let league = league_id.as_ref().map(|id| parse_id(id, "leagueId")).transpose()?;
        let tournament =
            tournament_id.as_ref().map(|id| parse_id(id, "tournamentId")).transpose()?;
        if league.is_some() && tournament.is_some() {
            return Err(GatewayError::bad_input(
                "tournamentId",
                "name a league or a tournament, not both",
            ));
        }
        let size = page_size(first)?;
        let after = position_cursor(after.as_deref())?;
        let scope = match (league, tournament) {
            (Some(league), _) => AuditScope::League(league),
            (None, Some(tournament)) => AuditScope::Tournament(tournament),
            (None, None) => AuditScope::Log,
        };
        let page = app(ctx).audit_page(scope, after, size).await?;
        let mut connection = Connection::with_additional_fields(
            after.is_some_and(|position| position > 0),
            page.has_next_page,
            ConnectionTotals { total_count: page.total_count },
        );
        connection.edges.extend(
            page.events
                .into_iter()
                .map(|event| Edge::new(event.position.to_string(), Event(event))),
        );
        Ok(connection)
    }
}

/// One event of the audit log.
pub struct Event(pub RecordedEvent);

/// One event of the audit log.
#[Object]
impl Event {
    /// Global position: 1, 2, 3… without gaps.
    async fn position(&self) -> u64 {
        self.0.position
    }

    /// `league-<uuid>`, `tournament-<uuid>` or `player-<uuid>`.
    async fn stream_id(&self) -> &str {
        self.0.stream_id.as_str()
    }

    /// Version within the stream.
    async fn version(&self) -> u64 {
        self.0.stream_version
    }

    /// Event type, e.g. `GameFinished`.
    #[graphql(name = "type")]
    async fn event_type(&self) -> &str {
        &self.0.event_type
    }

    /// What the event did, in words: the sentence the CLI's audits and webhook bodies show
    /// (players by name, results with their scores).
    async fn description(&self, ctx: &Context<'_>) -> GatewayResult<String> {
        Ok(app(ctx).describe_recorded(&self.0).await?)
    }

    async fn recorded_at(&self) -> DateTime<Utc> {
        self.0.recorded_at
    }

    /// Who caused it: `admin` or `player:<uuid>`.
    async fn actor(&self) -> Option<&str> {
        self.0.metadata.actor.as_deref()
    }

    /// The payload as stored, except that an older log's webhook URLs are shown as their
    /// host (`docs/webhooks.md#older-logs`; `hash` still covers the stored bytes).
    async fn payload(&self) -> Json<std::borrow::Cow<'_, serde_json::Value>> {
        Json(match league_domain::redacted_payload(&self.0.event_type, &self.0.payload) {
            Some(shown) => std::borrow::Cow::Owned(shown),
            None => std::borrow::Cow::Borrowed(&self.0.payload),
        })
    }

    /// SHA-256 linking this event to the previous one (tamper evidence).
    async fn hash(&self) -> &str {
        &self.0.hash
    }

    async fn prev_hash(&self) -> &str {
        &self.0.prev_hash
    }

    /// The request that caused it (the `x-request-id` of the mutation's HTTP request).
    async fn correlation_id(&self) -> Option<&str> {
        self.0.metadata.correlation_id.as_deref()
    }

    /// The league the event is about, if any.
    async fn league_id(&self) -> Option<ID> {
        league_domain::league_id_of_stream(self.0.stream_id.as_str()).map(|id| ID(id.to_string()))
    }
}
