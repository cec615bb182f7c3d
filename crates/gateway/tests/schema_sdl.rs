//! `schema.graphql` at the repository's top level is the exported SDL of the gateway's
//! schema. This test fails when the two differ; `UPDATE_SCHEMA=1 cargo test -p
//! league-gateway --test schema_sdl` rewrites the file from the code.

use std::path::PathBuf;

fn schema_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schema.graphql")
}

#[test]
fn schema_graphql_is_the_exported_sdl() {
    let sdl = league_gateway::sdl();
    let path = schema_file();
    if std::env::var("UPDATE_SCHEMA").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &sdl).expect("write schema.graphql");
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    if stored != sdl {
        let first_difference = stored
            .lines()
            .zip(sdl.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| stored.lines().count().min(sdl.lines().count()));
        panic!(
            "schema.graphql differs from the code's schema from line {} on; regenerate it with \
             `UPDATE_SCHEMA=1 cargo test -p league-gateway --test schema_sdl` and review the diff",
            first_difference + 1
        );
    }
}

#[test]
fn the_sdl_keeps_the_issue_s_names_and_shapes() {
    let sdl = league_gateway::sdl();
    for expected in [
        "input GameResultInput @oneOf",
        "input AsOf @oneOf",
        "registerPlayer(input: RegisterPlayerInput!): PlayerRegistration!",
        "createLeague(input: CreateLeagueInput!, idempotencyKey: String): League!",
        "subscribeToLeague(leagueId: ID!, playerId: ID, idempotencyKey: String): League!",
        "unsubscribeFromLeague(leagueId: ID!, playerId: ID, idempotencyKey: String): League!",
        "reportGameResult(gameId: ID!, result: GameResultInput!, idempotencyKey: String): Game!",
        "correctGameResult(gameId: ID!, result: GameResultInput!, reason: String!, idempotencyKey: String): Game!",
        "leagues(first: Int, after: String): LeagueConnection!",
        "standings(leagueId: ID!, system: ScoringSystem, asOf: AsOf, aggregation: AggregationInput, concessionsAsSolos: Boolean): [Standing!]!",
        "scoreHistory(leagueId: ID!, playerId: ID!): [ScoreChange!]!",
        "events(leagueId: ID, tournamentId: ID, first: Int, after: String): EventConnection!",
        "leagueEvents(leagueId: ID!): Event!",
        "standingsChanged(leagueId: ID!): StandingsUpdate!",
        "DETOUR_98F",
        "WOODEN_SHIPS_LEGACY",
    ] {
        assert!(sdl.contains(expected), "the SDL has `{expected}`");
    }
}
