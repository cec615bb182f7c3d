//! Given/when/then tests of teams (`docs/tournaments.md#teams`), and the worked examples of
//! the team standings.

use league_scoring::{BoardScoreLine, RoundScoreLine, TournamentStanding};

use super::{
    TOURNAMENT, all_present, given, report_round, seed, settings, then, when, with_entrants,
};
use crate::fixtures::player;
use crate::*;

fn rules(rules: TeamRules) -> ChangeTeamRules {
    ChangeTeamRules { actor: Actor::Admin, tournament_id: TOURNAMENT, rules }
}

fn create(name: &str) -> CreateTeam {
    CreateTeam { actor: Actor::Admin, tournament_id: TOURNAMENT, name: name.into() }
}

fn add(team: u32, n: u128) -> AddTeamMember {
    AddTeamMember { actor: Actor::Admin, tournament_id: TOURNAMENT, team, player_id: player(n) }
}

fn remove(team: u32, n: u128) -> RemoveTeamMember {
    RemoveTeamMember { actor: Actor::Admin, tournament_id: TOURNAMENT, team, player_id: player(n) }
}

/// 14 entrants in two rounds; teams 1 "North" (players 1, 2) and 2 "South" (3, 4).
fn two_teams() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 14);
    then(&mut events, create("North"));
    then(&mut events, create("South"));
    for (team, n) in [(1, 1), (1, 2), (2, 3), (2, 4)] {
        then(&mut events, add(team, n));
    }
    events
}

fn board_of(tournament: &Tournament, round: u32, n: u128) -> u32 {
    tournament.round(round).unwrap().boards.iter().find(|b| b.is_seated(player(n))).unwrap().number
}

fn bad(field: &str) -> ErrorCode {
    ErrorCode::BadUserInput { field: field.into() }
}

fn code(events: &[DomainEvent], command: impl Into<TournamentCommand>) -> ErrorCode {
    when(events, command).unwrap_err().code()
}

#[test]
fn a_director_makes_teams_renames_and_dissolves_them() {
    // Given two teams of two
    let mut events = two_teams();
    let teams: Vec<Team> = given(&events).teams().cloned().collect();
    assert_eq!(teams.len(), 2);
    assert_eq!(
        (teams[0].name.as_str(), teams[0].members.clone()),
        ("North", vec![player(1), player(2)])
    );
    // When North is renamed and South dissolved
    then(
        &mut events,
        RenameTeam {
            actor: Actor::Admin,
            tournament_id: TOURNAMENT,
            team: 1,
            name: " Nord ".into(),
        },
    );
    then(&mut events, DissolveTeam { actor: Actor::Admin, tournament_id: TOURNAMENT, team: 2 });
    // Then one team stands, and South's members may join another team
    let tournament = given(&events);
    assert_eq!(tournament.teams().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Nord"]);
    assert!(tournament.team_of(player(3)).is_none());
    then(&mut events, create("South"));
    then(&mut events, add(3, 3));
    then(&mut events, remove(1, 2));
    assert_eq!(given(&events).team_of(player(3)).map(|t| t.team), Some(3));
    assert!(given(&events).team_of(player(2)).is_none());
}

#[test]
fn team_changes_are_refused_with_typed_errors() {
    let mut events = two_teams();
    let by_player = CreateTeam { actor: Actor::Player(player(5)), ..create("East") };
    assert_eq!(code(&events, by_player), ErrorCode::Forbidden);
    assert_eq!(code(&events, create("north")), ErrorCode::Conflict);
    assert_eq!(code(&events, create("  ")), bad("name"));
    assert_eq!(code(&events, add(9, 5)), ErrorCode::NotFound);
    assert_eq!(code(&events, add(2, 1)), ErrorCode::Conflict, "an entrant is in one team");
    assert_eq!(code(&events, add(1, 99)), bad("playerId"), "not an entrant");
    assert_eq!(code(&events, remove(1, 3)), bad("playerId"), "not in that team");
    let rename = RenameTeam {
        actor: Actor::Admin,
        tournament_id: TOURNAMENT,
        team: 1,
        name: "South".into(),
    };
    assert_eq!(code(&events, rename), ErrorCode::Conflict);
    // A size limit of two: North is full; a limit below a team's size is refused.
    then(&mut events, rules(TeamRules { max_size: Some(2), ..TeamRules::default() }));
    let full = when(&events, add(1, 5)).unwrap_err();
    assert_eq!(full.code(), ErrorCode::Conflict);
    assert!(full.to_string().contains("at most 2 members"), "{full}");
    then(&mut events, rules(TeamRules::default()));
    then(&mut events, add(1, 5));
    assert_eq!(
        code(&events, rules(TeamRules { max_size: Some(2), ..TeamRules::default() })),
        ErrorCode::Conflict
    );
    assert_eq!(
        code(&events, rules(TeamRules { max_size: Some(1), ..TeamRules::default() })),
        bad("maxSize")
    );
    assert_eq!(
        code(&events, rules(TeamRules { team_rounds: Some(vec![3]), ..TeamRules::default() })),
        bad("teamRounds")
    );
    assert_eq!(
        code(&events, rules(TeamRules { best: Some(0), ..TeamRules::default() })),
        bad("best")
    );
    assert_eq!(code(&events, rules(TeamRules::default())), ErrorCode::Conflict, "unchanged");
}

#[test]
fn team_mates_never_share_a_board_in_a_team_round_and_the_seeding_verifies() {
    // Given two teams of two and 14 present (two boards), every round a team round
    let mut events = two_teams();
    all_present(&mut events, 14, 1);
    // When round 1 is seeded
    then(&mut events, seed(1));
    // Then each team has one member on each board
    let tournament = given(&events);
    assert_ne!(board_of(&tournament, 1, 1), board_of(&tournament, 1, 2));
    assert_ne!(board_of(&tournament, 1, 3), board_of(&tournament, 1, 4));
    let request = tournament.seeding_request(1, 7, &[], &[]).unwrap();
    assert_eq!(request.teams.len(), 2);
    // And re-running the recorded seeding from the log before it gives the same boards
    let checks = Tournament::verify_seeding(&events);
    assert!(checks.iter().all(SeedingCheck::verified), "{checks:?}");
    // And whether round 1 was a team round stays as it was
    let only_round_2 = rules(TeamRules { team_rounds: Some(vec![2]), ..TeamRules::default() });
    assert_eq!(code(&events, only_round_2), ErrorCode::Conflict);
}

#[test]
fn a_team_larger_than_the_board_count_cannot_be_kept_apart() {
    let mut events = two_teams();
    then(&mut events, add(1, 5));
    all_present(&mut events, 14, 1);
    let refused = when(&events, seed(1)).unwrap_err();
    assert_eq!(refused.code(), ErrorCode::Conflict);
    assert!(refused.to_string().contains("only 2 boards"), "{refused}");
    // Round 1 made no team round: it seeds, and its request names no team.
    then(&mut events, rules(TeamRules { team_rounds: Some(vec![2]), ..TeamRules::default() }));
    assert!(given(&events).seeding_request(1, 7, &[], &[]).unwrap().teams.is_empty());
    then(&mut events, seed(1));
}

#[test]
fn team_standings_follow_the_results_as_they_arrive() {
    // Given two teams kept apart in round 1
    let mut events = two_teams();
    all_present(&mut events, 14, 1);
    then(&mut events, seed(1));
    assert!(given(&events).team_standings().unwrap().iter().all(|t| t.total == 0.0));
    // When every board is reported
    report_round(&mut events, 1);
    // Then each team adds its members' board scores
    let tournament = given(&events);
    let standings = tournament.standings(None).unwrap();
    let score = |n: u128| standings.iter().find(|s| s.player == player(n)).unwrap().total;
    let teams = tournament.team_standings().unwrap();
    let north = teams.iter().find(|t| t.name == "North").unwrap();
    assert!((north.total - (score(1) + score(2))).abs() < 0.001, "{teams:?}");
    assert_eq!(north.scores.len(), 2);
    assert!(teams[0].total >= teams[1].total);
}

fn standing(player_n: u128, rounds: &[(u32, &[f64])]) -> TournamentStanding<PlayerId> {
    TournamentStanding {
        rank: 0,
        player: player(player_n),
        total: 0.0,
        rounds: rounds
            .iter()
            .map(|(round, boards)| RoundScoreLine {
                round: *round,
                score: boards.iter().copied().reduce(f64::max),
                sat_out: false,
                dropped: false,
                boards: (1..)
                    .zip(boards.iter())
                    .map(|(board, &score)| BoardScoreLine { board, score, dropped: false })
                    .collect(),
            })
            .collect(),
        games: 0,
        wins: 0,
        draws: 0,
        notes: Vec::new(),
        separated_by: None,
        unranked: false,
    }
}

fn team(number: u32, name: &str, members: &[u128]) -> Team {
    Team { team: number, name: name.into(), members: members.iter().map(|n| player(*n)).collect() }
}

/// The worked example of `docs/tournaments.md#teams`.
#[test]
fn worked_example_sum_or_best_two_ties_shared() {
    let teams = [team(1, "North", &[1, 2]), team(2, "South", &[3, 4]), team(3, "East", &[5, 6])];
    let standings = [
        standing(1, &[(1, &[40.0]), (2, &[10.0])]),
        standing(2, &[(1, &[25.0])]),
        standing(3, &[(1, &[30.0]), (2, &[20.0])]),
        standing(4, &[(2, &[15.0])]),
        standing(5, &[(1, &[35.0])]),
        standing(6, &[(1, &[30.0]), (2, &[0.0])]),
    ];
    let table = |rules: &TeamRules| -> Vec<(u32, String, f64)> {
        rank_teams(rules, &teams, &standings)
            .into_iter()
            .map(|t| (t.rank, t.name, t.total))
            .collect()
    };
    let sum = TeamRules::default();
    assert_eq!(
        table(&sum),
        [(1, "North".into(), 75.0), (2, "East".into(), 65.0), (2, "South".into(), 65.0)]
    );
    let best_two = TeamRules { best: Some(2), ..TeamRules::default() };
    assert_eq!(
        table(&best_two),
        [(1, "East".into(), 65.0), (1, "North".into(), 65.0), (3, "South".into(), 50.0)]
    );
    let ranked = rank_teams(&best_two, &teams, &standings);
    let north = ranked.iter().find(|t| t.name == "North").unwrap();
    let counted: Vec<(f64, bool)> = north.scores.iter().map(|s| (s.score, s.counted)).collect();
    assert_eq!(counted, [(40.0, true), (25.0, true), (10.0, false)]);
    // Round 2 only a team round: North 10, South 20 + 15, East 0.
    let round_two = TeamRules { team_rounds: Some(vec![2]), ..TeamRules::default() };
    assert_eq!(
        table(&round_two),
        [(1, "South".into(), 35.0), (2, "North".into(), 10.0), (3, "East".into(), 0.0)]
    );
}

#[test]
fn round_basis_counts_a_round_once_under_the_round_scoring() {
    let teams = [team(1, "North", &[1])];
    let standings = [standing(1, &[(1, &[12.0, 30.0])])];
    let by_board = rank_teams(&TeamRules::default(), &teams, &standings);
    assert_eq!(by_board[0].total, 42.0);
    let by_round = TeamRules { basis: TeamScoreBasis::Round, ..TeamRules::default() };
    let by_round = rank_teams(&by_round, &teams, &standings);
    assert_eq!((by_round[0].total, by_round[0].scores[0].board), (30.0, None));
}

/// One of each team event, for the golden file.
pub(crate) fn one_of_each_teams_event() -> Vec<DomainEvent> {
    let mut events = with_entrants(settings(2), 14);
    let start = events.len();
    then(
        &mut events,
        rules(TeamRules {
            max_size: Some(3),
            team_rounds: Some(vec![2]),
            basis: TeamScoreBasis::Round,
            best: Some(4),
        }),
    );
    then(&mut events, create("North"));
    then(
        &mut events,
        RenameTeam { actor: Actor::Admin, tournament_id: TOURNAMENT, team: 1, name: "Nord".into() },
    );
    then(&mut events, add(1, 1));
    then(&mut events, remove(1, 1));
    then(&mut events, DissolveTeam { actor: Actor::Admin, tournament_id: TOURNAMENT, team: 1 });
    events.split_off(start)
}
