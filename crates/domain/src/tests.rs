//! Given events / when command / then events or error, for every rule of the domain.

use chrono::{TimeZone, Utc};
use league_scoring::{
    Aggregation, DiplomacyEntry, GameResult, PlacementEntry, ScoringSystem, Side, TeamPlayer,
    TeamResult,
};
use uuid::Uuid;

use crate::fixtures::{LEAGUE, created, numbered_placement as placement, player};
use crate::*;

fn context() -> Context {
    Context::new(Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()).with_subscriber(0)
}

fn given<A: Aggregate>(events: &[DomainEvent]) -> A {
    A::from_events(events)
}

fn subscribed(n: u128) -> DomainEvent {
    DomainEvent::League(LeagueEvent::PlayerSubscribed(PlayerSubscribed {
        league_id: LEAGUE,
        player_id: player(n),
    }))
}

/// The settings of [`create_command`] before its overrides: every default.
fn default_settings(system: ScoringSystem, k: u32) -> LeagueSettings {
    LeagueSettings::new("  Autumn  ", "Cartagena", system, k)
}

fn create_command(system: ScoringSystem, k: u32) -> CreateLeague {
    CreateLeague {
        actor: Actor::Admin,
        league_id: LEAGUE,
        settings: LeagueSettings {
            game_version: Some("2nd edition".into()),
            games_per_seat: 1,
            ..default_settings(system, k)
        },
    }
}

fn subscribe(actor: Actor, n: u128) -> LeagueCommand {
    Subscribe { actor, league_id: LEAGUE, player_id: player(n) }.into()
}

fn unsubscribe(actor: Actor, n: u128) -> LeagueCommand {
    Unsubscribe { actor, league_id: LEAGUE, player_id: player(n) }.into()
}

/// A placement league of 4 players, k = 2, with a hand-made schedule of three games
/// (1: p1 v p2, 2: p3 v p4, 3: p1 v p3), so result rules do not depend on the scheduler.
fn running_placement_league() -> Vec<DomainEvent> {
    let mut events = vec![created(ScoringSystem::Placement, 2, 4, 1)];
    events.extend((1..=4).map(subscribed));
    events.push(DomainEvent::League(LeagueEvent::GamesScheduled(GamesScheduled {
        league_id: LEAGUE,
        games: [(1, [1, 2]), (2, [3, 4]), (3, [1, 3])]
            .into_iter()
            .map(|(number, seats)| ScheduledGame {
                game_id: game_id(LEAGUE, number),
                number,
                seats: seats.map(player).to_vec(),
            })
            .collect(),
    })));
    events
}

/// A `system` league of `n` players, `n` per game, every one subscribed, with one game
/// seating players 1..=n in order (a hand-made schedule, independent of the scheduler).
fn one_game_league(system: ScoringSystem, n: u32) -> Vec<DomainEvent> {
    let mut events = vec![created(system, n, n, 1)];
    events.extend((1..=u128::from(n)).map(subscribed));
    events.push(DomainEvent::League(LeagueEvent::GamesScheduled(GamesScheduled {
        league_id: LEAGUE,
        games: vec![ScheduledGame {
            game_id: game_id(LEAGUE, 1),
            number: 1,
            seats: (1..=u128::from(n)).map(player).collect(),
        }],
    })));
    events
}

fn report(actor: Actor, number: u32, result: GameResult) -> LeagueCommand {
    ReportResult { actor, league_id: LEAGUE, game_id: game_id(LEAGUE, number), result }.into()
}

fn correct(actor: Actor, number: u32, result: GameResult, reason: &str) -> LeagueCommand {
    CorrectResult {
        actor,
        league_id: LEAGUE,
        game_id: game_id(LEAGUE, number),
        result,
        reason: reason.into(),
    }
    .into()
}

fn finished(number: u32, result: GameResult) -> DomainEvent {
    DomainEvent::League(LeagueEvent::GameFinished(GameFinished {
        league_id: LEAGUE,
        game_id: game_id(LEAGUE, number),
        result,
        reported_by: Actor::Admin,
    }))
}

fn handle_league(
    events: &[DomainEvent],
    command: LeagueCommand,
) -> Result<Vec<DomainEvent>, DomainError> {
    given::<League>(events).decide(&command, &context())
}

fn assert_bad_input(result: Result<Vec<DomainEvent>, DomainError>, field: &str) {
    let error = result.expect_err("command must be refused");
    assert_eq!(error.code(), ErrorCode::BadUserInput { field: field.into() }, "{error}");
}

fn assert_code(result: Result<Vec<DomainEvent>, DomainError>, code: ErrorCode) -> DomainError {
    let error = result.expect_err("command must be refused");
    assert_eq!(error.code(), code, "{error}");
    error
}

mod players {
    use super::*;

    fn register(actor: Actor, name: &str) -> PlayerCommand {
        RegisterPlayer { actor, player_id: player(1), name: name.into(), token_hash: "ab12".into() }
            .into()
    }

    #[test]
    fn the_admin_and_an_appointed_organiser_register_a_player_with_a_trimmed_name() {
        // The catalog tells the domain who is an appointed organiser.
        let organiser = context().with_actor_organiser(true);
        for (actor, context) in [(Actor::Admin, context()), (Actor::Player(player(2)), organiser)] {
            let events = given::<Player>(&[]).decide(&register(actor, " Ada "), &context);
            assert_eq!(
                events.unwrap(),
                [DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
                    player_id: player(1),
                    name: PersonalText::Plain("Ada".into()),
                    token_hash: "ab12".into(),
                }))]
            );
        }
    }

    #[test]
    fn a_player_who_is_no_organiser_may_not_register_players() {
        let result =
            given::<Player>(&[]).decide(&register(Actor::Player(player(2)), "Ada"), &context());
        let error = result.unwrap_err();
        assert_eq!(error.code(), ErrorCode::Forbidden);
        assert!(error.to_string().contains("appointed organiser"), "{error}");
    }

    fn sign_up(policy: SignUpPolicy, invite_hash: Option<&str>) -> PlayerCommand {
        SignUpPlayer {
            actor: Actor::Player(player(1)),
            player_id: player(1),
            name: " Newt ".into(),
            token_hash: "ab12".into(),
            policy,
            invite_hash: invite_hash.map(str::to_owned),
        }
        .into()
    }

    #[test]
    fn a_person_signs_up_on_an_open_site_and_nowhere_else_without_an_invite() {
        // Given an open site, when Newt signs up, then Newt is registered.
        let events = given::<Player>(&[]).decide(&sign_up(SignUpPolicy::Open, None), &context());
        let [DomainEvent::Player(PlayerEvent::PlayerRegistered(registered))] = &events.unwrap()[..]
        else {
            panic!("one registration")
        };
        assert_eq!(registered.name, PersonalText::Plain("Newt".into()));
        // Given a closed site, or an invite-only one without a code: refused.
        for command in [sign_up(SignUpPolicy::Closed, None), sign_up(SignUpPolicy::Invite, None)] {
            let result = given::<Player>(&[]).decide(&command, &context());
            assert_eq!(result.unwrap_err().code(), ErrorCode::Forbidden);
        }
        // Someone else cannot sign Newt up.
        let PlayerCommand::SignUp(mut other) = sign_up(SignUpPolicy::Open, None) else { panic!() };
        other.actor = Actor::Player(player(2));
        let result = given::<Player>(&[]).decide(&other.into(), &context());
        assert_eq!(result.unwrap_err().code(), ErrorCode::Forbidden);
    }

    #[test]
    fn an_invite_signs_people_up_until_it_expires_or_is_revoked() {
        let now = context().now;
        let valid = InviteFacts { expires_at: now + chrono::Duration::hours(1), revoked: false };
        let command = sign_up(SignUpPolicy::Invite, Some("c0de"));
        let with = |invite: Option<InviteFacts>| Context { invite, ..context() };
        assert!(given::<Player>(&[]).decide(&command, &with(Some(valid))).is_ok());
        for (invite, says) in [
            (None, "not known"),
            (Some(InviteFacts { revoked: true, ..valid }), "revoked"),
            (Some(InviteFacts { expires_at: now, ..valid }), "expired"),
        ] {
            let error = given::<Player>(&[]).decide(&command, &with(invite)).unwrap_err();
            assert_eq!(error.code(), ErrorCode::Forbidden);
            assert!(error.to_string().contains(says), "{error}");
        }
    }

    #[test]
    fn an_organiser_issues_and_revokes_invites() {
        let registered =
            given::<Player>(&[]).decide(&register(Actor::Admin, "Olive"), &context()).unwrap();
        let organiser = context().with_actor_organiser(true);
        let invite = Uuid::from_u128(9);
        let issue = |actor, expires_at| -> PlayerCommand {
            IssueInvite {
                actor,
                player_id: player(1),
                invite_id: invite,
                code_hash: "c0de".into(),
                expires_at,
            }
            .into()
        };
        let tomorrow = context().now + chrono::Duration::days(1);
        // A plain player (not appointed) and the site admin issue none; too long an expiry is bad input.
        let me = Actor::Player(player(1));
        let state = given::<Player>(&registered);
        assert_eq!(
            state.decide(&issue(me, tomorrow), &context()).unwrap_err().code(),
            ErrorCode::Forbidden
        );
        assert_eq!(
            state.decide(&issue(Actor::Admin, tomorrow), &organiser).unwrap_err().code(),
            ErrorCode::Forbidden
        );
        let too_long = context().now + chrono::Duration::days(MAX_INVITE_DAYS + 1);
        assert_bad_input(state.decide(&issue(me, too_long), &organiser), "expiresAt");
        let issued = state.decide(&issue(me, tomorrow), &organiser).unwrap();
        let history = [registered.clone(), issued].concat();
        let state = given::<Player>(&history);
        assert_eq!(state.invites()[&invite], InviteFacts { expires_at: tomorrow, revoked: false });
        // Another player may not revoke it; the site admin may, once.
        let revoke = |actor| -> PlayerCommand {
            RevokeInvite { actor, player_id: player(1), invite_id: invite }.into()
        };
        assert_eq!(
            state.decide(&revoke(Actor::Player(player(2))), &context()).unwrap_err().code(),
            ErrorCode::Forbidden
        );
        let revoked = state.decide(&revoke(Actor::Admin), &context()).unwrap();
        let state = given::<Player>(&[history, revoked].concat());
        assert!(state.invites()[&invite].revoked);
        assert_code(state.decide(&revoke(me), &context()), ErrorCode::Conflict);
    }

    #[test]
    fn registering_twice_is_a_conflict() {
        let first =
            given::<Player>(&[]).decide(&register(Actor::Admin, "Ada"), &context()).unwrap();
        let state = given::<Player>(&first);
        assert_eq!((state.name(), state.version()), (Some(&PersonalText::Plain("Ada".into())), 1));
        let again = state.decide(&register(Actor::Admin, "Ada"), &context());
        assert_eq!(again.unwrap_err(), DomainError::PlayerAlreadyRegistered(player(1)));
    }

    #[test]
    fn names_must_be_non_empty_and_at_most_200_characters() {
        for bad in ["", "   ", &"x".repeat(201)] {
            let result = given::<Player>(&[]).decide(&register(Actor::Admin, bad), &context());
            assert_eq!(
                result.unwrap_err().code(),
                ErrorCode::BadUserInput { field: "name".into() }
            );
        }
        let longest = "é".repeat(200);
        assert!(given::<Player>(&[]).decide(&register(Actor::Admin, &longest), &context()).is_ok());
    }
}

mod creation {
    use super::*;

    #[test]
    fn admin_creates_a_league_with_seed_002_defaults() {
        // docs/scheduling.md#league-life-cycle: "games played among 8 players"; eligibility is off
        // by default.
        let events =
            handle_league(&[], create_command(ScoringSystem::Placement, 4).into()).unwrap();
        let [DomainEvent::League(LeagueEvent::LeagueCreated(created))] = events.as_slice() else {
            panic!("expected one LeagueCreated, got {events:?}")
        };
        assert_eq!(created.settings.name, "Autumn");
        assert_eq!(created.settings.game_version.as_deref(), Some("2nd edition"));
        assert_eq!((created.settings.size, created.settings.games_per_seat), (8, 1));
        assert!(!created.settings.require_active_players);
        let league = given::<League>(&events);
        assert_eq!(league.status(), Some(LeagueStatus::Open));
        assert_eq!(league.stream_id(), Some(format!("league-{LEAGUE}")));
    }

    #[test]
    fn games_per_seat_defaults_to_seed_002_table() {
        // docs/scheduling.md#games-per-league: 4 players per game → 16 games per player, 32
        // in total (s = 4).
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.settings.games_per_seat =
            default_settings(ScoringSystem::Placement, 4).games_per_seat;
        let events = handle_league(&[], command.into()).unwrap();
        let DomainEvent::League(LeagueEvent::LeagueCreated(created)) = &events[0] else { panic!() };
        assert_eq!(created.settings.games_per_seat, 4);
        assert_eq!(created.settings.players_per_game * created.settings.games_per_seat, 16);
        assert_eq!(created.settings.size * created.settings.games_per_seat, 32);
    }

    #[test]
    fn only_an_admin_creates_leagues() {
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.actor = Actor::Player(player(1));
        assert_code(handle_league(&[], command.into()), ErrorCode::Forbidden);
    }

    #[test]
    fn creating_an_existing_league_is_a_conflict() {
        let existing = [created(ScoringSystem::Placement, 4, 8, 4)];
        let error = assert_code(
            handle_league(&existing, create_command(ScoringSystem::Placement, 4).into()),
            ErrorCode::Conflict,
        );
        assert_eq!(error, DomainError::LeagueAlreadyExists(LEAGUE));
    }

    #[test]
    fn diplomacy_systems_need_seven_players_per_game() {
        for system in [ScoringSystem::Baf, ScoringSystem::Detour98f, ScoringSystem::Squares] {
            for k in [2, 6, 8] {
                assert_bad_input(
                    handle_league(&[], create_command(system, k).into()),
                    "playersPerGame",
                );
            }
            assert!(handle_league(&[], create_command(system, 7).into()).is_ok());
        }
    }

    #[test]
    fn placement_takes_two_to_eight_players_per_game() {
        for k in [0, 1, 9] {
            let mut command = create_command(ScoringSystem::Placement, k);
            command.settings.size = 10;
            assert_bad_input(handle_league(&[], command.into()), "playersPerGame");
        }
        for k in 2..=8 {
            assert!(handle_league(&[], create_command(ScoringSystem::Placement, k).into()).is_ok());
        }
    }

    #[test]
    fn team_systems_need_at_least_two_players_per_game() {
        for system in
            [ScoringSystem::BlueMax, ScoringSystem::WoodenShips, ScoringSystem::WoodenShipsLegacy]
        {
            assert_bad_input(
                handle_league(&[], create_command(system, 1).into()),
                "playersPerGame",
            );
            let mut large = create_command(system, 10);
            large.settings.size = 12;
            assert!(handle_league(&[], large.into()).is_ok());
        }
    }

    /// Every system of the catalogue, not just the ones above: the league rules accept
    /// exactly the players per game the catalogue says the system scores, and name the
    /// catalogue's range when refusing.
    #[test]
    fn every_system_takes_the_players_per_game_of_the_catalogue() {
        for system in ScoringSystem::ALL.iter().copied() {
            let players = system.players_per_game();
            for k in 0..=10 {
                // When the rule checks k players per game
                let checked = rules::check_players_per_game(system, k);
                // Then it agrees with the catalogue
                assert_eq!(checked.is_ok(), players.contains(k), "{system} with {k}");
                if let Err(error) = checked {
                    assert_eq!(
                        error.code(),
                        ErrorCode::BadUserInput { field: "playersPerGame".into() }
                    );
                    assert_eq!(
                        error.to_string(),
                        format!(
                            "playersPerGame: {system} needs {players} players per game, got {k}"
                        )
                    );
                }
            }
        }
    }

    #[test]
    fn size_is_between_players_per_game_and_64() {
        for size in [3, 65] {
            let mut command = create_command(ScoringSystem::Placement, 4);
            command.settings.size = size;
            assert_bad_input(handle_league(&[], command.into()), "size");
        }
        for size in [4, 64] {
            let mut command = create_command(ScoringSystem::Placement, 4);
            command.settings.size = size;
            assert!(handle_league(&[], command.into()).is_ok());
        }
    }

    #[test]
    fn games_per_seat_is_between_1_and_20() {
        for s in [0, 21] {
            let mut command = create_command(ScoringSystem::Placement, 4);
            command.settings.games_per_seat = s;
            assert_bad_input(handle_league(&[], command.into()), "gamesPerSeat");
        }
    }

    #[test]
    fn texts_are_validated_with_their_field() {
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.settings.name = " ".into();
        assert_bad_input(handle_league(&[], command.into()), "name");
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.settings.game = "g".repeat(201);
        assert_bad_input(handle_league(&[], command.into()), "game");
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.settings.game_version = Some("".into());
        assert_bad_input(handle_league(&[], command.into()), "gameVersion");
    }
}

mod subscriptions {
    use super::*;

    fn open_league() -> Vec<DomainEvent> {
        vec![created(ScoringSystem::Placement, 4, 8, 4)]
    }

    #[test]
    fn a_player_subscribes_themself() {
        let events = handle_league(&open_league(), subscribe(Actor::Player(player(1)), 1));
        assert_eq!(events.unwrap(), [subscribed(1)]);
    }

    #[test]
    fn admin_subscribes_anyone_but_a_player_only_themself() {
        assert!(handle_league(&open_league(), subscribe(Actor::Admin, 1)).is_ok());
        assert_code(
            handle_league(&open_league(), subscribe(Actor::Player(player(2)), 1)),
            ErrorCode::Forbidden,
        );
    }

    #[test]
    fn subscribing_to_an_unknown_league_is_not_found() {
        let error =
            assert_code(handle_league(&[], subscribe(Actor::Admin, 1)), ErrorCode::NotFound);
        assert_eq!(error, DomainError::LeagueNotFound(LEAGUE));
    }

    #[test]
    fn an_unknown_player_cannot_subscribe() {
        let league = given::<League>(&open_league());
        let no_such_player = Context::new(context().now);
        let error = league.decide(&subscribe(Actor::Admin, 1), &no_such_player).unwrap_err();
        assert_eq!(
            (error.code(), error),
            (ErrorCode::NotFound, DomainError::PlayerNotFound(player(1)))
        );
    }

    #[test]
    fn subscribing_twice_is_a_conflict() {
        let mut events = open_league();
        events.push(subscribed(1));
        let error =
            assert_code(handle_league(&events, subscribe(Actor::Admin, 1)), ErrorCode::Conflict);
        assert_eq!(error, DomainError::AlreadySubscribed(player(1)));
    }

    #[test]
    fn subscriptions_before_the_last_place_schedule_nothing() {
        let mut events = open_league();
        for n in 1..=7 {
            let new = handle_league(&events, subscribe(Actor::Admin, n)).unwrap();
            assert_eq!(new, [subscribed(n)]);
            events.extend(new);
        }
        let league = given::<League>(&events);
        assert_eq!(
            (league.status(), league.players().len(), league.is_full()),
            (Some(LeagueStatus::Open), 7, false)
        );
    }

    /// docs/scheduling.md#league-life-cycle: "When the 8th player subscribe to the league, the
    /// system automatically creates all the games that are part of the league" — 32 games for 4 per
    /// game.
    #[test]
    fn the_eighth_subscription_schedules_every_game_in_the_same_append() {
        let mut events = open_league();
        events.extend((1..=7).map(subscribed));
        let new = handle_league(&events, subscribe(Actor::Player(player(8)), 8)).unwrap();
        let [first, DomainEvent::League(LeagueEvent::GamesScheduled(scheduled))] = new.as_slice()
        else {
            panic!("expected [PlayerSubscribed, GamesScheduled], got {new:?}")
        };
        assert_eq!(first, &subscribed(8));
        assert_eq!(scheduled.games.len(), 32, "4 per game → 32 games");
        for (index, game) in scheduled.games.iter().enumerate() {
            assert_eq!(game.number as usize, index + 1);
            assert_eq!(game.game_id, game_id(LEAGUE, game.number));
            assert_eq!(game.seats.len(), 4);
            assert!(game.seats.iter().all(|p| (1..=8).map(player).any(|q| q == *p)));
        }
        for n in 1..=8 {
            let played = scheduled.games.iter().filter(|g| g.seats.contains(&player(n))).count();
            assert_eq!(played, 16, "16 games per player");
        }
        events.extend(new);
        let league = given::<League>(&events);
        assert_eq!(league.status(), Some(LeagueStatus::Running));
        assert!(league.is_full());
    }

    #[test]
    fn the_schedule_is_the_same_for_the_same_league_and_players() {
        let mut events = open_league();
        events.extend((1..=7).map(subscribed));
        let once = handle_league(&events, subscribe(Actor::Admin, 8)).unwrap();
        let twice = handle_league(&events, subscribe(Actor::Admin, 8)).unwrap();
        assert_eq!(once, twice);
    }

    #[test]
    fn a_running_league_takes_no_subscriptions() {
        let events = running_placement_league();
        let error =
            assert_code(handle_league(&events, subscribe(Actor::Admin, 9)), ErrorCode::Conflict);
        assert_eq!(error, DomainError::LeagueNotOpen(LeagueStatus::Running));
    }

    /// docs/scheduling.md#league-life-cycle, "active player": at least 5 games terminated in the
    /// last 90 days.
    #[test]
    fn leagues_requiring_active_players_refuse_players_with_fewer_than_five_recent_games() {
        let DomainEvent::League(LeagueEvent::LeagueCreated(mut created)) =
            created(ScoringSystem::Placement, 4, 8, 4)
        else {
            unreachable!()
        };
        created.settings.require_active_players = true;
        let league = given::<League>(&[DomainEvent::League(LeagueEvent::LeagueCreated(created))]);
        let four = Context::new(context().now).with_subscriber(4);
        let error = league.decide(&subscribe(Actor::Admin, 1), &four).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Conflict);
        assert!(matches!(
            error,
            DomainError::PlayerNotActive { finished_games: 4, required: 5, .. }
        ));
        let five = Context::new(context().now).with_subscriber(5);
        assert_eq!(league.decide(&subscribe(Actor::Admin, 1), &five).unwrap(), [subscribed(1)]);
    }

    /// docs/scheduling.md#league-life-cycle, "active player" is off by default: a new platform has
    /// no history.
    #[test]
    fn eligibility_is_off_by_default() {
        let events =
            handle_league(&[], create_command(ScoringSystem::Placement, 4).into()).unwrap();
        let no_history = Context::new(context().now).with_subscriber(0);
        assert!(given::<League>(&events).decide(&subscribe(Actor::Admin, 1), &no_history).is_ok());
    }

    #[test]
    fn the_activity_window_is_90_days() {
        let ctx = context();
        assert_eq!(ctx.now - ctx.activity_window_start(), chrono::Duration::days(90));
        assert!(!rules::is_active_player(4));
        assert!(rules::is_active_player(5));
    }

    #[test]
    fn a_player_unsubscribes_from_an_open_league_and_may_come_back() {
        let mut events = open_league();
        events.push(subscribed(1));
        let left = handle_league(&events, unsubscribe(Actor::Player(player(1)), 1)).unwrap();
        assert_eq!(
            left,
            [DomainEvent::League(LeagueEvent::PlayerUnsubscribed(PlayerUnsubscribed {
                league_id: LEAGUE,
                player_id: player(1)
            }))]
        );
        events.extend(left);
        assert!(given::<League>(&events).players().is_empty());
        assert_eq!(handle_league(&events, subscribe(Actor::Admin, 1)).unwrap(), [subscribed(1)]);
    }

    #[test]
    fn unsubscribing_rules() {
        let mut events = open_league();
        events.push(subscribed(1));
        assert_code(
            handle_league(&events, unsubscribe(Actor::Player(player(2)), 1)),
            ErrorCode::Forbidden,
        );
        assert!(handle_league(&events, unsubscribe(Actor::Admin, 1)).is_ok());
        let error =
            assert_code(handle_league(&events, unsubscribe(Actor::Admin, 2)), ErrorCode::Conflict);
        assert_eq!(error, DomainError::NotSubscribed(player(2)));
        let error = assert_code(
            handle_league(&running_placement_league(), unsubscribe(Actor::Admin, 1)),
            ErrorCode::Conflict,
        );
        assert_eq!(error, DomainError::LeagueNotOpen(LeagueStatus::Running));
        assert_code(handle_league(&[], unsubscribe(Actor::Admin, 1)), ErrorCode::NotFound);
    }
}

mod results {
    use super::*;

    #[test]
    fn a_seated_player_reports_a_result_with_canonical_player_ids() {
        let upper = GameResult::Placement(vec![
            PlacementEntry { player: player(1).to_string().to_uppercase(), points: 10.0 },
            PlacementEntry { player: player(2).to_string(), points: 8.0 },
        ]);
        let events =
            handle_league(&running_placement_league(), report(Actor::Player(player(2)), 1, upper));
        assert_eq!(
            events.unwrap(),
            [DomainEvent::League(LeagueEvent::GameFinished(GameFinished {
                league_id: LEAGUE,
                game_id: game_id(LEAGUE, 1),
                result: placement(&[(1, 10.0), (2, 8.0)]),
                reported_by: Actor::Player(player(2)),
            }))]
        );
    }

    #[test]
    fn only_admin_or_a_seated_player_reports() {
        let events = running_placement_league();
        let result = placement(&[(1, 10.0), (2, 8.0)]);
        assert!(handle_league(&events, report(Actor::Admin, 1, result.clone())).is_ok());
        assert_code(
            handle_league(&events, report(Actor::Player(player(3)), 1, result)),
            ErrorCode::Forbidden,
        );
    }

    #[test]
    fn reporting_an_unknown_game_is_not_found() {
        let events = running_placement_league();
        let error = assert_code(
            handle_league(&events, report(Actor::Admin, 99, placement(&[(1, 1.0), (2, 0.0)]))),
            ErrorCode::NotFound,
        );
        assert_eq!(error, DomainError::GameNotFound(game_id(LEAGUE, 99)));
    }

    #[test]
    fn a_result_names_exactly_the_seated_players() {
        let events = running_placement_league();
        for bad in [
            placement(&[(1, 10.0)]),                     // p2 missing
            placement(&[(1, 10.0), (2, 8.0), (3, 1.0)]), // p3 not seated
            placement(&[(1, 10.0), (3, 8.0)]),           // wrong player
            placement(&[(1, 10.0), (1, 8.0)]),           // duplicate
        ] {
            assert_bad_input(handle_league(&events, report(Actor::Admin, 1, bad)), "result");
        }
        let not_an_id = GameResult::Placement(vec![
            PlacementEntry { player: "ada".into(), points: 1.0 },
            PlacementEntry { player: player(2).to_string(), points: 0.0 },
        ]);
        assert_bad_input(handle_league(&events, report(Actor::Admin, 1, not_an_id)), "result");
    }

    #[test]
    fn a_result_has_the_shape_of_the_league_system() {
        let events = running_placement_league();
        let diplomacy = GameResult::Diplomacy(
            [1, 2].map(|n| DiplomacyEntry::new(player(n).to_string(), 17)).to_vec(),
        );
        assert_bad_input(handle_league(&events, report(Actor::Admin, 1, diplomacy)), "result");
        let teams = GameResult::Teams(TeamResult {
            draw: false,
            sides: [1, 2]
                .map(|n| Side {
                    name: format!("side {n}"),
                    players: vec![TeamPlayer {
                        player: player(n).to_string(),
                        points: 1.0,
                        units: 1,
                        lost: 0,
                        kills: 0,
                        ships_left: None,
                        surrendered: false,
                    }],
                })
                .to_vec(),
        });
        assert_bad_input(handle_league(&events, report(Actor::Admin, 1, teams)), "result");
    }

    #[test]
    fn a_result_the_scoring_crate_refuses_is_bad_input_under_result() {
        let events = running_placement_league();
        let error =
            handle_league(&events, report(Actor::Admin, 1, placement(&[(1, f64::NAN), (2, 8.0)])))
                .unwrap_err();
        assert_eq!(
            error.code(),
            ErrorCode::BadUserInput { field: "result.players[0].points".into() },
            "{error}"
        );
    }

    #[test]
    fn reporting_a_finished_game_again_is_a_conflict() {
        let mut events = running_placement_league();
        events.push(finished(1, placement(&[(1, 10.0), (2, 8.0)])));
        let error = assert_code(
            handle_league(&events, report(Actor::Admin, 1, placement(&[(1, 1.0), (2, 8.0)]))),
            ErrorCode::Conflict,
        );
        assert_eq!(error, DomainError::GameAlreadyFinished(game_id(LEAGUE, 1)));
    }

    #[test]
    fn the_last_result_completes_the_league_in_the_same_append() {
        let mut events = running_placement_league();
        events.push(finished(1, placement(&[(1, 10.0), (2, 8.0)])));
        let second =
            handle_league(&events, report(Actor::Admin, 2, placement(&[(3, 1.0), (4, 2.0)])))
                .unwrap();
        assert_eq!(second.len(), 1, "two of three games finished: not complete");
        events.extend(second);
        let last =
            handle_league(&events, report(Actor::Admin, 3, placement(&[(1, 1.0), (3, 2.0)])))
                .unwrap();
        assert_eq!(last.len(), 2);
        assert_eq!(
            last[1],
            DomainEvent::League(LeagueEvent::LeagueCompleted(LeagueCompleted {
                league_id: LEAGUE
            }))
        );
        events.extend(last);
        let league = given::<League>(&events);
        assert_eq!(league.status(), Some(LeagueStatus::Completed));
        assert!(league.games().iter().all(|g| g.status() == GameStatus::Finished));
        assert_eq!(league.version(), events.len() as u64);
    }

    #[test]
    fn diplomacy_results_are_validated_against_seven_seats() {
        let events = one_game_league(ScoringSystem::Baf, 7);
        let centres = [18, 6, 5, 3, 2, 0, 0];
        let result = GameResult::Diplomacy(
            (1..=7)
                .zip(centres)
                .map(|(n, centres)| DiplomacyEntry {
                    eliminated: centres == 0,
                    ..DiplomacyEntry::new(player(n).to_string(), centres)
                })
                .collect(),
        );
        let league = given::<League>(&events);
        assert_eq!(league.seat_labels()[0], "Austria");
        let done = league.decide(&report(Actor::Player(player(7)), 1, result), &context()).unwrap();
        assert_eq!(done.len(), 2, "the only game finishes the league");
    }
}

mod corrections {
    use super::*;

    fn one_finished() -> Vec<DomainEvent> {
        let mut events = running_placement_league();
        events.push(finished(1, placement(&[(1, 10.0), (2, 8.0)])));
        events
    }

    #[test]
    fn admin_corrects_a_finished_game_with_a_reason() {
        let mut events = one_finished();
        let new = handle_league(
            &events,
            correct(Actor::Admin, 1, placement(&[(1, 7.0), (2, 8.0)]), " typo "),
        )
        .unwrap();
        assert_eq!(
            new,
            [DomainEvent::League(LeagueEvent::GameResultCorrected(GameResultCorrected {
                league_id: LEAGUE,
                game_id: game_id(LEAGUE, 1),
                result: placement(&[(1, 7.0), (2, 8.0)]),
                reason: "typo".into(),
                corrected_by: Actor::Admin,
            }))]
        );
        events.extend(new);
        let league = given::<League>(&events);
        let game = league.game(game_id(LEAGUE, 1)).unwrap();
        assert_eq!(
            (game.result.clone(), game.corrections),
            (Some(placement(&[(1, 7.0), (2, 8.0)])), 1)
        );
    }

    #[test]
    fn only_an_admin_corrects() {
        let command =
            correct(Actor::Player(player(1)), 1, placement(&[(1, 7.0), (2, 8.0)]), "typo");
        assert_code(handle_league(&one_finished(), command), ErrorCode::Forbidden);
    }

    #[test]
    fn corrections_need_a_finished_game_and_a_reason() {
        let error = assert_code(
            handle_league(
                &one_finished(),
                correct(Actor::Admin, 2, placement(&[(3, 1.0), (4, 0.0)]), "typo"),
            ),
            ErrorCode::Conflict,
        );
        assert_eq!(error, DomainError::GameNotFinished(game_id(LEAGUE, 2)));
        assert_bad_input(
            handle_league(
                &one_finished(),
                correct(Actor::Admin, 1, placement(&[(1, 7.0), (2, 8.0)]), "  "),
            ),
            "reason",
        );
        assert_bad_input(
            handle_league(
                &one_finished(),
                correct(Actor::Admin, 1, placement(&[(1, 7.0), (3, 8.0)]), "typo"),
            ),
            "result",
        );
    }

    #[test]
    fn a_completed_league_still_takes_corrections_and_stays_completed() {
        let mut events = one_finished();
        events.push(finished(2, placement(&[(3, 1.0), (4, 2.0)])));
        events.push(finished(3, placement(&[(1, 1.0), (3, 2.0)])));
        events.push(DomainEvent::League(LeagueEvent::LeagueCompleted(LeagueCompleted {
            league_id: LEAGUE,
        })));
        let new = handle_league(
            &events,
            correct(Actor::Admin, 3, placement(&[(1, 3.0), (3, 2.0)]), "late appeal"),
        )
        .unwrap();
        events.extend(new);
        assert_eq!(given::<League>(&events).status(), Some(LeagueStatus::Completed));
    }
}

mod stored_events {
    use super::*;

    fn one_of_each() -> Vec<DomainEvent> {
        let key = PersonKey::from_bytes([9; PERSON_KEY_LEN]);
        let mut events =
            vec![DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
                player_id: player(1),
                name: PersonalText::seal(&key, [3; SEAL_NONCE_LEN], player(1), "name", "Ada"),
                token_hash: "ab12".into(),
            }))];
        events.extend(running_placement_league());
        events.push(DomainEvent::League(LeagueEvent::PlayerUnsubscribed(PlayerUnsubscribed {
            league_id: LEAGUE,
            player_id: player(1),
        })));
        events.push(finished(1, placement(&[(1, 10.0), (2, 8.0)])));
        events.push(DomainEvent::League(LeagueEvent::GameResultCorrected(GameResultCorrected {
            league_id: LEAGUE,
            game_id: game_id(LEAGUE, 1),
            result: placement(&[(1, 10.0), (2, 9.0)]),
            reason: "typo".into(),
            corrected_by: Actor::Admin,
        })));
        events.push(DomainEvent::League(LeagueEvent::LeagueCompleted(LeagueCompleted {
            league_id: LEAGUE,
        })));
        events.extend(crate::tournament::tests::a_played_tournament());
        events.extend(crate::tournament::tests::one_of_each_registration_event());
        events.extend(crate::tournament::tests::one_of_each_times_event());
        events.extend(crate::tournament::tests::one_of_each_confirmation_event());
        events.extend(crate::tournament::tests::one_of_each_awards_event());
        events.extend(crate::tournament::tests::one_of_each_teams_event());
        events.extend(crate::tournament::tests::one_of_each_powers_event());
        events.extend(crate::tournament::tests::one_of_each_pools_event());
        events.extend(rights::one_of_each_rights_event());
        events.push(DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
            player_id: player(50),
            erased_by: Actor::Admin,
            reason: "asked by email".into(),
        })));
        events.extend(crate::player::sessions::tests::one_of_each_sign_in_event());
        events.extend(crate::calendar::tests::issued_and_rotated());
        events.extend(crate::webhook::tests::one_of_each_webhook_event());
        events.extend(crate::series::tests::one_of_each_series_event());
        let passkey = Uuid::from_u128(0x9a55);
        let seal = |field: &str, text: &str| {
            PersonalText::seal(&key, [4; SEAL_NONCE_LEN], player(50), field, text)
        };
        events.push(DomainEvent::Player(PlayerEvent::PasskeyAdded(PasskeyAdded {
            player_id: player(50),
            passkey_id: passkey,
            credential: seal("passkey", "AQID.BAUG.BwgJ"),
            name: seal("passkeyName", "My phone"),
        })));
        events.push(DomainEvent::Player(PlayerEvent::PasskeyRemoved(PasskeyRemoved {
            player_id: player(50),
            passkey_id: passkey,
            removed_by: Actor::Player(player(50)),
        })));
        let issuer = "https://id.club.example".to_owned();
        events.push(DomainEvent::Player(PlayerEvent::IdentityLinked(IdentityLinked {
            player_id: player(50),
            issuer: issuer.clone(),
            subject: PersonalText::seal(
                &key,
                [4; SEAL_NONCE_LEN],
                player(50),
                "identitySubject",
                "ada",
            ),
        })));
        events.push(DomainEvent::Player(PlayerEvent::IdentityUnlinked(IdentityUnlinked {
            player_id: player(50),
            issuer,
            unlinked_by: Actor::Player(player(50)),
        })));
        events.extend(one_of_each_invite_event());
        events.push(crate::tournament::tests::one_of_each_progress_event());
        events.extend(crate::tournament::tests::one_of_each_rulings_event());
        events.extend(crate::player::keep_apart::tests::one_of_each_keep_apart_event());
        events.push(crate::player::external_ids::tests::one_of_each_external_id_event());
        events
    }

    fn one_of_each_invite_event() -> [DomainEvent; 2] {
        let invite_id = Uuid::from_u128(0x01934f00_0000_7000_8000_0000000000e1);
        [
            DomainEvent::Player(PlayerEvent::InviteIssued(InviteIssued {
                player_id: player(50),
                invite_id,
                code_hash: "c0de".into(),
                expires_at: Utc.with_ymd_and_hms(2026, 12, 5, 12, 0, 0).unwrap(),
            })),
            DomainEvent::Player(PlayerEvent::InviteRevoked(InviteRevoked {
                player_id: player(50),
                invite_id,
                revoked_by: Actor::Player(player(50)),
            })),
        ]
    }

    #[test]
    fn every_event_round_trips_through_its_stored_form() {
        let events = one_of_each();
        let types: std::collections::BTreeSet<_> =
            events.iter().map(DomainEvent::event_type).collect();
        assert_eq!(types.len(), EventType::ALL.len(), "the sample covers every type");
        for event in events {
            assert_eq!(event.schema_version(), event.kind().schema_version());
            let text = event.payload().to_string();
            let stored = i64::from(event.schema_version());
            assert_eq!(
                DomainEvent::decode(event.event_type(), stored, text.as_str()).unwrap(),
                event
            );
            let value = event.payload();
            assert_eq!(DomainEvent::decode(event.event_type(), stored, &value).unwrap(), event);
            assert_eq!(EventType::parse(event.event_type()).unwrap(), event.kind());
        }
    }

    /// One event of every type as an earlier build stored it (`tests/data/one-of-each.jsonl`:
    /// stored type name, schema version, stream and payload text, written from
    /// [`one_of_each`] when `LEAGUE_WRITE_EARLIER_BUILD` is set): each decodes to an event of
    /// that type and stream whose payload re-encodes to the same bytes, so stored payloads and
    /// their hashes never depend on how the code shapes its events.
    #[test]
    fn events_stored_by_an_earlier_build_decode_and_re_encode_byte_for_byte() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/one-of-each.jsonl");
        if std::env::var_os("LEAGUE_WRITE_EARLIER_BUILD").is_some() {
            let lines: Vec<String> = one_of_each()
                .iter()
                .map(|event| {
                    serde_json::json!({
                        "type": event.event_type(),
                        "version": event.schema_version(),
                        "stream": event.stream_id(),
                        "payload": event.payload().to_string(),
                    })
                    .to_string()
                })
                .collect();
            std::fs::write(path, lines.join("\n") + "\n").unwrap();
        }
        let text = std::fs::read_to_string(path).unwrap();
        let mut types = std::collections::BTreeSet::new();
        for line in text.lines() {
            let stored: serde_json::Value = serde_json::from_str(line).unwrap();
            let (kind, payload) =
                (stored["type"].as_str().unwrap(), stored["payload"].as_str().unwrap());
            let version = stored["version"].as_i64().unwrap();
            let event = DomainEvent::decode(kind, version, payload).unwrap();
            assert_eq!(event.event_type(), kind);
            assert_eq!(i64::from(event.schema_version()), version, "{kind}");
            assert_eq!(event.stream_id(), stored["stream"].as_str().unwrap(), "{kind}");
            assert_eq!(event.payload().to_string(), payload, "{kind}");
            assert_eq!(event.result().is_some(), event.kind().records_result(), "{kind}");
            types.insert(kind.to_owned());
        }
        assert_eq!(types.len(), EventType::ALL.len(), "the file holds every type");
    }

    /// `LeagueCreated` payloads as the version before the settings became one value wrote
    /// them (canonical text: sorted keys, no whitespace), without and with the optional
    /// `gameVersion` and `aggregation`: they decode, and re-encode to the same bytes, so the
    /// stored payloads and their hashes are unchanged.
    #[test]
    fn league_created_payloads_of_the_previous_version_re_encode_byte_for_byte() {
        let stored = [
            r#"{"game":"Cartagena","gamesPerSeat":1,"leagueId":"01934f00-0000-7000-8000-0000000000aa","name":"Autumn","playersPerGame":2,"requireActivePlayers":false,"scoringSystem":"placement","size":4}"#,
            r#"{"aggregation":{"kind":"bestN","n":2},"game":"Cartagena","gameVersion":"2nd edition","gamesPerSeat":3,"leagueId":"01934f00-0000-7000-8000-0000000000aa","name":"Autumn","playersPerGame":7,"requireActivePlayers":true,"scoringSystem":"baf","size":7}"#,
            r#"{"aggregation":{"kind":"average"},"game":"Cartagena","gamesPerSeat":4,"leagueId":"01934f00-0000-7000-8000-0000000000aa","name":"Autumn","playersPerGame":4,"requireActivePlayers":false,"scoringSystem":"placement","size":8}"#,
        ];
        for text in stored {
            let event = DomainEvent::decode("LeagueCreated", 1, text).unwrap();
            assert_eq!(event.payload().to_string(), text);
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(DomainEvent::decode("LeagueCreated", 1, &value).unwrap(), event);
        }
        let DomainEvent::League(LeagueEvent::LeagueCreated(plain)) =
            DomainEvent::decode("LeagueCreated", 1, stored[0]).unwrap()
        else {
            panic!("decoded as another type")
        };
        assert_eq!(
            plain.settings,
            LeagueSettings {
                size: 4,
                games_per_seat: 1,
                ..LeagueSettings::new("Autumn", "Cartagena", ScoringSystem::Placement, 2)
            }
        );
    }

    /// A registration written before names were sealed (version 1, a plain name) still
    /// decodes, with its name as written, and re-encodes to the same bytes.
    #[test]
    fn a_version_1_registration_keeps_its_plain_name_and_its_bytes() {
        let text = r#"{"name":"Ada Lovelace","playerId":"01934f00-0000-7000-8000-000000000001","tokenHash":"ab12"}"#;
        let event = DomainEvent::decode("PlayerRegistered", 1, text).unwrap();
        let DomainEvent::Player(PlayerEvent::PlayerRegistered(registered)) = &event else {
            panic!("{event:?}")
        };
        assert_eq!(registered.name, PersonalText::Plain("Ada Lovelace".into()));
        assert_eq!(event.payload().to_string(), text);
    }

    #[test]
    fn payloads_are_camel_case() {
        let created = created(ScoringSystem::Detour98f, 7, 8, 3).payload();
        assert_eq!(created["playersPerGame"], 7);
        assert_eq!(created["scoringSystem"], "detour98f");
        assert_eq!(created["requireActivePlayers"], false);
        assert_eq!(created["leagueId"], LEAGUE.to_string());
        let finished = finished(1, placement(&[(1, 10.0), (2, 8.0)])).payload();
        assert_eq!(finished["reportedBy"], "admin");
        assert_eq!(finished["gameId"], game_id(LEAGUE, 1).to_string());
    }

    #[test]
    fn unknown_types_versions_and_bad_payloads_are_typed_errors() {
        let payload = subscribed(1).payload();
        assert!(matches!(
            DomainEvent::decode("PlayerBanned", 1, &payload),
            Err(EventDecodeError::UnknownType(t)) if t == "PlayerBanned"
        ));
        assert!(matches!(
            DomainEvent::decode("PlayerSubscribed", 2, &payload),
            Err(EventDecodeError::UnsupportedVersion { schema_version: 2, .. })
        ));
        assert!(matches!(
            DomainEvent::decode("PlayerSubscribed", 1, serde_json::json!({"leagueId": 3})),
            Err(EventDecodeError::InvalidPayload { .. })
        ));
    }

    #[test]
    fn results_and_registrations_are_past_version_1_and_every_other_event_at_version_1() {
        for kind in EventType::ALL.iter().copied() {
            let expected = match kind {
                EventType::GameFinished | EventType::GameResultCorrected => 3,
                EventType::BoardFinished
                | EventType::BoardResultCorrected
                | EventType::PlayerRegistered
                | EventType::WebhookRegistered => 2,
                _ => 1,
            };
            assert_eq!(kind.schema_version(), expected, "{kind}");
        }
        let payload = finished(1, placement(&[(1, 10.0), (2, 8.0)])).payload();
        for version in [0, 4] {
            assert!(matches!(
                DomainEvent::decode("GameFinished", version, &payload),
                Err(EventDecodeError::UnsupportedVersion { schema_version, .. })
                    if schema_version == version
            ));
        }
    }

    #[test]
    fn events_know_their_stream() {
        let events = one_of_each();
        assert_eq!(events[0].stream_id(), format!("player-{}", player(1)));
        for event in &events[1..] {
            let expected = match (event.kind().stream_kind(), event.tournament_id()) {
                (StreamKind::Player, _) => format!("player-{}", player(50)),
                (StreamKind::Calendar, _) => format!("calendar-{}", crate::calendar::tests::PLAYER),
                (StreamKind::Webhook, _) => webhook_stream_id(crate::webhook::tests::HOOK),
                (StreamKind::Series, _) => crate::series_stream_id(crate::series::tests::SERIES),
                (_, Some(tournament)) => format!("tournament-{tournament}"),
                (_, None) => format!("league-{LEAGUE}"),
            };
            assert_eq!(event.stream_id(), expected);
            assert_eq!(
                event.competition_id(),
                event.league_id().map(Uuid::from).or(event.tournament_id().map(Uuid::from))
            );
        }
    }
}

/// `docs/scoring.md#draws-and-concessions`: results stored before a concession was scored as
/// the conceded-to power's solo (schema version 1) keep the first rule, a draw of one; those
/// stored at version 2 keep the second, a solo in every system but Baf and Detour 98f; the
/// same payload stored at version 3 is scored as each system's rule says.
mod stored_concessions {
    use league_scoring::ConcessionRule;

    use super::*;

    /// A Bangkok league of seven, one game, seats in power order (Austria first).
    fn running_bangkok_league() -> Vec<DomainEvent> {
        one_game_league(ScoringSystem::Bangkok, 7)
    }

    /// The worked example's result as stored JSON: Austria 2, England 11 (the only power in
    /// the draw: a concession to England), France 7, Germany 0 (eliminated 1909), Italy 4,
    /// Russia 5, Turkey 5.
    fn conceded_result_json() -> String {
        let entries: Vec<String> = [2, 11, 7, 0, 4, 5, 5]
            .into_iter()
            .enumerate()
            .map(|(index, centres)| {
                let player = player(index as u128 + 1);
                match index {
                    1 => format!(
                        r#"{{"centres":{centres},"eliminated":false,"inDraw":true,"player":"{player}"}}"#
                    ),
                    3 => format!(
                        r#"{{"centres":0,"eliminated":true,"eliminatedYear":1909,"player":"{player}"}}"#
                    ),
                    _ => format!(r#"{{"centres":{centres},"eliminated":false,"player":"{player}"}}"#),
                }
            })
            .collect();
        format!(r#"{{"diplomacy":[{}]}}"#, entries.join(","))
    }

    fn finished_text(result: &str) -> String {
        format!(
            r#"{{"gameId":"{}","leagueId":"{LEAGUE}","reportedBy":"admin","result":{result}}}"#,
            game_id(LEAGUE, 1)
        )
    }

    fn corrected_text(result: &str) -> String {
        format!(
            r#"{{"correctedBy":"admin","gameId":"{}","leagueId":"{LEAGUE}","reason":"typo","result":{result}}}"#,
            game_id(LEAGUE, 1)
        )
    }

    fn result_of(event: &DomainEvent) -> &GameResult {
        match event {
            DomainEvent::League(LeagueEvent::GameFinished(e)) => &e.result,
            DomainEvent::League(LeagueEvent::GameResultCorrected(e)) => &e.result,
            other => panic!("not a result: {other:?}"),
        }
    }

    /// Each player's league total after `events`, in seat order.
    fn totals(events: &[DomainEvent]) -> Vec<f64> {
        let rows = given::<League>(events).standings_under(ScoringSystem::Bangkok).unwrap();
        (1..=7).map(|n| rows.iter().find(|row| row.player == player(n)).unwrap().total).collect()
    }

    /// The earlier rule's Bangkok scores of the worked example, and the new rule's.
    const DRAW_OF_ONE: [f64; 7] = [5.0, 26.0, 10.0, 2.4, 7.0, 8.0, 8.0];
    const SOLO: [f64; 7] = [1.0, 41.0, 3.5, 0.0, 2.0, 2.5, 2.5];

    #[test]
    fn a_version_1_concession_keeps_the_draw_of_one_and_version_2_is_a_solo() {
        // Given the same stored payload text at version 1 and at version 2
        let text = finished_text(&conceded_result_json());
        for (version, rule, scores) in
            [(1, ConcessionRule::DrawOfOne, DRAW_OF_ONE), (2, ConcessionRule::Solo, SOLO)]
        {
            // When it is decoded
            let event = DomainEvent::decode("GameFinished", version, text.as_str()).unwrap();
            // Then the result is under that version's rule, and scores by it
            assert_eq!(result_of(&event).concession(), Some(1));
            assert_eq!(result_of(&event).concession_rule(), rule, "version {version}");
            let mut events = running_bangkok_league();
            events.push(event);
            assert_eq!(totals(&events), scores, "version {version}");
        }
    }

    #[test]
    fn a_version_1_correction_to_a_concession_keeps_the_draw_of_one() {
        // Given a game finished under the new rule, then corrected by a version-1 payload
        let result = conceded_result_json();
        let mut events = running_bangkok_league();
        events
            .push(DomainEvent::decode("GameFinished", 2, finished_text(&result).as_str()).unwrap());
        assert_eq!(totals(&events), SOLO);
        // When the correction is decoded at version 1 and at version 2
        let text = corrected_text(&result);
        let old = DomainEvent::decode("GameResultCorrected", 1, text.as_str()).unwrap();
        let new = DomainEvent::decode("GameResultCorrected", 2, text.as_str()).unwrap();
        // Then each scores under its version's rule
        assert_eq!(result_of(&old).concession_rule(), ConcessionRule::DrawOfOne);
        assert_eq!(result_of(&new).concession_rule(), ConcessionRule::Solo);
        assert_eq!(totals(&[events.clone(), vec![old]].concat()), DRAW_OF_ONE);
        assert_eq!(totals(&[events, vec![new]].concat()), SOLO);
    }

    #[test]
    fn a_version_1_result_without_a_concession_decodes_as_it_was() {
        // Given results without a concession: a placement one and a Diplomacy draw of all
        let draw = conceded_result_json().replace(r#""inDraw":true,"#, "");
        let placement_text = finished(1, placement(&[(1, 10.0), (2, 8.0)])).payload().to_string();
        for text in [finished_text(&draw), placement_text] {
            // When decoded at version 1 and at version 2
            let old = DomainEvent::decode("GameFinished", 1, text.as_str()).unwrap();
            let new = DomainEvent::decode("GameFinished", 2, text.as_str()).unwrap();
            // Then nothing differs, and the payload re-encodes to the stored bytes
            assert_eq!(old, new);
            assert_eq!(old.payload().to_string(), text);
        }
    }

    #[test]
    fn a_new_concession_is_written_at_version_3_without_a_marker() {
        // Given a running Bangkok league
        let events = running_bangkok_league();
        let result: GameResult = serde_json::from_str(&conceded_result_json()).unwrap();
        // When a concession is reported
        let new = handle_league(&events, report(Actor::Admin, 1, result)).unwrap();
        // Then it is stored at version 3, unmarked, and scored as England's solo (Bangkok's)
        assert_eq!(new[0].schema_version(), 3);
        assert_eq!(result_of(&new[0]).concession_rule(), ConcessionRule::PerSystem);
        let stored = new[0].payload().to_string();
        assert!(!stored.contains("concessionAsDraw") && !stored.contains("concessionAsSolo"));
        assert_eq!(totals(&[events, new].concat()), SOLO);
    }

    #[test]
    fn a_version_2_concession_keeps_the_solo_where_version_3_scores_the_centres() {
        // Given the same stored payload text at versions 1, 2 and 3, in a C-Diplo 100 league
        let text = finished_text(&conceded_result_json());
        for (version, rule, scores) in [
            // The first rule: a draw of one, scored from the centres.
            (1, ConcessionRule::DrawOfOne, [3.0, 50.0, 22.0, 1.0, 5.0, 9.5, 9.5]),
            // The second: England's solo.
            (2, ConcessionRule::Solo, [0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            // Now: C-Diplo's rule is silent, and dipvis scores it from the centres.
            (3, ConcessionRule::PerSystem, [3.0, 50.0, 22.0, 1.0, 5.0, 9.5, 9.5]),
        ] {
            // When it is decoded
            let event = DomainEvent::decode("GameFinished", version, text.as_str()).unwrap();
            // Then it is under that version's rule and scores by it
            assert_eq!(result_of(&event).concession_rule(), rule, "version {version}");
            let mut events = one_game_league(ScoringSystem::CDiplo100, 7);
            events.push(event);
            let rows = given::<League>(&events).standings_under(ScoringSystem::CDiplo100).unwrap();
            let got: Vec<f64> = (1..=7)
                .map(|n| rows.iter().find(|row| row.player == player(n)).unwrap().total)
                .collect();
            assert_eq!(got, scores, "version {version}");
        }
    }

    #[test]
    fn a_version_1_board_concession_keeps_the_solo() {
        // Given a board result with a concession, as stored
        let text = format!(
            r#"{{"boardId":"{}","reportedBy":"admin","result":{},"tournamentId":"{LEAGUE}"}}"#,
            Uuid::from_u128(7),
            conceded_result_json()
        );
        // When decoded at version 1 (written when every dipvis system scored it as a solo)
        // and at version 2
        let old = DomainEvent::decode("BoardFinished", 1, text.as_str()).unwrap();
        let new = DomainEvent::decode("BoardFinished", 2, text.as_str()).unwrap();
        // Then each is under its version's rule
        let rule = |event: &DomainEvent| match event {
            DomainEvent::Tournament(TournamentEvent::BoardFinished(e)) => {
                e.result.concession_rule()
            }
            other => panic!("not a board result: {other:?}"),
        };
        assert_eq!(rule(&old), ConcessionRule::Solo);
        assert_eq!(rule(&new), ConcessionRule::PerSystem);
        assert_eq!(new.payload().to_string(), text, "the current version reads as stored");
    }
}

mod team_games {
    use super::*;

    fn running_blue_max_duel() -> Vec<DomainEvent> {
        one_game_league(ScoringSystem::BlueMax, 2)
    }

    fn pilot(n: u128, kills: u32, lost: u32) -> TeamPlayer {
        TeamPlayer {
            player: player(n).to_string(),
            points: 10.0,
            units: 1,
            lost,
            kills,
            ships_left: None,
            surrendered: false,
        }
    }

    /// docs/scoring.md#blue-max, Example 3: "1 vs. 1 Scenario: W1 play
    /// against D1. W1 shots down D1" — a team-shaped result, one pilot per side.
    #[test]
    fn blue_max_takes_sides_and_refuses_a_placement_result() {
        let events = running_blue_max_duel();
        let duel = GameResult::Teams(TeamResult {
            draw: false,
            sides: vec![
                Side { name: "W".into(), players: vec![pilot(1, 1, 0)] },
                Side { name: "D".into(), players: vec![pilot(2, 0, 1)] },
            ],
        });
        let done = handle_league(&events, report(Actor::Player(player(1)), 1, duel)).unwrap();
        assert_eq!(done.len(), 2, "the only game finishes the league");
        assert_bad_input(
            handle_league(&events, report(Actor::Admin, 1, placement(&[(1, 1.0), (2, 0.0)]))),
            "result",
        );
    }

    #[test]
    fn every_seated_pilot_must_be_on_a_side() {
        let one_sided = GameResult::Teams(TeamResult {
            draw: false,
            sides: vec![Side { name: "W".into(), players: vec![pilot(1, 1, 0)] }],
        });
        assert_bad_input(
            handle_league(&running_blue_max_duel(), report(Actor::Admin, 1, one_sided)),
            "result",
        );
    }
}

mod codes {
    use super::*;

    #[test]
    fn error_codes_are_the_graphql_extension_codes() {
        let cases = [
            (DomainError::Forbidden("x".into()), "FORBIDDEN"),
            (DomainError::invalid("name", "empty"), "BAD_USER_INPUT"),
            (DomainError::LeagueNotFound(LEAGUE), "NOT_FOUND"),
            (DomainError::LeagueFull, "CONFLICT"),
            (DomainError::Scheduling("bug".into()), "INTERNAL"),
        ];
        for (error, code) in cases {
            assert_eq!(error.code().as_str(), code, "{error}");
        }
    }

    #[test]
    fn the_schedule_seed_is_the_first_eight_bytes_of_the_league_id() {
        let id = Uuid::from_u128(0x0102_0304_0506_0708_1111_2222_3333_4444);
        assert_eq!(rules::schedule_seed(id.into()), 0x0102_0304_0506_0708);
    }
}

mod standings {
    use super::*;

    /// docs/scoring.md#placement, 2 players: 1st 2, 2nd 0.
    #[test]
    fn standings_follow_the_current_results_including_corrections() {
        let mut events = running_placement_league();
        events.push(finished(1, placement(&[(1, 10.0), (2, 8.0)])));
        let league = given::<League>(&events);
        let standings = league.standings().unwrap();
        assert_eq!(standings[0].player, player(1));
        assert_eq!((standings[0].total, standings[0].wins), (2.0, 1));
        events.push(DomainEvent::League(LeagueEvent::GameResultCorrected(GameResultCorrected {
            league_id: LEAGUE,
            game_id: game_id(LEAGUE, 1),
            result: placement(&[(1, 7.0), (2, 8.0)]),
            reason: "typo".into(),
            corrected_by: Actor::Admin,
        })));
        let corrected = given::<League>(&events).standings().unwrap();
        assert_eq!((corrected[0].player, corrected[0].total), (player(2), 2.0));
        let error = given::<League>(&events).standings_under(ScoringSystem::BlueMax).unwrap_err();
        assert_eq!(error.code(), ErrorCode::BadUserInput { field: "system".into() }, "{error}");
    }
}

mod aggregation {
    use super::*;

    /// The running placement league (k = 2, s = 1: two games per player) with `aggregation`.
    fn running_with(aggregation: Aggregation) -> Vec<DomainEvent> {
        let mut events = running_placement_league();
        let DomainEvent::League(LeagueEvent::LeagueCreated(created)) = &mut events[0] else {
            panic!()
        };
        created.settings.aggregation = aggregation;
        events
    }

    #[test]
    fn a_league_is_created_with_its_aggregation_and_defaults_to_sum() {
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.settings.aggregation = Aggregation::BestN { n: 3 };
        let events = handle_league(&[], command.into()).unwrap();
        let DomainEvent::League(LeagueEvent::LeagueCreated(created)) = &events[0] else { panic!() };
        assert_eq!(created.settings.aggregation, Aggregation::BestN { n: 3 });
        let payload = events[0].payload();
        assert_eq!(payload["aggregation"], serde_json::json!({"kind": "bestN", "n": 3}));
        assert_eq!(given::<League>(&events).aggregation(), Aggregation::BestN { n: 3 });
        let events =
            handle_league(&[], create_command(ScoringSystem::Placement, 4).into()).unwrap();
        let DomainEvent::League(LeagueEvent::LeagueCreated(created)) = &events[0] else { panic!() };
        assert_eq!(created.settings.aggregation, Aggregation::Sum);
    }

    /// Given nothing, when best N does not fit the k·s games each player plays, then the
    /// command is refused naming `aggregation.n` and no event is decided.
    #[test]
    fn best_n_must_fit_the_games_each_player_plays() {
        // k = 4, s = 1: each player plays 4 games.
        for (n, fits) in [(0, false), (1, true), (4, true), (5, false)] {
            let mut command = create_command(ScoringSystem::Placement, 4);
            command.settings.aggregation = Aggregation::BestN { n };
            let result = handle_league(&[], command.into());
            if fits {
                assert_eq!(result.unwrap().len(), 1);
            } else {
                assert_bad_input(result, "aggregation.n");
            }
        }
        // With s = 4 (the default for k = 4) each plays 16: best 16 fits.
        let mut command = create_command(ScoringSystem::Placement, 4);
        command.settings.games_per_seat =
            default_settings(ScoringSystem::Placement, 4).games_per_seat;
        command.settings.aggregation = Aggregation::BestN { n: 16 };
        assert!(handle_league(&[], command.into()).is_ok());
        assert_eq!(check_aggregation(Aggregation::Average, 4, 1), Ok(()));
    }

    /// The default is left out of the stored payload, so a league created before the
    /// setting existed decodes (as sum) and re-encodes byte for byte.
    #[test]
    fn sum_is_left_out_of_the_payload_and_old_payloads_decode_as_sum() {
        let sum = created(ScoringSystem::Placement, 2, 4, 1);
        let payload = sum.payload();
        assert!(payload.get("aggregation").is_none(), "{payload}");
        let old = payload.to_string();
        let decoded = DomainEvent::decode("LeagueCreated", 1, old.as_str()).unwrap();
        assert_eq!(decoded, sum);
        assert_eq!(decoded.payload().to_string(), old);
        let best = running_with(Aggregation::BestN { n: 2 }).remove(0);
        let text = best.payload().to_string();
        assert!(text.contains(r#""aggregation":{"kind":"bestN","n":2}"#), "{text}");
        assert_eq!(DomainEvent::decode("LeagueCreated", 1, text.as_str()).unwrap(), best);
    }

    /// Replaying the same events gives the same standings under the league's aggregation.
    #[test]
    fn standings_follow_the_league_aggregation() {
        // p1 wins game 1 (2) and loses game 3 (0); p3 wins games 2 and 3.
        let results = [
            finished(1, placement(&[(1, 10.0), (2, 8.0)])),
            finished(2, placement(&[(3, 10.0), (4, 8.0)])),
            finished(3, placement(&[(3, 10.0), (1, 8.0)])),
        ];
        let total = |aggregation, n: u128| {
            let mut events = running_with(aggregation);
            events.extend(results.iter().cloned());
            let standings = given::<League>(&events).standings().unwrap();
            let line = standings.iter().find(|s| s.player == player(n)).unwrap();
            (line.total, line.played)
        };
        assert_eq!(total(Aggregation::Sum, 1), (2.0, 2));
        assert_eq!(total(Aggregation::Sum, 3), (4.0, 2));
        assert_eq!(total(Aggregation::BestN { n: 1 }, 3), (2.0, 2));
        assert_eq!(total(Aggregation::Average, 1), (1.0, 2));
        assert_eq!(total(Aggregation::Average, 3), (2.0, 2));
        // What-if: the same league under another aggregation, its own left unchanged.
        let mut events = running_with(Aggregation::Sum);
        events.extend(results.iter().cloned());
        let league = given::<League>(&events);
        let average = league.standings_with(ScoringSystem::Placement, Aggregation::Average);
        assert_eq!(average.unwrap()[0].total, 2.0);
        assert_eq!(league.standings().unwrap()[0].total, 4.0);
    }
}

mod rights {
    use super::*;

    const ORGANISER: u128 = 50;
    const CO_ORGANISER: u128 = 51;
    const OUTSIDER: u128 = 52;

    fn registered() -> Vec<DomainEvent> {
        vec![DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(ORGANISER),
            name: PersonalText::Plain("Grace".into()),
            token_hash: "first".into(),
        }))]
    }

    fn on_player(
        events: &[DomainEvent],
        command: impl Into<PlayerCommand>,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        given::<Player>(events).decide(&command.into(), &context())
    }

    fn rotate(actor: Actor) -> RotateToken {
        RotateToken { actor, player_id: player(ORGANISER), token_hash: "second".into() }
    }

    fn organiser_context() -> Context {
        context().with_actor_organiser(true)
    }

    /// A placement league created by the organiser (`createdBy` recorded).
    fn organised_league() -> Vec<DomainEvent> {
        let command = create_command(ScoringSystem::Placement, 2);
        let command = CreateLeague { actor: Actor::Player(player(ORGANISER)), ..command };
        let mut events =
            given::<League>(&[]).decide(&command.into(), &organiser_context()).unwrap();
        events.extend((1..=4).map(subscribed));
        events.extend(running_placement_league().into_iter().skip(5));
        events.push(finished(1, placement(&[(1, 10.0), (2, 8.0)])));
        events
    }

    fn add_co_organiser(actor: Actor, n: u128) -> LeagueCommand {
        AddLeagueCoOrganiser { actor, league_id: LEAGUE, player_id: player(n) }.into()
    }

    /// Every event of this module's kind, for the stored-form round trip.
    pub(super) fn one_of_each_rights_event() -> Vec<DomainEvent> {
        let mut events = registered();
        for command in [
            PlayerCommand::from(rotate(Actor::Player(player(ORGANISER)))),
            RevokeToken { actor: Actor::Admin, player_id: player(ORGANISER) }.into(),
            AppointOrganiser { actor: Actor::Admin, player_id: player(ORGANISER) }.into(),
            DismissOrganiser { actor: Actor::Admin, player_id: player(ORGANISER) }.into(),
        ] {
            let new = on_player(&events, command).unwrap();
            events.extend(new);
        }
        let league = organised_league();
        let added = handle_league(&league, add_co_organiser(Actor::Admin, CO_ORGANISER)).unwrap();
        events.extend(added);
        events.extend(crate::tournament::tests::co_organised_tournament(player(CO_ORGANISER)));
        events
    }

    #[test]
    fn a_player_rotates_their_own_token_and_the_admin_anyones() {
        let events = registered();
        let mine = on_player(&events, rotate(Actor::Player(player(ORGANISER)))).unwrap();
        assert_eq!(
            mine,
            vec![DomainEvent::Player(PlayerEvent::TokenRotated(TokenRotated {
                player_id: player(ORGANISER),
                token_hash: "second".into(),
                rotated_by: Actor::Player(player(ORGANISER)),
            }))]
        );
        let player_after = given::<Player>(&[events.clone(), mine].concat());
        assert_eq!(player_after.token_hash(), Some("second"));
        assert!(on_player(&events, rotate(Actor::Admin)).is_ok());
        let error = assert_code(
            on_player(&events, rotate(Actor::Player(player(OUTSIDER)))),
            ErrorCode::Forbidden,
        );
        assert!(error.to_string().contains("rotate another player's token"), "{error}");
        assert_code(on_player(&[], rotate(Actor::Admin)), ErrorCode::NotFound);
        let blank = RotateToken { token_hash: " ".into(), ..rotate(Actor::Admin) };
        assert_bad_input(on_player(&events, blank), "tokenHash");
    }

    #[test]
    fn only_the_admin_revokes_and_a_revoked_player_has_no_token_until_rotated() {
        let events = registered();
        let revoke = |actor| RevokeToken { actor, player_id: player(ORGANISER) };
        let error = assert_code(
            on_player(&events, revoke(Actor::Player(player(ORGANISER)))),
            ErrorCode::Forbidden,
        );
        assert!(error.to_string().contains("only the site admin may revoke tokens"), "{error}");
        let revoked = [events.clone(), on_player(&events, revoke(Actor::Admin)).unwrap()].concat();
        assert_eq!(given::<Player>(&revoked).token_hash(), None);
        assert_code(on_player(&revoked, revoke(Actor::Admin)), ErrorCode::Conflict);
        let rotated =
            [revoked.clone(), on_player(&revoked, rotate(Actor::Admin)).unwrap()].concat();
        assert_eq!(given::<Player>(&rotated).token_hash(), Some("second"));
    }

    #[test]
    fn the_admin_appoints_and_dismisses_organisers() {
        let events = registered();
        let appoint = |actor| AppointOrganiser { actor, player_id: player(ORGANISER) };
        let dismiss = |actor| DismissOrganiser { actor, player_id: player(ORGANISER) };
        assert_code(
            on_player(&events, appoint(Actor::Player(player(ORGANISER)))),
            ErrorCode::Forbidden,
        );
        assert_code(on_player(&events, dismiss(Actor::Admin)), ErrorCode::Conflict);
        let appointed =
            [events.clone(), on_player(&events, appoint(Actor::Admin)).unwrap()].concat();
        assert!(given::<Player>(&appointed).is_organiser());
        assert_code(on_player(&appointed, appoint(Actor::Admin)), ErrorCode::Conflict);
        assert_code(
            on_player(&appointed, dismiss(Actor::Player(player(ORGANISER)))),
            ErrorCode::Forbidden,
        );
        let dismissed =
            [appointed.clone(), on_player(&appointed, dismiss(Actor::Admin)).unwrap()].concat();
        assert!(!given::<Player>(&dismissed).is_organiser());
    }

    #[test]
    fn an_organiser_creates_a_league_recorded_as_theirs_and_a_player_may_not() {
        let by_player = CreateLeague {
            actor: Actor::Player(player(ORGANISER)),
            ..create_command(ScoringSystem::Placement, 2)
        };
        let error = assert_code(handle_league(&[], by_player.clone().into()), ErrorCode::Forbidden);
        assert!(error.to_string().contains("is not an organiser"), "{error}");
        let created = given::<League>(&[]).decide(&by_player.into(), &organiser_context()).unwrap();
        let DomainEvent::League(LeagueEvent::LeagueCreated(event)) = &created[0] else {
            panic!("{created:?}")
        };
        assert_eq!(event.created_by, Some(Actor::Player(player(ORGANISER))));
        assert_eq!(created[0].payload()["createdBy"], format!("player:{}", player(ORGANISER)));
        assert_eq!(given::<League>(&created).organisers().creator(), Some(player(ORGANISER)));
    }

    #[test]
    fn an_admins_creation_keeps_the_stored_form_of_before() {
        let created =
            handle_league(&[], create_command(ScoringSystem::Placement, 2).into()).unwrap();
        assert!(created[0].payload().get("createdBy").is_none());
        assert_eq!(given::<League>(&created).organisers(), &Organisers::default());
    }

    #[test]
    fn a_league_is_managed_by_its_organisers_only() {
        let events = organised_league();
        let fix = || placement(&[(1, 10.0), (2, 9.0)]);
        let by_outsider =
            handle_league(&events, correct(Actor::Player(player(OUTSIDER)), 1, fix(), "typo"));
        let error = assert_code(by_outsider, ErrorCode::Forbidden);
        let message = error.to_string();
        assert!(message.contains(&format!("does not organise league {LEAGUE}")), "{message}");
        assert!(message.contains("correct results"), "{message}");
        assert!(
            handle_league(&events, correct(Actor::Player(player(ORGANISER)), 1, fix(), "typo"))
                .is_ok()
        );
        assert!(handle_league(&events, correct(Actor::Admin, 1, fix(), "typo")).is_ok());
        // A co-organiser, added by the creator, manages it too; an outsider may not add one.
        assert_code(
            handle_league(&events, add_co_organiser(Actor::Player(player(OUTSIDER)), OUTSIDER)),
            ErrorCode::Forbidden,
        );
        let added = handle_league(
            &events,
            add_co_organiser(Actor::Player(player(ORGANISER)), CO_ORGANISER),
        )
        .unwrap();
        let events = [events, added].concat();
        assert!(given::<League>(&events).organisers().includes(player(CO_ORGANISER)));
        assert!(
            handle_league(&events, correct(Actor::Player(player(CO_ORGANISER)), 1, fix(), "typo"))
                .is_ok()
        );
        assert!(
            handle_league(
                &events,
                report(Actor::Player(player(CO_ORGANISER)), 2, placement(&[(3, 1.0), (4, 0.0)]))
            )
            .is_ok()
        );
        assert_code(
            handle_league(&events, add_co_organiser(Actor::Admin, CO_ORGANISER)),
            ErrorCode::Conflict,
        );
        let unknown = given::<League>(&events).decide(
            &add_co_organiser(Actor::Admin, OUTSIDER),
            &context().with_unknown_players(vec![player(OUTSIDER)]),
        );
        assert_code(unknown, ErrorCode::NotFound);
    }

    #[test]
    fn an_organiser_may_subscribe_others_to_their_league_only() {
        let organiser = CreateLeague {
            actor: Actor::Player(player(ORGANISER)),
            ..create_command(ScoringSystem::Placement, 2)
        };
        let mine = given::<League>(&[]).decide(&organiser.into(), &organiser_context()).unwrap();
        assert!(handle_league(&mine, subscribe(Actor::Player(player(ORGANISER)), 1)).is_ok());
        let admins = vec![created(ScoringSystem::Placement, 2, 4, 1)];
        let error = assert_code(
            handle_league(&admins, subscribe(Actor::Player(player(ORGANISER)), 1)),
            ErrorCode::Forbidden,
        );
        assert!(error.to_string().contains("subscribe for another player"), "{error}");
    }
}

mod erasure {
    use super::*;

    pub(super) const ANN: u128 = 60;

    pub(super) fn registered() -> Vec<DomainEvent> {
        vec![DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(ANN),
            name: PersonalText::Plain("Ann".into()),
            token_hash: "first".into(),
        }))]
    }

    fn erase(actor: Actor, reason: &str) -> PlayerCommand {
        ErasePlayer { actor, player_id: player(ANN), reason: reason.into() }.into()
    }

    pub(super) fn on_player(
        events: &[DomainEvent],
        command: PlayerCommand,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        given::<Player>(events).decide(&command, &context())
    }

    #[test]
    fn the_site_admin_erases_a_player_saying_why() {
        let events = on_player(&registered(), erase(Actor::Admin, "  asked by email  ")).unwrap();
        assert_eq!(
            events,
            [DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
                player_id: player(ANN),
                erased_by: Actor::Admin,
                reason: "asked by email".into(),
            }))]
        );
    }

    #[test]
    fn a_player_erases_themself_but_nobody_else() {
        let own = on_player(&registered(), erase(Actor::Player(player(ANN)), "leaving"));
        assert!(own.is_ok());
        let other = on_player(&registered(), erase(Actor::Player(player(61)), "spite"));
        let error = other.unwrap_err();
        assert_eq!(error.code(), ErrorCode::Forbidden);
        assert!(error.to_string().contains("erase another player's data"), "{error}");
    }

    #[test]
    fn an_erasure_needs_a_reason_of_bounded_length() {
        for reason in ["", "   ", &"x".repeat(501)] {
            let error = on_player(&registered(), erase(Actor::Admin, reason)).unwrap_err();
            assert_eq!(
                error.code(),
                ErrorCode::BadUserInput { field: "reason".into() },
                "{reason:?}"
            );
        }
        assert!(on_player(&registered(), erase(Actor::Admin, &"x".repeat(500))).is_ok());
    }

    #[test]
    fn an_unknown_player_is_not_found() {
        let error = on_player(&[], erase(Actor::Admin, "why")).unwrap_err();
        assert_eq!(error, DomainError::PlayerNotFound(player(ANN)));
    }

    #[test]
    fn an_erased_player_has_no_token_no_right_and_cannot_be_erased_or_changed_again() {
        let mut events = registered();
        events.push(DomainEvent::Player(PlayerEvent::OrganiserAppointed(OrganiserAppointed {
            player_id: player(ANN),
            appointed_by: Actor::Admin,
        })));
        events.extend(on_player(&events, erase(Actor::Admin, "asked")).unwrap());
        let state = given::<Player>(&events);
        assert!(state.is_erased());
        assert_eq!(state.token_hash(), None);
        assert!(!state.is_organiser());
        for command in [
            erase(Actor::Admin, "again"),
            RotateToken { actor: Actor::Admin, player_id: player(ANN), token_hash: "x".into() }
                .into(),
            AppointOrganiser { actor: Actor::Admin, player_id: player(ANN) }.into(),
        ] {
            let error = on_player(&events, command).unwrap_err();
            assert_eq!(error.code(), ErrorCode::Conflict);
            assert!(error.to_string().contains("was erased"), "{error}");
        }
    }

    /// The context the application builds once player `n` was erased: of the players a
    /// league command names, those erased.
    fn erased_context(command: &LeagueCommand, n: u128) -> Context {
        let named = command.players_to_check();
        context().with_erased_players(named.into_iter().filter(|p| *p == player(n)).collect())
    }

    fn add_co_organiser(n: u128) -> LeagueCommand {
        AddLeagueCoOrganiser { actor: Actor::Admin, league_id: LEAGUE, player_id: player(n) }.into()
    }

    #[test]
    fn an_erased_player_cannot_join_a_league_or_organise_it() {
        let open = vec![created(ScoringSystem::Placement, 2, 4, 1), subscribed(1)];
        for command in [subscribe(Actor::Admin, ANN), add_co_organiser(ANN)] {
            let refused = given::<League>(&open).decide(&command, &erased_context(&command, ANN));
            let error = assert_code(refused, ErrorCode::Conflict);
            assert_eq!(error.to_string(), format!("player {} was erased", player(ANN)));
            // Another player is still welcome.
            let other = match command {
                LeagueCommand::Subscribe(_) => subscribe(Actor::Admin, 2),
                _ => add_co_organiser(2),
            };
            assert!(given::<League>(&open).decide(&other, &erased_context(&other, ANN)).is_ok());
        }
    }

    #[test]
    fn an_erased_player_can_still_be_unsubscribed_and_their_games_reported() {
        // Leaving and results of games already scheduled name nobody new.
        let open = vec![created(ScoringSystem::Placement, 2, 4, 1), subscribed(1)];
        let leave = unsubscribe(Actor::Admin, 1);
        assert!(leave.players_to_check().is_empty());
        let everyone_erased = context().with_erased_players((1..=4).map(player).collect());
        assert!(given::<League>(&open).decide(&leave, &everyone_erased).is_ok());
        let running = running_placement_league();
        for command in [
            report(Actor::Admin, 1, placement(&[(1, 1.0), (2, 0.0)])),
            correct(Actor::Admin, 1, placement(&[(1, 0.0), (2, 1.0)]), "typo"),
        ] {
            assert!(command.players_to_check().is_empty());
            let mut events = running.clone();
            if matches!(command, LeagueCommand::CorrectResult(_)) {
                events.push(finished(1, placement(&[(1, 1.0), (2, 0.0)])));
            }
            assert!(given::<League>(&events).decide(&command, &everyone_erased).is_ok());
        }
    }

    #[test]
    fn an_erased_players_calendar_feed_cannot_be_issued() {
        let command: CalendarCommand = RotateCalendarFeed {
            actor: Actor::Admin,
            player_id: player(ANN),
            feed_hash: "h".into(),
        }
        .into();
        let context = context().with_erased_players(command.players_to_check());
        let error =
            assert_code(Calendar::default().decide(&command, &context), ErrorCode::Conflict);
        assert!(error.to_string().contains("was erased"), "{error}");
    }
}

mod passkeys {
    use super::*;

    const ANN: u128 = 70;
    const KEY: uuid::Uuid = uuid::Uuid::from_u128(0xabc);

    fn registered() -> Vec<DomainEvent> {
        vec![DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(ANN),
            name: PersonalText::Plain("Ann".into()),
            token_hash: "first".into(),
        }))]
    }

    fn add(actor: Actor, name: &str) -> PlayerCommand {
        AddPasskey {
            actor,
            player_id: player(ANN),
            passkey_id: KEY,
            credential: "credential".into(),
            name: name.into(),
        }
        .into()
    }

    fn remove(actor: Actor) -> PlayerCommand {
        RemovePasskey { actor, player_id: player(ANN), passkey_id: KEY }.into()
    }

    fn on_player(
        events: &[DomainEvent],
        command: PlayerCommand,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        given::<Player>(events).decide(&command, &context())
    }

    fn with_passkey() -> Vec<DomainEvent> {
        let mut events = registered();
        events.extend(on_player(&events, add(Actor::Player(player(ANN)), "My phone")).unwrap());
        events
    }

    #[test]
    fn a_player_adds_a_passkey_to_their_own_record_with_a_name() {
        let events =
            on_player(&registered(), add(Actor::Player(player(ANN)), "  My phone ")).unwrap();
        assert_eq!(
            events,
            [DomainEvent::Player(PlayerEvent::PasskeyAdded(PasskeyAdded {
                player_id: player(ANN),
                passkey_id: KEY,
                credential: PersonalText::Plain("credential".into()),
                name: PersonalText::Plain("My phone".into()),
            }))]
        );
        assert_eq!(given::<Player>(&with_passkey()).passkeys(), [KEY]);
    }

    #[test]
    fn nobody_adds_a_passkey_for_someone_else_not_even_the_site_admin() {
        for actor in [Actor::Admin, Actor::Player(player(61))] {
            let error = on_player(&registered(), add(actor, "theirs")).unwrap_err();
            assert_eq!(error.code(), ErrorCode::Forbidden, "{actor}");
        }
    }

    #[test]
    fn a_passkey_needs_a_name_and_the_same_passkey_is_added_once() {
        let error = on_player(&registered(), add(Actor::Player(player(ANN)), " ")).unwrap_err();
        assert_eq!(error.code(), ErrorCode::BadUserInput { field: "name".into() });
        let again = on_player(&with_passkey(), add(Actor::Player(player(ANN)), "again"));
        assert_eq!(again.unwrap_err().code(), ErrorCode::Conflict);
    }

    #[test]
    fn the_player_or_the_site_admin_removes_a_passkey_and_nobody_else() {
        for actor in [Actor::Player(player(ANN)), Actor::Admin] {
            let events = on_player(&with_passkey(), remove(actor)).unwrap();
            assert_eq!(
                events,
                [DomainEvent::Player(PlayerEvent::PasskeyRemoved(PasskeyRemoved {
                    player_id: player(ANN),
                    passkey_id: KEY,
                    removed_by: actor,
                }))]
            );
            let mut after = with_passkey();
            after.extend(events);
            assert!(given::<Player>(&after).passkeys().is_empty());
            let twice = on_player(&after, remove(actor)).unwrap_err();
            assert_eq!(twice, DomainError::PasskeyNotFound(KEY));
        }
        let other = on_player(&with_passkey(), remove(Actor::Player(player(61)))).unwrap_err();
        assert_eq!(other.code(), ErrorCode::Forbidden);
    }

    #[test]
    fn an_erasure_ends_every_passkey_and_an_erased_player_adds_none() {
        let mut events = with_passkey();
        events.extend(on_player(&events, erase_command()).unwrap());
        assert!(given::<Player>(&events).passkeys().is_empty());
        let error = on_player(&events, add(Actor::Player(player(ANN)), "later")).unwrap_err();
        assert!(error.to_string().contains("was erased"), "{error}");
    }

    fn erase_command() -> PlayerCommand {
        ErasePlayer { actor: Actor::Admin, player_id: player(ANN), reason: "asked".into() }.into()
    }
}

mod identities {
    use super::erasure::{ANN, on_player, registered};
    use super::*;

    const ISSUER: &str = "https://id.club.example";

    fn link(actor: Actor, subject: &str) -> PlayerCommand {
        LinkIdentity {
            actor,
            player_id: player(ANN),
            issuer: ISSUER.into(),
            subject: subject.into(),
        }
        .into()
    }

    fn unlink(actor: Actor) -> PlayerCommand {
        UnlinkIdentity { actor, player_id: player(ANN), issuer: ISSUER.into() }.into()
    }

    #[test]
    fn a_player_links_an_identity_of_the_provider_to_their_own_record_only() {
        let ann = Actor::Player(player(ANN));
        let events = on_player(&registered(), link(ann, "sub-123")).unwrap();
        assert_eq!(
            events,
            [DomainEvent::Player(PlayerEvent::IdentityLinked(IdentityLinked {
                player_id: player(ANN),
                issuer: ISSUER.into(),
                subject: PersonalText::Plain("sub-123".into()),
            }))]
        );
        for actor in [Actor::Admin, Actor::Player(player(71))] {
            let error = on_player(&registered(), link(actor, "sub-123")).unwrap_err();
            assert_eq!(error.code(), ErrorCode::Forbidden);
        }
    }

    #[test]
    fn one_identity_per_provider_until_it_is_unlinked() {
        let ann = Actor::Player(player(ANN));
        let mut events = registered();
        events.extend(on_player(&events, link(ann, "sub-123")).unwrap());
        let error = on_player(&events, link(ann, "sub-456")).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Conflict);
        assert!(error.to_string().contains("unlink it first"), "{error}");
        events.extend(on_player(&events, unlink(ann)).unwrap());
        assert!(given::<Player>(&events).identity_issuers().is_empty());
        let error = on_player(&events, unlink(Actor::Admin)).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Conflict);
        assert!(on_player(&events, link(ann, "sub-456")).is_ok());
    }

    #[test]
    fn the_site_admin_may_unlink_anyone_and_another_player_nobody() {
        let mut events = registered();
        events.extend(on_player(&events, link(Actor::Player(player(ANN)), "s")).unwrap());
        let error = on_player(&events, unlink(Actor::Player(player(71)))).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Forbidden);
        assert!(on_player(&events, unlink(Actor::Admin)).is_ok());
    }

    #[test]
    fn a_blank_or_overlong_subject_is_refused() {
        let ann = Actor::Player(player(ANN));
        for subject in ["", "  ", &"x".repeat(256)] {
            let error = on_player(&registered(), link(ann, subject)).unwrap_err();
            assert_eq!(error.code(), ErrorCode::BadUserInput { field: "subject".into() });
        }
    }

    #[test]
    fn an_erasure_unlinks_every_identity_and_an_erased_player_links_none() {
        let ann = Actor::Player(player(ANN));
        let mut events = registered();
        events.extend(on_player(&events, link(ann, "sub-123")).unwrap());
        events.push(DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
            player_id: player(ANN),
            erased_by: Actor::Admin,
            reason: "asked".into(),
        })));
        assert!(given::<Player>(&events).identity_issuers().is_empty());
        let error = on_player(&events, link(ann, "sub-123")).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Conflict);
    }
}
