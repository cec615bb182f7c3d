//! `league systems`: the scoring catalogue (`league_scoring::catalogue()`), the league
//! aggregations (`Aggregation::KINDS`), the tournament scorings (`tournament_scorings()`) and the
//! round scorings (`round_scorings()`) as tables, or as JSON with `--json`. A thin printer: every
//! fact comes from the catalogues, so a new system appears here without a change.

use std::process::ExitCode;

use league_scoring::{
    Aggregation, AggregationInfo, ConcessionScoring, ResultField, RoundScoringInfo, SystemInfo,
    TournamentScoringInfo, catalogue, round_scorings, tournament_scorings,
};
use serde::Serialize;

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct SystemsArgs {
    /// Print `{"systems":[…],"aggregations":[…],"tournamentScorings":[…],"roundScorings":[…]}`:
    /// every fact of the catalogues (names, aliases, result shape, players per game, needed
    /// fields, concession, rule, source; each tournament and round scoring's id and rule).
    #[arg(long)]
    pub json: bool,
}

/// The catalogue as `--json` prints it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CatalogueOutput {
    systems: Vec<SystemInfo>,
    aggregations: &'static [AggregationInfo],
    tournament_scorings: Vec<TournamentScoringInfo>,
    round_scorings: Vec<RoundScoringInfo>,
}

/// `league systems`: one line per scoring system, then one per aggregation, per tournament
/// scoring and per round scoring.
pub fn run(args: SystemsArgs) -> Result<ExitCode, CliError> {
    let systems = catalogue();
    let text = if args.json {
        let output = CatalogueOutput {
            systems,
            aggregations: &Aggregation::KINDS,
            tournament_scorings: tournament_scorings(),
            round_scorings: round_scorings(),
        };
        let json = serde_json::to_string_pretty(&output).map_err(anyhow::Error::from)?;
        format!("{json}\n")
    } else {
        let mut rows = vec![
            [
                "NAME",
                "DISPLAY NAME",
                "ALIASES",
                "RESULT",
                "PLAYERS",
                "A RESULT CARRIES",
                "CONCESSION",
                "SOURCE",
            ]
            .map(str::to_owned)
            .to_vec(),
        ];
        rows.extend(systems.iter().map(|info| {
            vec![
                info.name.to_owned(),
                info.display_name.to_owned(),
                info.aliases.join(", "),
                info.result_kind.to_string(),
                info.players_per_game.to_string(),
                info.needs.iter().map(|field| field_name(*field)).collect::<Vec<_>>().join(", "),
                concession(info.concession).to_owned(),
                info.source.to_owned(),
            ]
        }));
        let mut aggregations =
            vec![["AGGREGATION", "DISPLAY NAME", "TOTAL"].map(str::to_owned).to_vec()];
        aggregations.extend(Aggregation::KINDS.iter().map(|kind| {
            vec![kind.cli.to_owned(), kind.display_name.to_owned(), kind.rule.to_owned()]
        }));
        let mut tournaments = vec![
            ["TOURNAMENT SCORING", "DISPLAY NAME", "COMBINES", "TOTAL"].map(str::to_owned).to_vec(),
        ];
        tournaments.extend(tournament_scorings().into_iter().map(|scoring| {
            let combines = if scoring.uses_round_scores { "rounds" } else { "games" };
            vec![scoring.id, scoring.name, combines.to_owned(), scoring.description]
        }));
        let mut rounds =
            vec![["ROUND SCORING", "DISPLAY NAME", "ROUND SCORE"].map(str::to_owned).to_vec()];
        rounds.extend(
            round_scorings()
                .into_iter()
                .map(|scoring| vec![scoring.id, scoring.name, scoring.description]),
        );
        format!(
            "{}\n{}\n{}\n{}",
            table(&rows),
            table(&aggregations),
            table(&tournaments),
            table(&rounds)
        )
    };
    super::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The field's name in a result's JSON, as `--json` spells it (`eliminatedYear`).
fn field_name(field: ResultField) -> String {
    serde_json::to_value(field)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{field:?}"))
}

/// How a concession scores, in a word (`docs/scoring.md#draws-and-concessions`).
fn concession(scoring: ConcessionScoring) -> &'static str {
    match scoring {
        ConcessionScoring::AsSolo => "solo",
        ConcessionScoring::AsDraw => "draw",
        ConcessionScoring::NoConcession => "-",
    }
}

/// Rows as left-aligned columns two spaces apart (the last column unpadded).
fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|column| rows.iter().map(|row| row[column].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(&widths) {
            line.push_str(&format!("{cell:<width$}  "));
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}
