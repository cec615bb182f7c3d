//! Calendars, exports and the embeddable standings pages (`docs/feeds.md`) on both
//! databases: a player's secret calendar feed (valid iCalendar, read back with the
//! `icalendar` crate's parser) follows their games and boards, is rotated by them or the
//! site admin (the old URL then answers 404) and is refused to anyone else; a Diplomacy
//! tournament exports the columns a world rating database imports, as CSV and JSON, over
//! HTTP and GraphQL alike; embed pages alone may be framed, by the sites configured.

use league_testkit::{TestDatabase, on_both_databases};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::api::tournament::{check_in, create, diplomacy_input, enter, report_round, seed};
use crate::support::{
    ADMIN, Player, TestApp, error_code, placement_result, spawn_app, spawn_app_with,
    start_league_serve_with,
};

const ROTATE: &str =
    "mutation($p: ID) { rotateCalendarFeed(playerId: $p) { url path player { id } } }";
const HAS_FEED: &str = "query($p: ID!) { player(id: $p) { calendarFeed } }";

async fn get(server: &TestApp, path: &str, if_none_match: Option<&str>) -> reqwest::Response {
    let mut request = server.http.get(server.url(path));
    if let Some(tag) = if_none_match {
        request = request.header("if-none-match", tag);
    }
    server.send(request).await.expect("GET")
}

/// The answer's header `name` as text ("" when absent).
fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response.headers().get(name).map_or("", |v| v.to_str().unwrap())
}

/// Rotates `player`'s feed as `token`; returns the feed's path.
pub(crate) async fn rotate(server: &TestApp, token: &str, player: Option<&str>) -> String {
    let data = server.data(Some(token), ROTATE, json!({ "p": player })).await;
    let feed = &data["rotateCalendarFeed"];
    let path = feed["path"].as_str().unwrap().to_owned();
    assert!(path.starts_with("/calendar/") && path.ends_with(".ics"), "{path}");
    assert!(feed["url"].as_str().unwrap().ends_with(&path), "{feed}");
    path
}

/// The events of a feed, read back by the `icalendar` crate's parser after checking the
/// text's framing (CRLF lines of at most 75 octets, RFC 5545 §3.1).
pub(crate) async fn calendar_events(server: &TestApp, path: &str) -> Vec<icalendar::Event> {
    let response = get(server, path, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-type"), "text/calendar; charset=utf-8");
    let text = response.text().await.unwrap();
    assert!(text.starts_with("BEGIN:VCALENDAR\r\n") && text.ends_with("END:VCALENDAR\r\n"));
    assert!(text.split("\r\n").all(|line| line.len() <= 75 && !line.contains('\n')), "{text}");
    let unfolded = icalendar::parser::unfold(&text);
    let calendar: icalendar::Calendar =
        icalendar::parser::read_calendar(&unfolded).expect("valid iCalendar").into();
    assert_eq!(calendar.property_value("VERSION"), Some("2.0"));
    calendar.events().cloned().collect()
}

async fn league_of_four(server: &TestApp, players: &[Player]) -> String {
    let league = server
        .create_league_with(json!({
            "name": "Autumn League", "game": "Cartagena", "scoringSystem": "PLACEMENT",
            "playersPerGame": 2, "size": 4, "gamesPerSeat": 1,
        }))
        .await;
    let id = league["id"].as_str().unwrap().to_owned();
    server.fill(&id, players).await;
    id
}

async fn a_players_calendar_feed_follows_their_games(db: TestDatabase) {
    use icalendar::Component;

    let server = spawn_app(&db.url).await;
    let players = server.register_many(4, "Player").await;
    let ada = &players[0];
    let league = league_of_four(&server, &players).await;
    let mine: Vec<_> = server
        .game_infos(&league)
        .await
        .into_iter()
        .filter(|g| g.seats.contains(&ada.id))
        .collect();
    assert!(!mine.is_empty());

    // Whether a feed exists is told to the player and the admin only.
    let has_feed = |token: Option<&'static str>| {
        let server = &server;
        let id = ada.id.clone();
        async move {
            server.data(token, HAS_FEED, json!({ "p": id })).await["player"]["calendarFeed"].clone()
        }
    };
    assert_eq!(has_feed(None).await, Value::Null);
    let own = server.data(Some(&ada.token), HAS_FEED, json!({ "p": ada.id })).await;
    assert_eq!(own["player"]["calendarFeed"], false);

    let path = rotate(&server, &ada.token, None).await;
    assert_eq!(has_feed(Some(ADMIN)).await, true);
    let events = calendar_events(&server, &path).await;
    assert_eq!(events.len(), mine.len());
    for game in &mine {
        let uid = format!("game-{}@league", game.id);
        let event = events.iter().find(|e| e.get_uid() == Some(uid.as_str())).expect("the game");
        let summary = event.get_summary().unwrap();
        assert!(summary.starts_with("Autumn League: game"), "{summary}");
        assert!(summary.contains(" vs Player "), "{summary}");
        assert!(event.get_timestamp().is_some() && event.get_start().is_some());
        assert!(event.get_url().unwrap().ends_with(&format!("/games/{}", game.id)));
        assert!(event.get_description().unwrap().ends_with("Not played yet."));
    }

    // A reported result shows in the feed; an unchanged feed answers 304 to its ETag.
    let first = get(&server, &path, None).await;
    let tag = header(&first, "etag").to_owned();
    assert_eq!(get(&server, &path, Some(&tag)).await.status(), StatusCode::NOT_MODIFIED);
    let game = &mine[0];
    let reported = server.report(&ada.token, &game.id, &placement_result(&game.seats)).await;
    assert_eq!(reported["status"], "FINISHED");
    assert_eq!(get(&server, &path, Some(&tag)).await.status(), StatusCode::OK);
    let events = calendar_events(&server, &path).await;
    let uid = format!("game-{}@league", game.id);
    let event = events.iter().find(|e| e.get_uid() == Some(uid.as_str())).unwrap();
    assert!(event.get_description().unwrap().contains("Played; your score:"));

    // Nobody else rotates Ada's feed, and nothing is appended for it.
    let before = server.event_count().await;
    let other = server.gql(Some(&players[1].token), ROTATE, json!({ "p": ada.id })).await;
    assert_eq!(error_code(&other), "FORBIDDEN");
    let anonymous = server.gql(None, ROTATE, json!({ "p": ada.id })).await;
    assert_eq!(error_code(&anonymous), "UNAUTHENTICATED");
    let unknown = uuid::Uuid::now_v7().to_string();
    let nobody = server.gql(Some(ADMIN), ROTATE, json!({ "p": unknown })).await;
    assert_eq!(error_code(&nobody), "NOT_FOUND");
    let bad = server.gql(Some(ADMIN), ROTATE, json!({ "p": "not-an-id" })).await;
    assert_eq!(error_code(&bad), "BAD_USER_INPUT");
    assert_eq!(server.event_count().await, before);

    // The site admin rotates it: the old URL answers 404 at once, the new one works.
    let rotated = rotate(&server, ADMIN, Some(&ada.id)).await;
    assert_ne!(rotated, path);
    assert_eq!(get(&server, &path, None).await.status(), StatusCode::NOT_FOUND);
    assert_eq!(calendar_events(&server, &rotated).await.len(), mine.len());
    // Another player's id with Ada's secret, a malformed secret: 404.
    let secret = &rotated["/calendar/".len()..rotated.len() - ".ics".len()];
    let bo = players[1].id.replace('-', "");
    let forged = format!("/calendar/{bo}{}.ics", &secret[32..]);
    assert_eq!(get(&server, &forged, None).await.status(), StatusCode::NOT_FOUND);
    assert_eq!(get(&server, "/calendar/abc.ics", None).await.status(), StatusCode::NOT_FOUND);
    let types: Vec<String> = server
        .events(None)
        .await
        .iter()
        .filter_map(|e| e["type"].as_str().map(str::to_owned))
        .filter(|t| t.starts_with("CalendarFeed"))
        .collect();
    assert_eq!(types, ["CalendarFeedIssued", "CalendarFeedRotated"]);
}

/// Parses a CSV text into its header and rows.
fn csv_table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let rows = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    (header, rows)
}

async fn a_diplomacy_tournament_exports_the_rating_database_columns(db: TestDatabase) {
    use icalendar::Component;

    let server = spawn_app(&db.url).await;
    let players = server.register_many(7, "Entrant").await;
    let created = create(&server, diplomacy_input(1)).await;
    let id = created["data"]["createTournament"]["id"].as_str().unwrap().to_owned();
    for player in &players {
        assert!(enter(&server, &player.token, &id, None).await["errors"].is_null());
        check_in(&server, player, &id, 1, false).await;
    }
    seed(&server, &id, 1).await;
    report_round(&server, &players, &id, 1).await;
    // A correction (the same result) whose reason the export carries.
    let state = crate::api::tournament::tournament(&server, &id, None, Value::Null).await;
    let board = &state["rounds"][0]["boards"][0];
    let seats = crate::api::tournament::seat_ids(board);
    let corrected = server
        .gql(
            Some(ADMIN),
            "mutation($t: ID!, $b: ID!, $r: GameResultInput!, $why: String!) {
               correctBoardResult(tournamentId: $t, boardId: $b, result: $r, reason: $why) { corrections }
             }",
            json!({ "t": id, "b": board["id"], "r": crate::api::tournament::diplomacy_result(&seats),
                    "why": "=recount at table 1" }),
        )
        .await;
    assert_eq!(corrected["data"]["correctBoardResult"]["corrections"], 1, "{corrected}");

    let response = get(&server, &format!("/export/tournaments/{id}.csv"), None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-type"), "text/csv; charset=utf-8");
    assert_eq!(
        header(&response, "content-disposition"),
        "attachment; filename=\"autumn-cup-results.csv\""
    );
    let (columns, rows) = csv_table(&response.text().await.unwrap());
    assert_eq!(
        columns,
        [
            "round",
            "board",
            "power",
            "player",
            "playerId",
            "centres",
            "rank",
            "score",
            "corrections"
        ]
    );
    // The corrected board's reason, as text (not a formula), on each of its rows.
    assert!(rows.iter().all(|r| r[8] == "'=recount at table 1"), "{rows:?}");
    assert_eq!(rows.len(), 7);
    let powers: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(powers, league_domain::DIPLOMACY_POWERS);
    assert!(rows.iter().all(|r| r[0] == "1" && r[1] == "1"));
    let centres: Vec<&str> = rows.iter().map(|r| r[5].as_str()).collect();
    assert_eq!(centres, ["10", "8", "6", "4", "3", "2", "1"]);
    assert_eq!(rows[0][6], "1", "the most centres rank first");

    let standings =
        get(&server, &format!("/export/tournaments/{id}.csv?table=standings"), None).await;
    let (columns, rows) = csv_table(&standings.text().await.unwrap());
    assert_eq!(
        columns,
        [
            "rank",
            "player",
            "playerId",
            "total",
            "games",
            "wins",
            "draws",
            "separatedBy",
            "awards",
            "pools",
            "rulings"
        ]
    );
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0][0], "1");

    // JSON over HTTP is GraphQL's export, byte for byte.
    let json_answer = get(&server, &format!("/export/tournaments/{id}.json"), None).await;
    assert_eq!(header(&json_answer, "content-type"), "application/json");
    let text = json_answer.text().await.unwrap();
    let data = server
        .data(
            None,
            "query($id: ID!) { tournament(id: $id) { export(format: JSON) } }",
            json!({ "id": id }),
        )
        .await;
    assert_eq!(data["tournament"]["export"], text.as_str());
    let export: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(export["competition"]["kind"], "tournament");
    assert_eq!(export["competition"]["status"], "COMPLETED");
    assert_eq!(export["results"].as_array().unwrap().len(), 7);
    assert_eq!(export["results"][0]["centres"], 10);
    assert_eq!(export["results"][0]["corrections"], json!(["=recount at table 1"]));
    assert_eq!(export["standings"].as_array().unwrap().len(), 7);

    // The board is in each seated player's calendar.
    let path = rotate(&server, &players[0].token, None).await;
    let events = calendar_events(&server, &path).await;
    assert_eq!(events.len(), 1);
    let summary = events[0].get_summary().unwrap();
    assert!(summary.starts_with("Autumn Cup: round 1, board 1 ("), "{summary}");
    assert!(events[0].get_uid().unwrap().starts_with("board-"));

    // Bad requests change nothing and say so.
    let missing = uuid::Uuid::now_v7();
    for path in [
        format!("/export/tournaments/{missing}.csv"),
        format!("/export/leagues/{id}.csv"),
        format!("/export/tournaments/{id}.xml"),
        "/export/tournaments/not-an-id.csv".to_owned(),
    ] {
        assert_eq!(get(&server, &path, None).await.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let bad_table = get(&server, &format!("/export/tournaments/{id}.csv?table=games"), None).await;
    assert_eq!(bad_table.status(), StatusCode::BAD_REQUEST);
}

async fn a_league_exports_its_games_as_csv(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(4, "Player").await;
    let league = league_of_four(&server, &players).await;
    let game = server.game_infos(&league).await.remove(0);
    let seated = players.iter().find(|p| p.id == game.seats[0]).unwrap();
    server.report(&seated.token, &game.id, &placement_result(&game.seats)).await;
    let response = get(&server, &format!("/export/leagues/{league}.csv"), None).await;
    assert_eq!(
        header(&response, "content-disposition"),
        "attachment; filename=\"autumn-league-results.csv\""
    );
    let (columns, rows) = csv_table(&response.text().await.unwrap());
    assert_eq!(columns, ["game", "seat", "player", "playerId", "points", "rank", "score"]);
    assert_eq!(rows.len(), 2, "the one finished game's two seats");
    let data = server
        .data(
            None,
            "query($id: ID!) { league(id: $id) { export(format: CSV, table: STANDINGS) } }",
            json!({ "id": league }),
        )
        .await;
    let (columns, rows) = csv_table(data["league"]["export"].as_str().unwrap());
    assert_eq!(columns[0], "rank");
    assert_eq!(rows.len(), 4, "every subscribed player");
}

/// The calendar's name is TEXT, escaped as RFC 5545 says, in `NAME` as in `X-WR-CALNAME`.
async fn the_calendar_name_is_escaped(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let ann = server.register("Ann O'Neil, Jr.; \\o/").await;
    let path = rotate(&server, &ann.token, None).await;
    let text = get(&server, &path, None).await.text().await.unwrap();
    let escaped = r"League: Ann O'Neil\, Jr.\; \\o/";
    assert!(text.contains(&format!("\r\nNAME:{escaped}\r\n")), "{text}");
    assert!(text.contains(&format!("\r\nX-WR-CALNAME:{escaped}\r\n")), "{text}");
}

/// A side and names a seated reporter typed that a spreadsheet would read as formulas are
/// exported as text (a leading `'`), over HTTP and GraphQL; a negative score stays a number;
/// JSON keeps the text as typed.
async fn csv_exports_keep_formulas_out_of_spreadsheets(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let names = ["@SUM(1+1)", "+Ann", "-Bob", "Cy"];
    let mut players = Vec::new();
    for name in names {
        players.push(server.register(name).await);
    }
    let league = server
        .create_league_with(json!({
            "name": "Blue Cup", "game": "Blue Max", "scoringSystem": "BLUE_MAX",
            "playersPerGame": 4, "size": 4, "gamesPerSeat": 1,
        }))
        .await;
    let league = league["id"].as_str().unwrap().to_owned();
    server.fill(&league, &players).await;
    let game = server.game_infos(&league).await.remove(0);
    let seats = &game.seats;
    let hyperlink = r#"=HYPERLINK("http://x","y")"#;
    let result = json!({"teams": {"draw": false, "sides": [
        {"name": hyperlink, "players": [
            {"playerId": seats[0], "points": 60, "kills": 1},
            {"playerId": seats[1], "points": 30, "kills": 1}]},
        {"name": "D", "players": [
            {"playerId": seats[2], "points": 10, "lost": 1},
            {"playerId": seats[3], "points": 11, "lost": 1}]},
    ]}});
    let reporter = players.iter().find(|p| p.id == seats[3]).unwrap();
    let reported = server.report(&reporter.token, &game.id, &result).await;
    assert_eq!(reported["status"], "FINISHED", "{reported}");

    let response = get(&server, &format!("/export/leagues/{league}.csv"), None).await;
    let text = response.text().await.unwrap();
    let (columns, rows) = csv_table(&text);
    assert_eq!(columns, ["game", "seat", "side", "player", "playerId", "points", "rank", "score"]);
    let name_of = |id: &str| names[players.iter().position(|p| p.id == id).unwrap()];
    for (seat, row) in seats.iter().zip(&rows) {
        let side = if row[2] == "D" { "D".to_owned() } else { format!("'{hyperlink}") };
        assert_eq!(row[2], side, "{text}");
        let name = name_of(seat);
        let shown = if name == "Cy" { name.to_owned() } else { format!("'{name}") };
        assert_eq!(row[3], shown, "{text}");
        assert!(row[7].parse::<f64>().is_ok(), "the score {:?} is a number", row[7]);
    }
    assert!(rows.iter().any(|row| row[7].starts_with('-')), "a negative score: {text}");
    let data = server
        .data(
            None,
            "query($id: ID!) { league(id: $id) { export(format: CSV, table: STANDINGS) } }",
            json!({ "id": league }),
        )
        .await;
    let (_, standings) = csv_table(data["league"]["export"].as_str().unwrap());
    let mut shown: Vec<&str> = standings.iter().map(|row| row[1].as_str()).collect();
    shown.sort_unstable();
    assert_eq!(shown, ["'+Ann", "'-Bob", "'@SUM(1+1)", "Cy"]);

    let json_answer = get(&server, &format!("/export/leagues/{league}.json"), None).await;
    let export: Value = json_answer.json().await.unwrap();
    let sides: Vec<&str> =
        export["results"].as_array().unwrap().iter().filter_map(|r| r["side"].as_str()).collect();
    assert!(sides.contains(&hyperlink), "{export}");
}

/// Every answer — pages, GraphiQL, API answers, downloads, the calendar, health, errors —
/// tells browsers not to guess its type and to send no `Referer` from it; a bad export
/// request is answered without echoing the request's text.
async fn every_answer_says_nosniff_and_no_referrer(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(4, "Player").await;
    let league = league_of_four(&server, &players).await;
    let feed = rotate(&server, &players[0].token, None).await;
    let missing = uuid::Uuid::now_v7();
    let echoed = "<script>alert(1)</script>";
    let bad_table = format!("/export/leagues/{league}.csv?table={echoed}");
    let cases = [
        ("/", StatusCode::OK),
        ("/leagues/x", StatusCode::OK),
        ("/js/main.js", StatusCode::OK),
        ("/graphql", StatusCode::TEMPORARY_REDIRECT),
        ("/graphql?query=%7B__typename%7D", StatusCode::OK),
        ("/healthz", StatusCode::OK),
        ("/metrics", StatusCode::OK),
        (feed.as_str(), StatusCode::OK),
        ("/calendar/abc.ics", StatusCode::NOT_FOUND),
        (&format!("/export/leagues/{league}.csv"), StatusCode::OK),
        (&format!("/export/leagues/{league}.json"), StatusCode::OK),
        (&format!("/export/leagues/{missing}.json"), StatusCode::NOT_FOUND),
        (&format!("/embed/leagues/{league}"), StatusCode::OK),
        (&bad_table, StatusCode::BAD_REQUEST),
        (&format!("/export/leagues/{league}.csv?table=a&table=b"), StatusCode::BAD_REQUEST),
    ];
    for (path, status) in cases {
        let response = get(&server, path, None).await;
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(header(&response, "x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header(&response, "referrer-policy"), "no-referrer", "{path}");
    }
    let post = server.graphql_response(None, "{ __typename }", json!({})).await.unwrap();
    assert_eq!(header(&post, "x-content-type-options"), "nosniff");
    assert_eq!(header(&post, "referrer-policy"), "no-referrer");

    let bad = get(&server, &bad_table, None).await.text().await.unwrap();
    assert_eq!(bad, "table: must be results, standings or teams");
    let encoded = format!("/export/leagues/{league}.csv?table=%3Cscript%3E");
    let bad = get(&server, &encoded, None).await.text().await.unwrap();
    assert_eq!(bad, "table: must be results, standings or teams");
}

async fn only_embed_pages_may_be_framed(db: TestDatabase) {
    let server = spawn_app(&db.url).await;
    let players = server.register_many(4, "Player").await;
    let league = league_of_four(&server, &players).await;
    for path in ["/", "/leagues/x", "/js/main.js", "/graphiql"] {
        let response = get(&server, path, None).await;
        assert_eq!(header(&response, "x-frame-options"), "DENY", "{path}");
        assert_eq!(header(&response, "content-security-policy"), "frame-ancestors 'none'");
    }
    let embed = get(&server, &format!("/embed/leagues/{league}"), None).await;
    assert_eq!(embed.status(), StatusCode::OK);
    assert!(header(&embed, "content-type").starts_with("text/html"));
    assert_eq!(header(&embed, "content-security-policy"), "frame-ancestors *");
    assert_eq!(header(&embed, "x-frame-options"), "");
    assert!(embed.text().await.unwrap().contains("/js/embed.js"));
    let missing = uuid::Uuid::now_v7();
    for path in [format!("/embed/leagues/{missing}"), format!("/embed/tournaments/{league}")] {
        assert_eq!(get(&server, &path, None).await.status(), StatusCode::NOT_FOUND, "{path}");
    }

    // Configured sites only, from the configuration and from `league serve`'s setting.
    let club = spawn_app_with(&db.url, |config| {
        config.frame_ancestors = vec!["https://club.example".to_owned()];
    })
    .await;
    let embed = get(&club, &format!("/embed/leagues/{league}"), None).await;
    assert_eq!(header(&embed, "content-security-policy"), "frame-ancestors https://club.example");
    let env =
        [("LEAGUE_ADMIN_TOKEN", ADMIN), ("LEAGUE_FRAME_ANCESTORS", "https://a.example, 'self'")];
    let binary = start_league_serve_with(&db.url, &env).await;
    let embed = get(&binary, &format!("/embed/leagues/{league}"), None).await;
    assert_eq!(
        header(&embed, "content-security-policy"),
        "frame-ancestors https://a.example 'self'"
    );
}

on_both_databases!(
    a_players_calendar_feed_follows_their_games,
    a_diplomacy_tournament_exports_the_rating_database_columns,
    a_league_exports_its_games_as_csv,
    the_calendar_name_is_escaped,
    csv_exports_keep_formulas_out_of_spreadsheets,
    every_answer_says_nosniff_and_no_referrer,
    only_embed_pages_may_be_framed,
);
