//! `league systems` through the real binary: the table lists every system of the scoring
//! catalogue with its facts and aliases, and `--json` prints the catalogue itself (and the
//! aggregations, the tournament and round scorings), so the command can never disagree with
//! what the platform scores.

use league_scoring::{Aggregation, catalogue, round_scorings, tournament_scorings};
use serde_json::Value;

use crate::score::{json_stdout, league};

#[test]
fn the_table_lists_every_system_with_its_facts() {
    let output = league(&["systems"], "");
    assert!(output.status.success(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let header = text.lines().next().unwrap();
    for column in ["NAME", "DISPLAY NAME", "ALIASES", "RESULT", "PLAYERS", "CONCESSION", "SOURCE"] {
        assert!(header.contains(column), "{column} missing from {header:?}");
    }
    for info in catalogue() {
        let line = text
            .lines()
            .find(|line| line.split("  ").next() == Some(info.name))
            .unwrap_or_else(|| panic!("no line for {}", info.name));
        assert!(line.contains(info.display_name), "{line}");
        assert!(line.contains(&info.players_per_game.to_string()), "{line}");
        assert!(line.contains(info.source), "{line}");
        for alias in info.aliases {
            assert!(line.contains(alias), "alias {alias} missing: {line}");
        }
    }
    let baf = text.lines().find(|line| line.starts_with("baf ")).unwrap();
    assert!(
        baf.contains("Diplomacy") && baf.contains("exactly 7") && baf.contains("draw"),
        "{baf}"
    );
    let bangkok = text.lines().find(|line| line.starts_with("bangkok ")).unwrap();
    assert!(bangkok.contains("centres, eliminatedYear") && bangkok.contains("solo"), "{bangkok}");
    for kind in Aggregation::KINDS {
        assert!(text.lines().any(|line| line.starts_with(kind.cli)), "{} missing", kind.cli);
    }
}

#[test]
fn json_is_the_catalogue() {
    let json = json_stdout(&league(&["systems", "--json"], ""));
    assert_eq!(json["systems"], serde_json::to_value(catalogue()).unwrap());
    assert_eq!(json["aggregations"], serde_json::to_value(Aggregation::KINDS).unwrap());
    assert_eq!(json["tournamentScorings"], serde_json::to_value(tournament_scorings()).unwrap());
    assert_eq!(json["roundScorings"], serde_json::to_value(round_scorings()).unwrap());
    let squares = json["systems"].as_array().unwrap().iter().find(|s| s["name"] == "squares");
    assert_eq!(squares.unwrap()["aliases"], Value::from(vec!["Sum of Squares"]));
}
