//! Bad input against the real server (SQLite and PostgreSQL): a corpus of malformed
//! requests, each with the error it must get — the exact `extensions.code` for GraphQL
//! failures, the HTTP status for failures before GraphQL (broken JSON, oversized bodies,
//! wrong routes). After every case the server must still be healthy, and at the end the
//! log must hold exactly the events it held before the corpus ran.
//!
//! Hostile clients against the limits (WebSocket deadline and subscription cap, rate
//! limits) run on a server started with tiny limits, with the same checks.
//!
//! The corpus is the [`CORPUS`] table. Variables are JSON templates whose `{name}`
//! placeholders are filled from the [`Fixture`] (ids of leagues, games and players the
//! test creates first).

use crate::support;

use std::collections::BTreeMap;

use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};
use support::{
    ADMIN, Player, TestApp, error_code, placement_result, start_league_serve,
    start_league_serve_with, ws_frame,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Who sends a case.
#[derive(Debug, Clone, Copy)]
enum Auth {
    Anonymous,
    Admin,
    /// The player in seat 1 of `{game}`.
    Seated,
    /// A player of the league who is not seated in `{game}`.
    Unseated,
    /// A registered player in no league.
    Outsider,
    /// A raw `Authorization` header value.
    Header(&'static str),
    /// An `Authorization` header whose bytes are not text.
    NonTextHeader,
}

/// What is sent.
#[derive(Debug, Clone, Copy)]
enum Request {
    /// `POST /graphql` with `{query, variables}`; `variables` is a template.
    Graphql { query: &'static str, variables: &'static str },
    /// `POST /graphql` with this body and content type, as is.
    Body { content_type: &'static str, body: &'static str },
    /// A request line and headers over raw TCP (bodies announced but never sent).
    RawHead { method: &'static str, path: &'static str, content_length: Option<usize> },
    /// A GraphQL query built by a function (too large to write out).
    Built { build: fn() -> String },
    /// `GET /graphql?query=…` (placeholders filled from the fixture).
    Get { query: &'static str },
}

/// What must come back.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// HTTP 200 with `errors[0].extensions.code` equal to this.
    Code(&'static str),
    /// `Code`, and `extensions.field` equal to the second string.
    CodeField(&'static str, &'static str),
    /// This HTTP status, before any GraphQL execution.
    Status(u16),
}

struct Case {
    name: &'static str,
    auth: Auth,
    request: Request,
    expect: Expect,
}

const fn gql(
    name: &'static str,
    auth: Auth,
    query: &'static str,
    variables: &'static str,
    expect: Expect,
) -> Case {
    Case { name, auth, request: Request::Graphql { query, variables }, expect }
}

use Auth::*;
use Expect::*;

const REPORT: &str = "mutation($g: ID!, $r: GameResultInput!, $key: String) {
    reportGameResult(gameId: $g, result: $r, idempotencyKey: $key) { id status } }";
const CORRECT: &str = "mutation($g: ID!, $r: GameResultInput!, $reason: String!) {
    correctGameResult(gameId: $g, result: $r, reason: $reason) { id } }";
const CREATE: &str = "mutation($input: CreateLeagueInput!) { createLeague(input: $input) { id } }";
const SUBSCRIBE: &str =
    "mutation($l: ID!, $p: ID) { subscribeToLeague(leagueId: $l, playerId: $p) { id } }";
const UNSUBSCRIBE: &str =
    "mutation($l: ID!, $p: ID) { unsubscribeFromLeague(leagueId: $l, playerId: $p) { id } }";
const REGISTER: &str =
    "mutation($name: String!) { registerPlayer(input: {name: $name}) { token } }";
const STANDINGS: &str =
    "query($l: ID!, $asOf: AsOf) { standings(leagueId: $l, asOf: $asOf) { rank } }";

/// A valid placement result for `{game}` (used where something else is wrong).
const GOOD_PLACEMENT: &str = r#"{"placement": [{"playerId": "{p0}", "points": 40}, {"playerId": "{p1}", "points": 30}, {"playerId": "{p2}", "points": 20}, {"playerId": "{p3}", "points": 10}]}"#;

/// The corpus: at least 50 malformed requests and the error each must get.
const CORPUS: &[Case] = &[
    // --- Not JSON, not GraphQL over HTTP, wrong routes and methods, oversized bodies.
    Case {
        name: "truncated JSON body",
        auth: Anonymous,
        request: Request::Body {
            content_type: "application/json",
            body: r#"{"query": "{ leagues { totalCount } }""#,
        },
        expect: Status(400),
    },
    Case {
        name: "body is not JSON",
        auth: Anonymous,
        request: Request::Body { content_type: "application/json", body: "leagues please" },
        expect: Status(400),
    },
    Case {
        name: "empty body",
        auth: Anonymous,
        request: Request::Body { content_type: "application/json", body: "" },
        expect: Status(400),
    },
    Case {
        name: "query is a number",
        auth: Anonymous,
        request: Request::Body { content_type: "application/json", body: r#"{"query": 42}"# },
        expect: Status(400),
    },
    Case {
        name: "no query at all",
        auth: Anonymous,
        request: Request::Body { content_type: "application/json", body: r#"{"variables": {}}"# },
        expect: Code("GRAPHQL_PARSE_FAILED"),
    },
    Case {
        name: "variables is a string",
        auth: Anonymous,
        request: Request::Body {
            content_type: "application/json",
            body: r#"{"query": "{ me { id } }", "variables": "x"}"#,
        },
        expect: Status(400),
    },
    Case {
        name: "JSON with a lone surrogate escape",
        auth: Anonymous,
        request: Request::Body { content_type: "application/json", body: r#"{"query": "\ud800"}"# },
        expect: Status(400),
    },
    Case {
        name: "body announced above the 1 MiB limit",
        auth: Anonymous,
        request: Request::RawHead {
            method: "POST",
            path: "/graphql",
            content_length: Some(2 * 1024 * 1024),
        },
        expect: Status(413),
    },
    Case {
        name: "body announced at 1 GiB",
        auth: Anonymous,
        request: Request::RawHead {
            method: "POST",
            path: "/graphql",
            content_length: Some(1024 * 1024 * 1024),
        },
        expect: Status(413),
    },
    Case {
        name: "PUT /graphql",
        auth: Anonymous,
        request: Request::RawHead { method: "PUT", path: "/graphql", content_length: Some(0) },
        expect: Status(405),
    },
    Case {
        name: "DELETE /healthz",
        auth: Anonymous,
        request: Request::RawHead { method: "DELETE", path: "/healthz", content_length: None },
        expect: Status(405),
    },
    Case {
        name: "unknown route",
        auth: Anonymous,
        request: Request::RawHead {
            method: "POST",
            path: "/admin/drop-everything",
            content_length: None,
        },
        expect: Status(404),
    },
    Case {
        name: "unknown file",
        auth: Anonymous,
        request: Request::RawHead { method: "GET", path: "/admin/dump.sql", content_length: None },
        expect: Status(404),
    },
    // --- Documents that do not parse or do not fit the schema.
    gql(
        "unterminated selection",
        Anonymous,
        "{ leagues { nodes { id } ",
        "{}",
        Code("GRAPHQL_PARSE_FAILED"),
    ),
    gql("empty document", Anonymous, "", "{}", Code("GRAPHQL_PARSE_FAILED")),
    gql(
        "unknown field",
        Anonymous,
        "{ leagues { nodes { colour } } }",
        "{}",
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "string literal for an Int",
        Anonymous,
        r#"{ leagues(first: "ten") { totalCount } }"#,
        "{}",
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "Int literal out of 32-bit range",
        Anonymous,
        "{ leagues(first: 99999999999) { totalCount } }",
        "{}",
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "unknown enum value",
        Admin,
        r#"mutation { createLeague(input: {name: "L", game: "Chess", scoringSystem: ELO, playersPerGame: 2}) { id } }"#,
        "{}",
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "missing required argument",
        Admin,
        "mutation { subscribeToLeague { id } }",
        "{}",
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    // The parser follows fragment spreads, so a cycle trips its recursion guard.
    gql(
        "fragment cycle",
        Anonymous,
        "query { leagues { nodes { ...A } } } fragment A on League { ...B } fragment B on League { ...A }",
        "{}",
        Code("GRAPHQL_PARSE_FAILED"),
    ),
    gql(
        "unknown directive",
        Anonymous,
        "{ leagues @cache { totalCount } }",
        "{}",
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "variable of the wrong type",
        Anonymous,
        "query($n: Int) { leagues(first: $n) { totalCount } }",
        r#"{"n": "ten"}"#,
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql("required variable missing", Anonymous, STANDINGS, "{}", Code("BAD_USER_INPUT")),
    gql(
        "both oneOf result shapes",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [], "diplomacy": []}}"#,
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "AsOf with both position and time",
        Anonymous,
        STANDINGS,
        r#"{"l": "{league}", "asOf": {"position": 1, "time": "2026-01-01T00:00:00Z"}}"#,
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "AsOf time that is not a time",
        Anonymous,
        STANDINGS,
        r#"{"l": "{league}", "asOf": {"time": "yesterday"}}"#,
        Code("BAD_USER_INPUT"),
    ),
    // --- Abusive queries: depth, complexity, oversized pages, bad cursors.
    gql(
        "nested 19 levels deep",
        Anonymous,
        "{ leagues { nodes { games { league { games { league { games { league { games { league { games { league { games { league { games { league { games { league { id } } } } } } } } } } } } } } } } } } }",
        "{}",
        Code("QUERY_TOO_COMPLEX"),
    ),
    Case {
        name: "introspection nested 21 levels (its own limit is 20)",
        auth: Anonymous,
        request: Request::Built { build: deeper_than_the_limit },
        expect: Code("QUERY_TOO_COMPLEX"),
    },
    // Beyond the parser's own recursion guard (32), refused before validation.
    Case {
        name: "introspection nested 42 levels",
        auth: Anonymous,
        request: Request::Built { build: deep_introspection },
        expect: Code("GRAPHQL_PARSE_FAILED"),
    },
    Case {
        name: "200 aliases of full pages",
        auth: Anonymous,
        request: Request::Built { build: wide_query },
        expect: Code("QUERY_TOO_COMPLEX"),
    },
    Case {
        name: "300 aliased standings (an answer amplified by aliases)",
        auth: Anonymous,
        request: Request::Built { build: aliased_standings },
        expect: Code("QUERY_TOO_COMPLEX"),
    },
    Case {
        name: "a mutation over GET",
        auth: Admin,
        request: Request::Get {
            query: "mutation { registerPlayer(input: {name: \"Via GET\"}) { token } }",
        },
        expect: Status(405),
    },
    gql(
        "page of 101 leagues",
        Anonymous,
        "{ leagues(first: 101) { totalCount } }",
        "{}",
        CodeField("BAD_USER_INPUT", "first"),
    ),
    gql(
        "page of 1,000,000 events",
        Anonymous,
        "{ events(first: 1000000) { totalCount } }",
        "{}",
        CodeField("BAD_USER_INPUT", "first"),
    ),
    gql(
        "negative page size",
        Anonymous,
        "{ players(first: -1) { totalCount } }",
        "{}",
        CodeField("BAD_USER_INPUT", "first"),
    ),
    gql(
        "cursor that is no cursor",
        Anonymous,
        r#"{ leagues(after: "garbage") { totalCount } }"#,
        "{}",
        CodeField("BAD_USER_INPUT", "after"),
    ),
    gql(
        "event cursor that is no position",
        Anonymous,
        r#"{ events(after: "-3") { totalCount } }"#,
        "{}",
        CodeField("BAD_USER_INPUT", "after"),
    ),
    // --- Unknown and malformed ids.
    gql(
        "league id that is not an id",
        Anonymous,
        r#"{ league(id: "'; DROP TABLE events; --") { id } }"#,
        "{}",
        CodeField("BAD_USER_INPUT", "id"),
    ),
    gql("standings of no league", Anonymous, STANDINGS, r#"{"l": "{nobody}"}"#, Code("NOT_FOUND")),
    gql(
        "score history of no player",
        Anonymous,
        "query($l: ID!, $p: ID!) { scoreHistory(leagueId: $l, playerId: $p) { total } }",
        r#"{"l": "{league}", "p": "{nobody}"}"#,
        Code("NOT_FOUND"),
    ),
    gql(
        "report for no game",
        Admin,
        REPORT,
        r#"{"g": "{nobody}", "r": {"placement": []}}"#,
        Code("NOT_FOUND"),
    ),
    gql(
        "report for a malformed game id",
        Admin,
        REPORT,
        r#"{"g": "game-1", "r": {"placement": []}}"#,
        CodeField("BAD_USER_INPUT", "gameId"),
    ),
    gql("subscribe to no league", Outsider, SUBSCRIBE, r#"{"l": "{nobody}"}"#, Code("NOT_FOUND")),
    gql(
        "admin subscribes no player",
        Admin,
        SUBSCRIBE,
        r#"{"l": "{open}", "p": "{nobody}"}"#,
        Code("NOT_FOUND"),
    ),
    gql(
        "admin subscribes without naming the player",
        Admin,
        SUBSCRIBE,
        r#"{"l": "{open}"}"#,
        CodeField("BAD_USER_INPUT", "playerId"),
    ),
    // --- Results the rules refuse.
    gql(
        "centres of one power over 34",
        Admin,
        REPORT,
        r#"{"g": "{dgame}", "r": {"diplomacy": [{"playerId": "{d0}", "centres": 35}, {"playerId": "{d1}", "centres": 0, "eliminated": true}, {"playerId": "{d2}", "centres": 0, "eliminated": true}, {"playerId": "{d3}", "centres": 0, "eliminated": true}, {"playerId": "{d4}", "centres": 0, "eliminated": true}, {"playerId": "{d5}", "centres": 0, "eliminated": true}, {"playerId": "{d6}", "centres": 0, "eliminated": true}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "centres summing over 34",
        Admin,
        REPORT,
        r#"{"g": "{dgame}", "r": {"diplomacy": [{"playerId": "{d0}", "centres": 10}, {"playerId": "{d1}", "centres": 10}, {"playerId": "{d2}", "centres": 5}, {"playerId": "{d3}", "centres": 5}, {"playerId": "{d4}", "centres": 3}, {"playerId": "{d5}", "centres": 1}, {"playerId": "{d6}", "centres": 1}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "negative centres",
        Admin,
        REPORT,
        r#"{"g": "{dgame}", "r": {"diplomacy": [{"playerId": "{d0}", "centres": -1}, {"playerId": "{d1}", "centres": 10}, {"playerId": "{d2}", "centres": 5}, {"playerId": "{d3}", "centres": 5}, {"playerId": "{d4}", "centres": 3}, {"playerId": "{d5}", "centres": 1}, {"playerId": "{d6}", "centres": 1}]}}"#,
        CodeField("BAD_USER_INPUT", "result.diplomacy[0].centres"),
    ),
    gql(
        "six powers of seven",
        Admin,
        REPORT,
        r#"{"g": "{dgame}", "r": {"diplomacy": [{"playerId": "{d0}", "centres": 10}, {"playerId": "{d1}", "centres": 8}, {"playerId": "{d2}", "centres": 5}, {"playerId": "{d3}", "centres": 5}, {"playerId": "{d4}", "centres": 3}, {"playerId": "{d5}", "centres": 3}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "duplicate player in a result",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [{"playerId": "{p0}", "points": 40}, {"playerId": "{p0}", "points": 30}, {"playerId": "{p2}", "points": 20}, {"playerId": "{p3}", "points": 10}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "result for a player not seated there",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [{"playerId": "{p0}", "points": 40}, {"playerId": "{p1}", "points": 30}, {"playerId": "{p2}", "points": 20}, {"playerId": "{q0}", "points": 10}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "result for an unregistered player",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [{"playerId": "{p0}", "points": 40}, {"playerId": "{p1}", "points": 30}, {"playerId": "{p2}", "points": 20}, {"playerId": "{nobody}", "points": 10}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "three entries for four seats",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [{"playerId": "{p0}", "points": 40}, {"playerId": "{p1}", "points": 30}, {"playerId": "{p2}", "points": 20}]}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "empty result",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": []}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "Diplomacy result for a placement game",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"diplomacy": [{"playerId": "{p0}", "centres": 10}, {"playerId": "{p1}", "centres": 8}, {"playerId": "{p2}", "centres": 5}, {"playerId": "{p3}", "centres": 5}]}}"#,
        CodeField("BAD_USER_INPUT", "result"),
    ),
    gql(
        "team result for a placement game",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"teams": {"sides": [{"name": "A", "players": [{"playerId": "{p0}", "points": 1}, {"playerId": "{p1}", "points": 1}]}, {"name": "B", "players": [{"playerId": "{p2}", "points": 1}, {"playerId": "{p3}", "points": 1}]}]}}}"#,
        CodeField("BAD_USER_INPUT", "result"),
    ),
    gql(
        "player id in a result that is not an id",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [{"playerId": "ann", "points": 40}]}}"#,
        CodeField("BAD_USER_INPUT", "result.placement[0].playerId"),
    ),
    gql(
        "points as a string",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": {"placement": [{"playerId": "{p0}", "points": "forty"}]}}"#,
        Code("GRAPHQL_VALIDATION_FAILED"),
    ),
    gql(
        "blank idempotency key",
        Admin,
        REPORT,
        r#"{"g": "{game}", "r": GOOD_PLACEMENT, "key": "   "}"#,
        CodeField("BAD_USER_INPUT", "idempotencyKey"),
    ),
    Case {
        name: "idempotency key of 100,000 characters",
        auth: Admin,
        request: Request::Built { build: huge_key_report },
        expect: CodeField("BAD_USER_INPUT", "idempotencyKey"),
    },
    // --- State conflicts.
    gql(
        "report a finished game again",
        Admin,
        REPORT,
        r#"{"g": "{finished}", "r": FINISHED_RESULT}"#,
        Code("CONFLICT"),
    ),
    gql(
        "correct a game not finished",
        Admin,
        CORRECT,
        r#"{"g": "{game}", "r": GOOD_PLACEMENT, "reason": "typo"}"#,
        Code("CONFLICT"),
    ),
    gql(
        "subscribe to a running league",
        Outsider,
        SUBSCRIBE,
        r#"{"l": "{league}"}"#,
        Code("CONFLICT"),
    ),
    gql(
        "unsubscribe from a running league",
        Seated,
        UNSUBSCRIBE,
        r#"{"l": "{league}"}"#,
        Code("CONFLICT"),
    ),
    gql("subscribe twice", Seated, SUBSCRIBE, r#"{"l": "{league}"}"#, Code("CONFLICT")),
    // --- Settings and names the rules refuse.
    gql(
        "league of 65 players",
        Admin,
        CREATE,
        r#"{"input": {"name": "Big", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 4, "size": 65}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "league smaller than a game",
        Admin,
        CREATE,
        r#"{"input": {"name": "Small", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 4, "size": 3}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "Diplomacy with three powers",
        Admin,
        CREATE,
        r#"{"input": {"name": "Dip", "game": "Diplomacy", "scoringSystem": "BAF", "playersPerGame": 3}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql(
        "negative players per game",
        Admin,
        CREATE,
        r#"{"input": {"name": "Neg", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": -4}}"#,
        CodeField("BAD_USER_INPUT", "input.playersPerGame"),
    ),
    gql(
        "21 games per seat",
        Admin,
        CREATE,
        r#"{"input": {"name": "Long", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 2, "gamesPerSeat": 21}}"#,
        Code("BAD_USER_INPUT"),
    ),
    // The scheduler's limit (16): a league accepted with more could never be filled.
    gql(
        "17 games per seat",
        Admin,
        CREATE,
        r#"{"input": {"name": "Long", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 4, "gamesPerSeat": 17}}"#,
        CodeField("BAD_USER_INPUT", "gamesPerSeat"),
    ),
    gql(
        "blank league name",
        Admin,
        CREATE,
        r#"{"input": {"name": "  ", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 2}}"#,
        Code("BAD_USER_INPUT"),
    ),
    gql("empty player name", Admin, REGISTER, r#"{"name": ""}"#, Code("BAD_USER_INPUT")),
    gql(
        "player name of 201 characters",
        Admin,
        REGISTER,
        r#"{"name": "{long_name}"}"#,
        Code("BAD_USER_INPUT"),
    ),
    Case {
        name: "player name of 500,000 characters",
        auth: Admin,
        request: Request::Built { build: huge_name },
        expect: Code("BAD_USER_INPUT"),
    },
    gql(
        "correction reason of 1,001 characters",
        Admin,
        CORRECT,
        r#"{"g": "{finished}", "r": FINISHED_RESULT, "reason": "{long_reason}"}"#,
        Code("BAD_USER_INPUT"),
    ),
    // --- Authentication and rights.
    gql(
        "forged bearer token",
        Header("Bearer forged-token"),
        "{ leagues { totalCount } }",
        "{}",
        Code("UNAUTHENTICATED"),
    ),
    gql(
        "Basic scheme",
        Header("Basic YWRtaW46YWRtaW4="),
        "{ leagues { totalCount } }",
        "{}",
        Code("UNAUTHENTICATED"),
    ),
    gql(
        "Bearer without a token",
        Header("Bearer "),
        "{ leagues { totalCount } }",
        "{}",
        Code("UNAUTHENTICATED"),
    ),
    gql(
        "token without a scheme",
        Header(support::ADMIN),
        "{ leagues { totalCount } }",
        "{}",
        Code("UNAUTHENTICATED"),
    ),
    gql(
        "Authorization header that is not text",
        NonTextHeader,
        "{ leagues { totalCount } }",
        "{}",
        Code("UNAUTHENTICATED"),
    ),
    gql(
        "anonymous registers a player",
        Anonymous,
        REGISTER,
        r#"{"name": "Mallory"}"#,
        Code("UNAUTHENTICATED"),
    ),
    gql("player registers a player", Seated, REGISTER, r#"{"name": "Mallory"}"#, Code("FORBIDDEN")),
    gql(
        "player creates a league",
        Outsider,
        CREATE,
        r#"{"input": {"name": "Mine", "game": "Go", "scoringSystem": "PLACEMENT", "playersPerGame": 2}}"#,
        Code("FORBIDDEN"),
    ),
    gql(
        "player subscribes someone else",
        Outsider,
        SUBSCRIBE,
        r#"{"l": "{open}", "p": "{p0}"}"#,
        Code("FORBIDDEN"),
    ),
    gql(
        "anonymous reports a result",
        Anonymous,
        REPORT,
        r#"{"g": "{game}", "r": GOOD_PLACEMENT}"#,
        Code("UNAUTHENTICATED"),
    ),
    gql(
        "unseated player reports a result",
        Unseated,
        REPORT,
        r#"{"g": "{game}", "r": GOOD_PLACEMENT}"#,
        Code("FORBIDDEN"),
    ),
    gql(
        "player corrects a result",
        Seated,
        CORRECT,
        r#"{"g": "{finished}", "r": FINISHED_RESULT, "reason": "I won"}"#,
        Code("FORBIDDEN"),
    ),
];

/// Ids and values the templates refer to.
struct Fixture {
    values: BTreeMap<&'static str, String>,
    fragments: Vec<(&'static str, String)>,
    seated: Player,
    unseated: Player,
    outsider: Player,
}

impl Fixture {
    /// Fills a variables template: `{name}` placeholders, then whole-value fragments.
    fn fill(&self, template: &str) -> Value {
        let mut text = template.to_owned();
        for (fragment, value) in &self.fragments {
            text = text.replace(fragment, value);
        }
        for (name, value) in &self.values {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("template {template}: {e}"))
    }

    fn token(&self, auth: Auth) -> Option<String> {
        match auth {
            Anonymous | NonTextHeader => None,
            Admin => Some(ADMIN.to_owned()),
            Seated => Some(self.seated.token.clone()),
            Unseated => Some(self.unseated.token.clone()),
            Outsider => Some(self.outsider.token.clone()),
            Header(_) => None,
        }
    }
}

/// A placement league (k = 4) with one game finished, a Diplomacy league (BAF, k = 7), an
/// open league with nobody in it, and a registered player in no league.
async fn fixture(server: &TestApp) -> Fixture {
    let players = server.register_many(8, "Player").await;
    let outsider = server.register("Outsider").await;
    let league = server.create_league("PLACEMENT", 4, None).await;
    server.fill(&league, &players).await;
    let dleague = server.create_league("BAF", 7, None).await;
    server.fill(&dleague, &players).await;
    let open = server.create_league("PLACEMENT", 4, None).await;

    let games = server.games(&league).await;
    let (finished, finished_seats, _) = &games[0];
    let finished_result = placement_result(finished_seats);
    server.data(Some(ADMIN), REPORT, json!({ "g": finished, "r": finished_result })).await;
    let (game, seats, _) = &games[1];
    let unseated = players.iter().find(|p| !seats.contains(&p.id)).expect("an unseated player");
    let seated = players.iter().find(|p| p.id == seats[0]).expect("the seat-1 player");
    let dgames = server.games(&dleague).await;
    let (dgame, dseats, _) = &dgames[0];

    let mut values = BTreeMap::from([
        ("league", league.clone()),
        ("dleague", dleague.clone()),
        ("open", open.clone()),
        ("game", game.clone()),
        ("finished", finished.clone()),
        ("dgame", dgame.clone()),
        ("q0", unseated.id.clone()),
        ("nobody", "00000000-0000-7000-8000-000000000000".to_owned()),
        ("long_name", "n".repeat(201)),
        ("long_reason", "r".repeat(1001)),
    ]);
    const P: [&str; 4] = ["p0", "p1", "p2", "p3"];
    for (name, id) in P.iter().zip(seats) {
        values.insert(name, id.clone());
    }
    const D: [&str; 7] = ["d0", "d1", "d2", "d3", "d4", "d5", "d6"];
    for (name, id) in D.iter().zip(dseats) {
        values.insert(name, id.clone());
    }
    let good = GOOD_PLACEMENT.to_owned();
    Fixture {
        values,
        fragments: vec![("GOOD_PLACEMENT", good), ("FINISHED_RESULT", finished_result.to_string())],
        seated: seated.clone(),
        unseated: unseated.clone(),
        outsider,
    }
}

fn deeper_than_the_limit() -> String {
    format!(
        "{{ __schema {{ types {{ {} name {} }} }} }}",
        "fields { type { ".repeat(9),
        "} } ".repeat(9)
    )
}

fn deep_introspection() -> String {
    format!(
        "{{ __schema {{ types {{ {} name {} }} }} }}",
        "fields { type { ".repeat(20),
        "} } ".repeat(20)
    )
}

fn wide_query() -> String {
    let aliases: String = (1..=200)
        .map(|i| format!("a{i}: players(first: 100) {{ nodes {{ id name leagues {{ id }} }} }} "))
        .collect();
    format!("{{ {aliases} }}")
}

fn aliased_standings() -> String {
    let aliases: String = (1..=300)
        .map(|i| {
            format!("s{i}: standings(leagueId: \"{{league}}\") {{ rank total player {{ name }} }} ")
        })
        .collect();
    format!("{{ {aliases} }}")
}

fn huge_key_report() -> String {
    // The key rides in the document itself, so this case needs no variables.
    format!(
        r#"mutation {{ reportGameResult(gameId: "{{game}}", result: {{placement: []}}, idempotencyKey: "{}") {{ id }} }}"#,
        "k".repeat(100_000)
    )
}

fn huge_name() -> String {
    format!(
        r#"mutation {{ registerPlayer(input: {{name: "{}"}}) {{ token }} }}"#,
        "x".repeat(500_000)
    )
}

/// Sends one case; returns (HTTP status, body if JSON).
async fn send(server: &TestApp, fixture: &Fixture, case: &Case) -> (u16, Value) {
    let url = server.graphql_url();
    let mut request = match case.request {
        Request::Graphql { query, variables } => server
            .http
            .post(&url)
            .json(&json!({ "query": query, "variables": fixture.fill(variables) })),
        Request::Built { build } => {
            let mut query = build();
            for (name, value) in &fixture.values {
                query = query.replace(&format!("{{{name}}}"), value);
            }
            server.http.post(&url).json(&json!({ "query": query }))
        }
        Request::Get { query } => {
            let mut query = query.to_owned();
            for (name, value) in &fixture.values {
                query = query.replace(&format!("{{{name}}}"), value);
            }
            server.http.get(&url).query(&[("query", query)])
        }
        Request::Body { content_type, body } => {
            server.http.post(&url).header("content-type", content_type).body(body)
        }
        Request::RawHead { method, path, content_length } => {
            return (raw_status(server, method, path, content_length).await, Value::Null);
        }
    };
    if let Some(token) = fixture.token(case.auth) {
        request = request.bearer_auth(token);
    }
    match case.auth {
        Header(value) => request = request.header("authorization", value),
        NonTextHeader => {
            let value = reqwest::header::HeaderValue::from_bytes(b"Bearer \xff\xfe")
                .expect("an opaque header value");
            request = request.header("authorization", value);
        }
        _ => {}
    }
    let response = request.send().await.unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let status = response.status().as_u16();
    let body = response.bytes().await.unwrap_or_default();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// The status line of a request sent as raw HTTP/1.1 (a body announced, never sent).
async fn raw_status(server: &TestApp, method: &str, path: &str, length: Option<usize>) -> u16 {
    let address = server.base.strip_prefix("http://").expect("http base");
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n"
    );
    if let Some(length) = length {
        head.push_str(&format!("Content-Length: {length}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.expect("send the request head");
    let mut status_line = String::new();
    BufReader::new(stream).read_line(&mut status_line).await.expect("read the status line");
    status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {status_line:?}"))
}

async fn malformed_requests_get_their_error_and_change_nothing(db: TestDatabase) {
    assert!(CORPUS.len() >= 50, "the corpus has {} cases", CORPUS.len());
    let server = start_league_serve(&db.url).await;
    let fixture = fixture(&server).await;
    let before = server.events(None).await;
    let mut failures = Vec::new();
    for case in CORPUS {
        let (status, body) = send(&server, &fixture, case).await;
        let outcome = match case.expect {
            Status(expected) => (status == expected).then_some(()).ok_or(format!("HTTP {status}")),
            Code(expected) | CodeField(expected, _) => {
                let code = error_code(&body);
                let field = body["errors"][0]["extensions"]["field"].as_str();
                let field_ok = match case.expect {
                    CodeField(_, expected_field) => field == Some(expected_field),
                    _ => true,
                };
                (status == 200 && code == expected && field_ok)
                    .then_some(())
                    .ok_or(format!("HTTP {status}, code {code}, field {field:?}: {body}"))
            }
        };
        if let Err(got) = outcome {
            failures.push(format!("{}: expected {:?}, got {got}", case.name, case.expect));
        }
        // The server is still up after every case.
        server.health().await;
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        CORPUS.len(),
        failures.join("\n")
    );
    let after = server.events(None).await;
    assert_eq!(after, before, "no bad request appended or changed anything");
}

/// Hostile clients against the limits (WebSocket without `connection_init`, one
/// subscription too many, a mutation over the rate limit): each gets the documented
/// refusal, the server stays up, and the log is unchanged.
async fn hostile_clients_are_refused_and_change_nothing(db: TestDatabase) {
    use futures::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let server = start_league_serve_with(
        &db.url,
        &[
            ("LEAGUE_ADMIN_TOKEN", ADMIN),
            ("LEAGUE_WS_INIT_TIMEOUT_SECS", "0.5"),
            ("LEAGUE_WS_MAX_SUBSCRIPTIONS", "2"),
            ("LEAGUE_RATE_MUTATIONS_PER_MIN", "1"),
            ("LEAGUE_RATE_MUTATIONS_BURST", "1"),
        ],
    )
    .await;
    let league = server.create_league("PLACEMENT", 4, None).await;
    let before = server.events(None).await;

    // A mutation over the admin's mutation budget: 429, Retry-After, RATE_LIMITED.
    let response = server
        .http
        .post(server.graphql_url())
        .bearer_auth(ADMIN)
        .json(&json!({ "query": REGISTER, "variables": { "name": "One too many" } }))
        .send()
        .await
        .expect("POST /graphql");
    assert_eq!(response.status().as_u16(), 429);
    assert!(response.headers().contains_key("retry-after"));
    let body: Value = response.json().await.expect("a JSON body");
    assert_eq!(error_code(&body), "RATE_LIMITED", "{body}");
    server.health().await;

    // A WebSocket that never sends connection_init: closed with 4408.
    let mut silent = server.ws_connect("graphql-transport-ws").await;
    match ws_frame(&mut silent).await {
        Message::Close(Some(frame)) => assert_eq!(u16::from(frame.code), 4408),
        other => panic!("expected close 4408, got {other:?}"),
    }
    server.health().await;

    // One subscription too many on a connection: an error for that operation only.
    let mut ws = server.ws_connect("graphql-transport-ws").await;
    ws.send(Message::text(r#"{"type":"connection_init"}"#)).await.expect("send init");
    assert!(ws_frame(&mut ws).await.to_text().expect("text").contains("connection_ack"));
    for id in ["1", "2", "3"] {
        let subscribe = json!({ "type": "subscribe", "id": id, "payload": {
            "query": "subscription($l: ID!) { leagueEvents(leagueId: $l) { position } }",
            "variables": { "l": league } } });
        ws.send(Message::text(subscribe.to_string())).await.expect("send subscribe");
    }
    let refusal: Value =
        serde_json::from_str(ws_frame(&mut ws).await.to_text().expect("text")).expect("JSON");
    assert_eq!(refusal["id"], "3", "{refusal}");
    assert_eq!(refusal["payload"][0]["extensions"]["code"], "TOO_MANY_SUBSCRIPTIONS");
    server.health().await;

    assert_eq!(server.events(None).await, before, "no hostile request appended anything");
}

on_both_databases!(
    malformed_requests_get_their_error_and_change_nothing,
    hostile_clients_are_refused_and_change_nothing,
);
