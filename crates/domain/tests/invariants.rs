//! Property test: random command sequences never break the league invariants — a league
//! is never full without games (docs/scheduling.md#league-life-cycle: the 8th subscription creates
//! every game), games are scheduled at most once, the league completes once and only when every
//! game has a result, and the state's version always equals the number of events folded.

use chrono::{TimeZone, Utc};
use league_domain::fixtures;
use league_domain::*;
use league_scoring::{GameResult, PlacementEntry, ScoringSystem};
use proptest::prelude::*;
use uuid::Uuid;

const LEAGUE: LeagueId = LeagueId::new(Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0000_00bb));
/// Players 0..7 are registered; player 7 is not (its subscription must be refused).
const UNREGISTERED: u8 = 7;

fn player(n: u8) -> PlayerId {
    fixtures::player(u128::from(n))
}

#[derive(Debug, Clone)]
enum Who {
    Admin,
    Player(u8),
}

impl Who {
    fn actor(&self) -> Actor {
        match self {
            Who::Admin => Actor::Admin,
            Who::Player(n) => Actor::Player(player(*n)),
        }
    }
}

#[derive(Debug, Clone)]
enum Step {
    Create { k: u32, size: u32 },
    Subscribe { who: Who, player: u8 },
    Unsubscribe { who: Who, player: u8 },
    Report { who: Who, game: u8, points: Vec<u8>, outsider: bool },
    Correct { who: Who, game: u8, points: Vec<u8>, reason: &'static str },
}

fn who() -> impl Strategy<Value = Who> {
    prop_oneof![Just(Who::Admin), (0u8..8).prop_map(Who::Player)]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => (2u32..=4, 1u32..=6).prop_map(|(k, size)| Step::Create { k, size }),
        6 => (who(), 0u8..8).prop_map(|(who, player)| Step::Subscribe { who, player }),
        2 => (who(), 0u8..8).prop_map(|(who, player)| Step::Unsubscribe { who, player }),
        6 => (who(), any::<u8>(), prop::collection::vec(0u8..5, 4), prop::bool::weighted(0.1))
            .prop_map(|(who, game, points, outsider)| Step::Report { who, game, points, outsider }),
        2 => (
            who(),
            any::<u8>(),
            prop::collection::vec(0u8..5, 4),
            prop::sample::select(vec!["typo", " "]),
        )
            .prop_map(|(who, game, points, reason)| Step::Correct { who, game, points, reason }),
    ]
}

fn result_for(seats: &[PlayerId], points: &[u8], outsider: bool) -> GameResult {
    let mut entries: Vec<_> = seats
        .iter()
        .zip(points.iter().cycle())
        .map(|(p, &points)| PlacementEntry { player: p.to_string(), points: f64::from(points) })
        .collect();
    if outsider {
        entries[0].player = player(UNREGISTERED).to_string();
    }
    GameResult::Placement(entries)
}

fn command_for(league: &League, step: &Step) -> LeagueCommand {
    let game = |number: u8| -> (GameId, Vec<PlayerId>) {
        match league.games() {
            [] => (game_id(LEAGUE, u32::from(number) + 1), vec![player(0), player(1)]),
            games => {
                let g = &games[usize::from(number) % games.len()];
                (g.id, g.seats.clone())
            }
        }
    };
    match step {
        Step::Create { k, size } => CreateLeague {
            actor: Actor::Admin,
            league_id: LEAGUE,
            settings: LeagueSettings {
                size: *size,
                games_per_seat: 1,
                ..LeagueSettings::new("Random", "Cartagena", ScoringSystem::Placement, *k)
            },
        }
        .into(),
        Step::Subscribe { who, player: n } => {
            Subscribe { actor: who.actor(), league_id: LEAGUE, player_id: player(*n) }.into()
        }
        Step::Unsubscribe { who, player: n } => {
            Unsubscribe { actor: who.actor(), league_id: LEAGUE, player_id: player(*n) }.into()
        }
        Step::Report { who, game: number, points, outsider } => {
            let (game_id, seats) = game(*number);
            ReportResult {
                actor: who.actor(),
                league_id: LEAGUE,
                game_id,
                result: result_for(&seats, points, *outsider),
            }
            .into()
        }
        Step::Correct { who, game: number, points, reason } => {
            let (game_id, seats) = game(*number);
            CorrectResult {
                actor: who.actor(),
                league_id: LEAGUE,
                game_id,
                result: result_for(&seats, points, false),
                reason: (*reason).into(),
            }
            .into()
        }
    }
}

fn context_for(command: &LeagueCommand) -> Context {
    let context = Context::new(Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap());
    match command.subscriber() {
        Some(p) if p != player(UNREGISTERED) => context.with_subscriber(0),
        _ => context,
    }
}

fn check_invariants(league: &League, log: &[DomainEvent]) -> Result<(), TestCaseError> {
    prop_assert_eq!(league.version(), log.len() as u64);
    let count = |t: &str| log.iter().filter(|e| e.event_type() == t).count();
    prop_assert!(count("LeagueCreated") <= 1);
    prop_assert!(count("GamesScheduled") <= 1, "games scheduled twice");
    prop_assert!(count("LeagueCompleted") <= 1, "completed twice");
    let Some(settings) = league.settings() else {
        prop_assert!(log.is_empty());
        return Ok(());
    };
    prop_assert!(league.players().len() <= settings.size as usize);
    prop_assert_eq!(league.is_full(), !league.games().is_empty(), "full iff games exist");
    let all_finished = league.games().iter().all(|g| g.status() == GameStatus::Finished);
    let completed = league.status() == Some(LeagueStatus::Completed);
    prop_assert_eq!(completed, !league.games().is_empty() && all_finished);
    for game in league.games() {
        prop_assert_eq!(game.seats.len(), settings.players_per_game as usize);
        prop_assert!(game.seats.iter().all(|p| league.players().contains(p)));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_command_sequences_keep_the_league_invariants(
        first_k in 2u32..=4,
        first_size in 2u32..=6,
        steps in prop::collection::vec(step(), 0..80),
    ) {
        let mut league = League::default();
        let mut log = Vec::new();
        let create = Step::Create { k: first_k, size: first_size.max(first_k) };
        for step in std::iter::once(&create).chain(&steps) {
            let command = command_for(&league, step);
            match league.decide(&command, &context_for(&command)) {
                Ok(events) => {
                    prop_assert!(!events.is_empty(), "an accepted command records something");
                    for event in &events {
                        prop_assert_eq!(event.stream_id(), league_stream_id(LEAGUE));
                        league.apply_event(event);
                        log.push(event.clone());
                    }
                }
                Err(error) => prop_assert_ne!(error.code(), ErrorCode::Internal, "{}", error),
            }
            check_invariants(&league, &log)?;
        }
        // Replaying the stored form rebuilds exactly the same state.
        let stored: Vec<_> = log
            .iter()
            .map(|e| (e.event_type(), i64::from(e.schema_version()), e.payload().to_string()))
            .collect();
        let replayed: Vec<_> = stored
            .iter()
            .map(|(kind, version, text)| DomainEvent::decode(kind, *version, text.as_str()).unwrap())
            .collect();
        prop_assert_eq!(League::from_events(&replayed), league);
    }
}
