//! The catalogue (`docs/scoring.md#the-catalogue`): every system's facts, the names it answers
//! to, and the docs table listing it.

use std::collections::HashMap;
use std::str::FromStr;

use league_scoring::{
    ConcessionScoring, ResultField, ResultKind, ScoringSystem, SystemInfo, catalogue,
};

#[test]
fn every_name_belongs_to_one_system() {
    let mut owners: HashMap<String, ScoringSystem> = HashMap::new();
    for info in catalogue() {
        let names = [info.name, info.graphql_name, info.display_name];
        for name in names.into_iter().chain(info.aliases.iter().copied()) {
            let previous = owners.insert(name.to_lowercase(), info.system);
            assert!(
                previous.is_none_or(|owner| owner == info.system),
                "`{name}` names both {} and {}",
                previous.unwrap(),
                info.system
            );
            assert_eq!(ScoringSystem::from_str(name).unwrap(), info.system, "{name}");
        }
    }
}

#[test]
fn names_parse_whatever_their_case() {
    let parse = |name: &str| ScoringSystem::from_str(name).unwrap();
    assert_eq!(parse("ranked-classic-v2"), ScoringSystem::RankedClassicV2);
    assert_eq!(parse("RANKED_CLASSIC_V2"), ScoringSystem::RankedClassicV2);
    assert_eq!(parse("Ranked Classic v2"), ScoringSystem::RankedClassicV2);
    assert_eq!(parse("sum of squares"), ScoringSystem::Squares);
    assert_eq!(parse("Center-count Carnage"), ScoringSystem::CarnageCentreCount);
    assert_eq!(parse(" CDiplo 100 "), ScoringSystem::CDiplo100);
    let error = ScoringSystem::from_str("ranked classic v3").unwrap_err();
    assert_eq!(error.field(), "system");
}

#[test]
fn the_facts_fit_each_result_shape() {
    for info in catalogue() {
        assert_eq!(info, info.system.info());
        assert!(!info.rule.is_empty() && !info.source.is_empty(), "{}", info.name);
        let players = info.players_per_game;
        match info.result_kind {
            ResultKind::Diplomacy => {
                assert!(players.contains(7) && !players.contains(6) && !players.contains(8));
                assert!(info.needs.contains(&ResultField::Centres), "{}", info.name);
                assert_ne!(info.concession, ConcessionScoring::NoConcession, "{}", info.name);
            }
            ResultKind::Placement => {
                assert!((2..=8).all(|k| players.contains(k)));
                assert!(!players.contains(1) && !players.contains(9));
                assert_eq!(info.concession, ConcessionScoring::NoConcession);
            }
            ResultKind::Teams => {
                assert!(players.contains(2) && players.contains(64) && !players.contains(1));
                assert_eq!(info.concession, ConcessionScoring::NoConcession);
            }
        }
    }
}

#[test]
fn the_facts_serialise_for_every_surface() {
    let info: SystemInfo = ScoringSystem::SevenEleven.info();
    let json = serde_json::to_value(&info).unwrap();
    assert_eq!(json["system"], "7eleven");
    assert_eq!(json["graphqlName"], "SEVEN_ELEVEN");
    assert_eq!(json["displayName"], "7Eleven");
    assert_eq!(json["resultKind"], "diplomacy");
    assert_eq!(json["playersPerGame"], serde_json::json!({"min": 7, "max": 7}));
    assert_eq!(json["needs"], serde_json::json!(["centres", "earlierCentres"]));
    assert_eq!(json["concession"], "asDraw");
    assert_eq!(ScoringSystem::Baf.players_per_game().to_string(), "exactly 7");
    assert_eq!(ScoringSystem::Placement.players_per_game().to_string(), "2 to 8");
    assert_eq!(ScoringSystem::WoodenShips.players_per_game().to_string(), "at least 2");
    let teams = serde_json::to_value(ScoringSystem::BlueMax.info()).unwrap();
    assert_eq!(teams["playersPerGame"], serde_json::json!({"min": 2, "max": null}));
}

#[test]
fn the_docs_list_every_system() {
    let docs = include_str!("../../../docs/scoring.md");
    for info in catalogue() {
        let row = format!("| `{}` / `{}` |", info.name, info.graphql_name);
        assert!(docs.contains(&row), "docs/scoring.md has no row {row}");
        let section = info.description.rsplit("docs/scoring.md#").next().unwrap();
        let anchor = section.trim_end_matches(").");
        let heading = docs.lines().filter_map(|line| line.strip_prefix('#')).any(|heading| {
            let slug: String = heading
                .trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' => Some(c),
                    _ => None,
                })
                .collect();
            slug == anchor
        });
        assert!(heading, "docs/scoring.md has no section #{anchor} for {}", info.name);
    }
}
