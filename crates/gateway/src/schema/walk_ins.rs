//! Walk-ins and bulk entry (`docs/tournaments.md#walk-ins-and-bulk-entry`): `walkInsPreview`
//! reads an organiser's list and says which names match registered players and which lines
//! are bad; `walkIns` registers and enters everyone in one step. The decisions are
//! [`App::walk_ins_preview`] and [`App::walk_ins`]; these resolvers map arguments only.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use league_app::{NewToken, UseExisting};

use super::players::types::Player;
use crate::auth::{generate_token, hash_token};
use crate::error::GatewayResult;
use crate::schema::context::{app, caller, subject};
use crate::schema::inputs::parse_id;

/// An id of a person on another site, from a list's column (`wdr`: World Diplomacy
/// Reference). Recorded on the player when the list is committed
/// (`docs/tournaments.md#external-ids`).
#[derive(Debug, SimpleObject)]
pub struct ExternalId {
    /// The column's name, e.g. `wdr`.
    pub system: String,
    pub id: String,
}

/// A bad line of a list: nothing is registered while the list has one.
#[derive(Debug, SimpleObject)]
pub struct WalkInProblem {
    /// The line (1-based).
    pub line: i32,
    /// `name`, `header`, `line` or an external id column.
    pub field: String,
    pub message: String,
}

/// A registered player whose name matches a line's (case- and accent-insensitively).
#[derive(SimpleObject)]
pub struct WalkInMatch {
    pub player: Player,
    /// Already entered in (subscribed to) the competition.
    pub entered: bool,
}

/// One person of a list, with the players their name matches.
#[derive(SimpleObject)]
pub struct WalkInPreviewLine {
    pub line: i32,
    pub name: String,
    pub external_ids: Vec<ExternalId>,
    /// Registered players of the same name: pick one (`useExisting`) to enter them
    /// instead of registering someone new.
    pub matches: Vec<WalkInMatch>,
    /// Earlier lines of the list with the same name.
    pub same_name_as_lines: Vec<i32>,
}

/// What `walkIns` would do with a list.
#[derive(SimpleObject)]
pub struct WalkInPreview {
    pub lines: Vec<WalkInPreviewLine>,
    pub problems: Vec<WalkInProblem>,
}

/// A line whose person is a registered player: enter them, register nobody.
#[derive(Debug, InputObject)]
pub struct UseExistingInput {
    pub line: i32,
    pub player_id: ID,
}

/// `walkIns` input.
#[derive(Debug, InputObject)]
pub struct WalkInsInput {
    /// A tournament (entered) or a league (subscribed).
    pub competition_id: ID,
    /// The list: CSV, a person per line; a first line `name,wdr,…` names the external id
    /// columns, without it a line is `name` or `name,wdr`.
    pub list: String,
    /// Lines whose person is a registered player (none: everyone is registered).
    pub use_existing: Option<Vec<UseExistingInput>>,
}

/// One person of a committed list.
#[derive(SimpleObject)]
pub struct WalkedIn {
    pub line: i32,
    pub player: Player,
    /// Registered by this call.
    pub registered: bool,
    /// Entered by this call (`false`: entered already).
    pub entered: bool,
    /// A new player's bearer token, shown only this once.
    pub token: Option<String>,
}

/// Walk-in reads (merged into the query root).
#[derive(Debug, Default)]
pub struct WalkInsQuery;

#[Object]
impl WalkInsQuery {
    /// The competition's organisers and the site admin: what `walkIns` would do with
    /// `list` (appends nothing).
    async fn walk_ins_preview(
        &self,
        ctx: &Context<'_>,
        competition_id: ID,
        list: String,
    ) -> GatewayResult<WalkInPreview> {
        let actor = caller(ctx).actor()?;
        let competition = parse_id(&competition_id, "competitionId")?;
        let app = app(ctx);
        let preview = app.walk_ins_preview(actor, competition, &list).await?;
        let lines = preview
            .lines
            .into_iter()
            .map(|line| WalkInPreviewLine {
                line: as_i32(line.person.line),
                name: line.person.name,
                external_ids: external_ids(line.person.external_ids),
                matches: line
                    .matches
                    .into_iter()
                    .map(|m| WalkInMatch {
                        player: Player::new(app.clone(), m.player_id),
                        entered: m.entered,
                    })
                    .collect(),
                same_name_as_lines: line.same_name_as_lines.into_iter().map(as_i32).collect(),
            })
            .collect();
        Ok(WalkInPreview { lines, problems: problems(preview.problems) })
    }
}

/// Walk-in changes (merged into the mutation root).
#[derive(Debug, Default)]
pub struct WalkInsMutation;

#[Object]
impl WalkInsMutation {
    /// The competition's organisers (appointed organisers, to register anyone new) and the
    /// site admin: registers every person of the list but those `useExisting` names, and
    /// enters them all in the competition. A bad line refuses the whole list; sending the
    /// same list again registers and enters nobody twice.
    async fn walk_ins(
        &self,
        ctx: &Context<'_>,
        input: WalkInsInput,
    ) -> GatewayResult<Vec<WalkedIn>> {
        let actor = caller(ctx).actor()?;
        let competition = parse_id(&input.competition_id, "competitionId")?;
        let existing = input
            .use_existing
            .iter()
            .flatten()
            .map(|pick| {
                let player_id = parse_id(&pick.player_id, "useExisting.playerId")?;
                Ok(UseExisting { line: usize::try_from(pick.line).unwrap_or(0), player_id })
            })
            .collect::<GatewayResult<Vec<_>>>()?;
        let app = app(ctx);
        let new_token = || {
            let token = generate_token();
            NewToken { hash: hash_token(&token), token }
        };
        let walked_in = app.walk_ins(actor, competition, &input.list, &existing, new_token).await?;
        Ok(walked_in
            .into_iter()
            .map(|w| WalkedIn {
                line: as_i32(w.line),
                player: Player::new(app.clone(), w.player_id),
                registered: w.registered,
                entered: w.entered,
                token: w.token,
            })
            .collect())
    }

    /// Records the id a player has in another system (`system`: `wdr` for the World
    /// Diplomacy Reference, a positive number): the calling player's own (`playerId`
    /// omitted or their own), a player of a competition the caller organises, or anyone's
    /// for the site admin. A later id of the same system replaces it in exports.
    async fn record_external_id(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
        system: String,
        id: String,
    ) -> GatewayResult<bool> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        app(ctx).record_external_id(actor, player, &system, &id).await?;
        Ok(true)
    }
}

fn as_i32(line: usize) -> i32 {
    i32::try_from(line).unwrap_or(i32::MAX)
}

fn external_ids(ids: Vec<league_app::ExternalId>) -> Vec<ExternalId> {
    ids.into_iter().map(|e| ExternalId { system: e.system, id: e.id }).collect()
}

fn problems(problems: Vec<league_app::LineProblem>) -> Vec<WalkInProblem> {
    problems
        .into_iter()
        .map(|p| WalkInProblem { line: as_i32(p.line), field: p.field, message: p.message })
        .collect()
}
