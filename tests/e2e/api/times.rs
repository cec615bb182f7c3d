//! A tournament's times over GraphQL on both databases (`docs/tournaments.md#times`): dates,
//! venue and time zone set at creation and changed by an organiser, round start times set
//! before and after seeding, a player's check-in refused before its window opens (an
//! organiser records anyone at any time), and three rounds on one day as three timed events
//! of a player's calendar feed (`docs/feeds.md#calendar-feed`).

use chrono::{DateTime, Duration, Utc};
use league_testkit::{TestDatabase, on_both_databases};
use serde_json::{Value, json};

use crate::api::tournament::{create, diplomacy_input, enter, report_round, seed};
use crate::feeds::{calendar_events, rotate};
use crate::support::{ADMIN, Player, TestApp, error_code, error_of, spawn_app};

const TIMES: &str = "query($id: ID!) {
  tournament(id: $id) {
    schedule { timeZone startsOn endsOn venueName venueAddress checkInOpensMinutesBefore }
    roundTimes { round startsAt endsAt finalYear checkInOpensAt }
  }
}";

const SET_ROUND_TIMES: &str = "mutation($t: ID!, $r: Int!, $s: DateTime!, $e: DateTime, $y: Int) {
  setRoundTimes(tournamentId: $t, round: $r, startsAt: $s, endsAt: $e, finalYear: $y) { id }
}";

const CHANGE_SCHEDULE: &str = "mutation($t: ID!, $s: TournamentScheduleInput!) {
  changeTournamentSchedule(tournamentId: $t, schedule: $s) { schedule { venueName } }
}";

const ANSWER: &str = "mutation($t: ID!, $r: Int!, $p: ID) {
  answerRollCall(tournamentId: $t, round: $r, playerId: $p, present: true) { id }
}";

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

async fn set_round_times(
    server: &TestApp,
    token: &str,
    id: &str,
    round: u32,
    starts_at: DateTime<Utc>,
    ends_at: Option<DateTime<Utc>>,
) -> Value {
    let variables = json!({
        "t": id, "r": round, "s": rfc3339(starts_at), "e": ends_at.map(rfc3339), "y": 1907,
    });
    server.gql(Some(token), SET_ROUND_TIMES, variables).await
}

/// `player` answers round `round`'s roll call, as themself (`token` theirs) or an organiser.
async fn answer(server: &TestApp, token: &str, id: &str, round: u32, player: &Player) -> Value {
    server.gql(Some(token), ANSWER, json!({ "t": id, "r": round, "p": player.id })).await
}

async fn a_timed_tournament_opens_check_in_before_each_round_and_its_boards_are_timed_events(
    db: TestDatabase,
) {
    use icalendar::Component;

    let server = spawn_app(&db.url).await;
    let players = server.register_many(7, "Entrant").await;
    let mut input = diplomacy_input(3);
    input["schedule"] = json!({
        "timeZone": "Europe/Paris", "startsOn": "2030-06-01", "endsOn": "2030-06-01",
        "venueName": "Club Diplo", "venueAddress": "1 rue de Rivoli, Paris",
        "checkInOpensMinutesBefore": 60,
    });
    let created = create(&server, input).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
    }

    // Round 1 starts in three hours: a player's own check-in opens in two and is refused
    // until then; nothing is appended. An organiser records a player at any time.
    let soon = Utc::now() + Duration::hours(3);
    let set = set_round_times(&server, ADMIN, &id, 1, soon, None).await;
    assert!(set["errors"].is_null(), "{set}");
    let before = server.event_count().await;
    let early = answer(&server, &players[0].token, &id, 1, &players[0]).await;
    assert_eq!(error_code(&early), "CONFLICT", "{early}");
    let message = early["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("check-in for round 1 opens at"), "{message}");
    assert!(message.contains("(Europe/Paris)"), "{message}");
    assert_eq!(server.event_count().await, before);
    let recorded = answer(&server, ADMIN, &id, 1, &players[0]).await;
    assert!(recorded["errors"].is_null(), "{recorded}");

    // A player may not set times or change the schedule; an unknown zone is bad input.
    let by_player = set_round_times(&server, &players[1].token, &id, 1, soon, None).await;
    assert_eq!(error_code(&by_player), "FORBIDDEN");
    let zone = json!({ "t": id, "s": { "timeZone": "Europe/Atlantis" } });
    let unknown = server.gql(Some(ADMIN), CHANGE_SCHEDULE, zone).await;
    assert_eq!(error_of(&unknown), ("BAD_USER_INPUT", Some("schedule.timeZone")));
    let backwards = set_round_times(&server, ADMIN, &id, 1, soon, Some(soon - Duration::hours(1)));
    assert_eq!(error_of(&backwards.await), ("BAD_USER_INPUT", Some("endsAt")));

    // Three rounds on one Saturday: 10:00, 14:00 (to 17:30) and 18:00 in Paris.
    let saturday =
        |hour: u32| -> DateTime<Utc> { format!("2030-06-01T{hour:02}:00:00Z").parse().unwrap() };
    let ends = saturday(15) + Duration::minutes(30);
    for (round, start, end) in [(1, saturday(8), None), (2, saturday(12), Some(ends))] {
        assert!(set_round_times(&server, ADMIN, &id, round, start, end).await["errors"].is_null());
    }
    for round in 1..=3 {
        for player in &players {
            let answered = answer(&server, ADMIN, &id, round, player).await;
            assert!(answered["errors"].is_null(), "{answered}");
        }
        assert!(seed(&server, &id, round).await["errors"].is_null());
        if round == 3 {
            // Times may be set after the round is seeded.
            let set = set_round_times(&server, ADMIN, &id, 3, saturday(16), None).await;
            assert!(set["errors"].is_null(), "{set}");
        }
        report_round(&server, &players, &id, round).await;
    }

    let times = server.data(None, TIMES, json!({ "id": id })).await["tournament"].clone();
    assert_eq!(
        times["schedule"],
        json!({
            "timeZone": "Europe/Paris", "startsOn": "2030-06-01", "endsOn": "2030-06-01",
            "venueName": "Club Diplo", "venueAddress": "1 rue de Rivoli, Paris",
            "checkInOpensMinutesBefore": 60,
        })
    );
    let rounds = times["roundTimes"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    assert_eq!(rounds[1]["startsAt"], "2030-06-01T12:00:00+00:00");
    assert_eq!(rounds[1]["endsAt"], "2030-06-01T15:30:00+00:00");
    assert_eq!(rounds[1]["finalYear"], 1907);
    assert_eq!(rounds[1]["checkInOpensAt"], "2030-06-01T11:00:00+00:00");

    // The calendar feed: three timed events, in UTC, ending at the end time or three hours on.
    let path = rotate(&server, &players[0].token, None).await;
    let events = calendar_events(&server, &path).await;
    let mut spans: Vec<_> = events.iter().map(|e| (e.get_start(), e.get_end())).collect();
    spans.sort_by_key(|(start, _)| format!("{start:?}"));
    let timed = |start: DateTime<Utc>, end: DateTime<Utc>| (Some(start.into()), Some(end.into()));
    assert_eq!(
        spans,
        [
            timed(saturday(8), saturday(11)),
            timed(saturday(12), ends),
            timed(saturday(16), saturday(19)),
        ]
    );

    // An organiser changes the venue; the log says it in words.
    let change = json!({ "t": id, "s": { "timeZone": "Europe/Paris", "venueName": "Town Hall" } });
    let changed = server.data(Some(ADMIN), CHANGE_SCHEDULE, change).await;
    assert_eq!(changed["changeTournamentSchedule"]["schedule"]["venueName"], "Town Hall");
    let words: Vec<String> = server
        .events(None)
        .await
        .iter()
        .filter_map(|e| e["description"].as_str().map(str::to_owned))
        .collect();
    assert!(words.iter().any(|w| w.starts_with("Schedule:") && w.contains("at Town Hall")));
    assert!(
        words.iter().any(|w| w
            == "round 2 starts at 2030-06-01 14:00 (Europe/Paris), \
         ends at 2030-06-01 17:30 (Europe/Paris), last game year 1907"),
        "{words:?}"
    );
}

on_both_databases!(
    a_timed_tournament_opens_check_in_before_each_round_and_its_boards_are_timed_events,
);
