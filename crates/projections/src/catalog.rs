//! [`Catalog`]: the small, always-resident index of the platform — every league's settings,
//! status, roster and organisers, every player (with the token-hash lookup, which follows
//! rotations and revocations, the organiser right and the leagues they joined), and which
//! league each game belongs to. It is folded from the catalog event types only
//! ([`CATALOG_EVENT_TYPES`]); games, results and standings live in each league's own model
//! (a [`ReadModel`](crate::ReadModel) folded from the league's stream, loaded on demand).
//! See `docs/architecture.md`.

use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use std::sync::LazyLock;

use league_domain::{
    DomainEvent, EventType, LeagueEvent, LeagueSettings, LeagueStatus, Organisers, PlayerEvent,
    TournamentEvent, TournamentPlayerEntered, TournamentPlayerPromoted, TournamentSettings,
    TournamentStatus,
};
use league_domain::{SeriesBasis, SeriesEvent};
use league_store::{EventStore, RecordedEvent};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::decode::EventMeta;
use crate::decode::{decode, decode_row, meta_of};
use crate::error::ProjectionError;
use crate::players::{LinkedIdentity, PlayerView};
use crate::players::{PersonKeys, PlayerRegistry, person_keys};

mod games;
pub(crate) mod snapshot;

use games::{GameIndex, tag_of};

pub use snapshot::{
    CATALOG_SNAPSHOT, CATALOG_SNAPSHOT_FORMAT, SnapshotCheck, SnapshotRejected, snapshot_of,
    verify_catalog_snapshot,
};

/// The event types the catalog folds (their lines in the rooms' lists of event types say
/// `catalog`, [`EventType::in_catalog`]); every other event leaves it unchanged.
pub static CATALOG_EVENT_TYPES: LazyLock<Vec<EventType>> =
    LazyLock::new(|| EventType::ALL.iter().copied().filter(|t| t.in_catalog()).collect());

/// Whether the catalog folds events of this type.
pub fn is_catalog_event(event_type: &str) -> bool {
    EventType::parse(event_type).is_ok_and(EventType::in_catalog)
}

/// A league as the catalog knows it: settings, status and roster (no games or results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeagueSummary {
    pub id: Uuid,
    /// The settings it was created with.
    pub settings: LeagueSettings,
    pub status: LeagueStatus,
    /// Subscribed players, in subscription order.
    pub players: Vec<Uuid>,
    pub created_at: DateTime<Utc>,
    /// When its last game finished (`None` while it runs): no game of it finished later.
    pub completed_at: Option<DateTime<Utc>>,
    /// Who organises it besides the site admin.
    pub organisers: Organisers,
    /// Games scheduled (numbered 1 to this; 0 while the league is open).
    pub games: u32,
}

/// A tournament as the catalog knows it: settings, status, entrants (no rounds or results:
/// those are folded from the tournament's own stream).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub id: Uuid,
    pub settings: TournamentSettings,
    pub status: TournamentStatus,
    /// Entrants in entry order, withdrawn ones included.
    pub entrants: Vec<Uuid>,
    /// Rounds seeded so far.
    pub rounds_seeded: u32,
    pub created_at: DateTime<Utc>,
    /// Who organises it besides the site admin.
    pub organisers: Organisers,
}

/// A series as the catalog knows it (`docs/series.md`): its rule and member events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeriesSummary {
    pub id: Uuid,
    pub name: String,
    /// How many of each player's results count.
    pub best: u32,
    pub basis: SeriesBasis,
    /// Member leagues and tournaments, in the order they were added.
    pub events: Vec<Uuid>,
    pub created_at: DateTime<Utc>,
    /// Who manages it besides the site admin.
    pub organisers: Organisers,
}

/// The catalog as of the last folded catalog event. Pure: no IO (but [`load_catalog`]).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    position: u64,
    players: PlayerRegistry,
    /// Player → every league they ever subscribed to (index in `leagues`), in subscription
    /// order (their finished games, for the active-player rule, are in those leagues'
    /// models). Indices, not ids: a long-time player joins thousands of leagues.
    joined: HashMap<Uuid, Vec<u32>>,
    /// Every league, in creation order.
    leagues: Vec<LeagueSummary>,
    /// League id → index in `leagues`.
    league_index: HashMap<Uuid, u32>,
    /// League ids in creation order.
    league_order: Vec<Uuid>,
    /// Game → index of its league in `leagues`, without the game ids ([`GameIndex`]).
    games: GameIndex,
    /// (league, player) pairs where the player unsubscribed: the only way a subscription
    /// can name a league the player joined before (rare, so small). Looking the league up in
    /// the player's list instead costs as many leagues as the player ever joined, per
    /// subscription: quadratic in a long history.
    departed: HashSet<(Uuid, Uuid)>,
    /// Every tournament, in creation order.
    tournaments: Vec<TournamentSummary>,
    /// Tournament id → index in `tournaments`.
    tournament_index: HashMap<Uuid, u32>,
    /// Player → the tournaments they entered (indices in `tournaments`), in entry order:
    /// derived from the entrants, so a player's pages and rights never scan every tournament.
    entered: HashMap<Uuid, Vec<u32>>,
    /// Every series, in creation order.
    series: Vec<SeriesSummary>,
    /// Series id → index in `series`.
    series_index: HashMap<Uuid, u32>,
}

impl Catalog {
    pub fn new() -> Self {
        Self::default()
    }

    /// Position of the last catalog event folded (0 before any).
    pub fn position(&self) -> u64 {
        self.position
    }

    pub fn league(&self, id: Uuid) -> Option<&LeagueSummary> {
        self.league_index.get(&id).map(|index| &self.leagues[*index as usize])
    }

    fn league_mut(
        &mut self,
        id: Uuid,
        position: u64,
    ) -> Result<&mut LeagueSummary, ProjectionError> {
        match self.league_index.get(&id) {
            Some(index) => Ok(&mut self.leagues[*index as usize]),
            None => Err(ProjectionError::inconsistent(position, format!("unknown league {id}"))),
        }
    }

    pub fn tournament(&self, id: Uuid) -> Option<&TournamentSummary> {
        self.tournament_index.get(&id).map(|index| &self.tournaments[*index as usize])
    }

    /// Every tournament, in creation order.
    pub fn tournaments(&self) -> impl Iterator<Item = &TournamentSummary> {
        self.tournaments.iter()
    }

    /// A series by id.
    pub fn series(&self, id: Uuid) -> Option<&SeriesSummary> {
        self.series_index.get(&id).map(|index| &self.series[*index as usize])
    }

    /// Every series, in creation order.
    pub fn series_list(&self) -> &[SeriesSummary] {
        &self.series
    }

    /// The series a league or tournament belongs to, in creation order.
    pub fn series_of(&self, competition: Uuid) -> impl Iterator<Item = &SeriesSummary> {
        self.series.iter().filter(move |series| series.events.contains(&competition))
    }

    fn series_mut(
        &mut self,
        id: Uuid,
        position: u64,
    ) -> Result<&mut SeriesSummary, ProjectionError> {
        let index = *self.series_index.get(&id).ok_or_else(|| {
            ProjectionError::inconsistent(position, format!("series {id} is not created"))
        })?;
        Ok(&mut self.series[index as usize])
    }

    fn apply_series(
        &mut self,
        meta: EventMeta,
        event: &SeriesEvent,
    ) -> Result<bool, ProjectionError> {
        let position = meta.position;
        match event {
            SeriesEvent::SeriesCreated(e) => {
                if self.series_index.contains_key(&e.series_id.uuid()) {
                    return Err(ProjectionError::inconsistent(
                        position,
                        format!("series {} created twice", e.series_id),
                    ));
                }
                self.series_index.insert(e.series_id.into(), self.series.len() as u32);
                self.series.push(SeriesSummary {
                    id: e.series_id.into(),
                    name: e.name.clone(),
                    best: e.best,
                    basis: e.basis,
                    events: Vec::new(),
                    created_at: meta.recorded_at,
                    organisers: Organisers::created_by(e.created_by),
                });
            }
            SeriesEvent::SeriesEventAdded(e) => {
                self.series_mut(e.series_id.into(), position)?.events.push(e.competition);
            }
            SeriesEvent::SeriesEventRemoved(e) => {
                let series = self.series_mut(e.series_id.into(), position)?;
                series.events.retain(|id| *id != e.competition);
            }
            SeriesEvent::SeriesSettingsChanged(e) => {
                let series = self.series_mut(e.series_id.into(), position)?;
                series.name = e.name.clone();
                series.best = e.best;
                series.basis = e.basis;
            }
        }
        Ok(true)
    }

    /// The scoring system of a competition (league or tournament): what rates its games.
    pub fn scoring_system_of(&self, competition: Uuid) -> Option<league_scoring::ScoringSystem> {
        self.league(competition)
            .map(|league| league.settings.scoring_system)
            .or_else(|| self.tournament(competition).map(|t| t.settings.scoring_system))
    }

    fn tournament_mut(
        &mut self,
        id: Uuid,
        position: u64,
    ) -> Result<&mut TournamentSummary, ProjectionError> {
        match self.tournament_index.get(&id) {
            Some(index) => Ok(&mut self.tournaments[*index as usize]),
            None => {
                Err(ProjectionError::inconsistent(position, format!("unknown tournament {id}")))
            }
        }
    }

    /// Moves the position to `position` (the catalog reflects every event up to it).
    pub fn advance_to(&mut self, position: u64) {
        self.position = self.position.max(position);
    }

    /// Number of leagues.
    pub fn league_count(&self) -> usize {
        self.league_order.len()
    }

    /// League ids in creation order.
    pub fn league_ids(&self) -> &[Uuid] {
        &self.league_order
    }

    /// Every league, in creation order.
    pub fn leagues(&self) -> impl Iterator<Item = &LeagueSummary> {
        self.leagues.iter()
    }

    pub fn player(&self, id: Uuid) -> Option<&PlayerView> {
        self.players.get(id)
    }

    /// Player ids in registration order.
    pub fn player_ids(&self) -> &[Uuid] {
        self.players.ids()
    }

    /// Ids of the players whose name holds `search`, ignoring case, in registration order
    /// (an erased player's name is their pseudonym; docs/api.md#finding-players).
    pub fn players_named(&self, search: &str) -> Vec<Uuid> {
        let wanted = search.to_lowercase();
        let named =
            |id: &&Uuid| self.player(**id).is_some_and(|p| p.name.to_lowercase().contains(&wanted));
        self.player_ids().iter().filter(named).copied().collect()
    }

    /// The player whose bearer token hashes to `token_hash`.
    pub fn player_by_token_hash(&self, token_hash: &str) -> Option<&PlayerView> {
        self.players.by_token_hash(token_hash)
    }

    /// The player's passkeys (`docs/sign-in.md#passkeys`), in the order added.
    pub fn passkeys(&self, player: Uuid) -> &[crate::Passkey] {
        self.players.passkeys(player)
    }

    /// The player that the identity `subject` of the provider `issuer` signs in, if linked.
    pub fn player_by_identity(&self, issuer: &str, subject: &str) -> Option<&PlayerView> {
        self.players.by_identity(issuer, subject)
    }

    /// The identity-provider identities `player` linked, in link order.
    pub fn identities(&self, player: Uuid) -> &[LinkedIdentity] {
        self.players.identities(player)
    }

    /// Whether the player is an appointed organiser now (may create competitions).
    pub fn is_organiser(&self, player: Uuid) -> bool {
        self.players.is_organiser(player)
    }

    /// Signed-in sessions and unused sign-in links (`docs/sign-in.md`).
    pub fn sign_ins(&self) -> &crate::SignIns {
        self.players.sign_ins()
    }

    /// Whether `organiser` organises a league or tournament `player` takes part in (a
    /// subscriber or an entrant): who may issue a sign-in link for the player.
    pub fn organises_player(&self, organiser: Uuid, player: Uuid) -> bool {
        let organises = |organisers: &Organisers| organisers.includes(organiser.into());
        self.tournaments_entered(player).any(|t| organises(&t.organisers))
            || self.joined.get(&player).into_iter().flatten().any(|index| {
                let league = &self.leagues[*index as usize];
                organises(&league.organisers) && league.players.contains(&player)
            })
    }

    /// Opens the sealed names whose keys are in `keys` ([`PlayerRegistry::open_names`]).
    pub fn open_names(&mut self, keys: &PersonKeys) {
        self.players.open_names(keys);
    }

    /// Whether some sealed name or subject is not opened yet.
    pub fn has_unopened_names(&self) -> bool {
        self.players.has_unopened()
    }

    /// Every tournament the player entered (withdrawn or not), in entry order.
    pub fn tournaments_entered(&self, player: Uuid) -> impl Iterator<Item = &TournamentSummary> {
        let indices = self.entered.get(&player).map(Vec::as_slice).unwrap_or_default();
        indices.iter().map(|index| &self.tournaments[*index as usize])
    }

    /// Records that `player` entered the tournament at `index` (once, however often the
    /// entrants list them).
    fn note_entry(&mut self, player: Uuid, index: u32) {
        let list = self.entered.entry(player).or_default();
        if !list.contains(&index) {
            list.push(index);
        }
    }

    /// Whether the player organises the competition (league or tournament) as its creator
    /// or a co-organiser.
    pub fn organises(&self, player: Uuid, competition: Uuid) -> bool {
        self.league(competition)
            .map(|league| &league.organisers)
            .or_else(|| self.tournament(competition).map(|t| &t.organisers))
            .is_some_and(|organisers| organisers.includes(player.into()))
    }

    /// Every league the player ever subscribed to, in subscription order (also those left).
    pub fn leagues_joined(&self, player: Uuid) -> Vec<Uuid> {
        self.joined_indices(player).iter().map(|index| self.leagues[*index as usize].id).collect()
    }

    fn joined_indices(&self, player: Uuid) -> &[u32] {
        self.joined.get(&player).map(Vec::as_slice).unwrap_or_default()
    }

    /// The leagues the player is subscribed to now, in creation order.
    pub fn leagues_of(&self, player: Uuid) -> Vec<Uuid> {
        let mut indices: Vec<u32> = self
            .joined_indices(player)
            .iter()
            .copied()
            .filter(|i| self.leagues[*i as usize].players.contains(&player))
            .collect();
        indices.sort_unstable();
        indices.dedup();
        indices.into_iter().map(|i| self.leagues[i as usize].id).collect()
    }

    /// The league a game belongs to.
    pub fn league_of_game(&self, game: Uuid) -> Option<Uuid> {
        let holds = |index: u32, game: Uuid| {
            let league = &self.leagues[index as usize];
            (1..=league.games)
                .any(|number| league_domain::game_id(league.id.into(), number) == game.into())
        };
        self.games.league_of(game, holds).map(|index| self.leagues[index as usize].id)
    }

    /// Decodes and folds one stored event (events of other types only move the position).
    pub fn apply(&mut self, recorded: &RecordedEvent) -> Result<(), ProjectionError> {
        if !is_catalog_event(&recorded.event_type) {
            return self.skip(meta_of(recorded));
        }
        let (meta, event) = decode(recorded)?;
        self.apply_event(meta, &event)
    }

    fn skip(&mut self, meta: EventMeta) -> Result<(), ProjectionError> {
        if meta.position <= self.position {
            return Err(ProjectionError::OutOfOrder { after: self.position, got: meta.position });
        }
        self.position = meta.position;
        Ok(())
    }

    /// Folds one decoded event (any type; non-catalog events only move the position).
    pub fn apply_event(
        &mut self,
        meta: EventMeta,
        event: &DomainEvent,
    ) -> Result<(), ProjectionError> {
        self.skip(meta)?;
        let folded = match event {
            // Invites are read from the log when someone signs up (`docs/operations.md#sign-up`).
            DomainEvent::Player(PlayerEvent::InviteIssued(_) | PlayerEvent::InviteRevoked(_)) => {
                false
            }
            // Keep-apart lists are read from each player's stream (at a seeding, or by their
            // owner): `docs/tournaments.md#a-players-permanent-keep-apart-list`.
            DomainEvent::Player(
                PlayerEvent::PermanentKeepApartAdded(_) | PlayerEvent::PermanentKeepApartRemoved(_),
            ) => false,
            // External ids are read from the log when asked for
            // (`docs/tournaments.md#external-ids`).
            DomainEvent::Player(PlayerEvent::ExternalIdRecorded(_)) => false,
            DomainEvent::Player(event) => {
                self.players.apply(meta, event)?;
                true
            }
            DomainEvent::League(event) => self.apply_league(meta, event)?,
            DomainEvent::Tournament(event) => self.apply_tournament(meta, event)?,
            // A player's calendar feed and webhooks are not in the catalog.
            DomainEvent::Calendar(_) | DomainEvent::Webhook(_) => false,
            DomainEvent::Series(event) => self.apply_series(meta, event)?,
        };
        // Which types the catalog folds is said once, on each type's line in its room
        // (`in catalog`): a type said so without a fold here, or folded here without it, is
        // refused loudly at its first event rather than silently left out.
        if folded != event.kind().in_catalog() {
            return Err(ProjectionError::inconsistent(
                meta.position,
                format!("the catalog's fold and {}'s `in catalog` disagree", event.event_type()),
            ));
        }
        Ok(())
    }

    fn apply_league(
        &mut self,
        meta: EventMeta,
        event: &LeagueEvent,
    ) -> Result<bool, ProjectionError> {
        let position = meta.position;
        match event {
            LeagueEvent::LeagueCoOrganiserAdded(e) => {
                self.league_mut(e.league_id.into(), position)?.organisers.add(e.player_id);
            }
            LeagueEvent::LeagueCreated(e) => {
                if self.league_index.contains_key(&e.league_id.uuid()) {
                    return Err(ProjectionError::inconsistent(
                        position,
                        format!("league {} created twice", e.league_id),
                    ));
                }
                self.league_index.insert(e.league_id.into(), self.leagues.len() as u32);
                self.league_order.push(e.league_id.into());
                self.leagues.push(LeagueSummary {
                    id: e.league_id.into(),
                    settings: e.settings.clone(),
                    status: LeagueStatus::Open,
                    players: Vec::with_capacity(e.settings.size as usize),
                    created_at: meta.recorded_at,
                    completed_at: None,
                    organisers: Organisers::created_by(e.created_by),
                    games: 0,
                });
            }
            LeagueEvent::PlayerSubscribed(e) => {
                self.league_mut(e.league_id.into(), position)?.players.push(e.player_id.into());
                if self.players.get(e.player_id.into()).is_some()
                    && !self.departed.contains(&(e.league_id.into(), e.player_id.into()))
                {
                    let index = self.league_index[&e.league_id.uuid()];
                    self.joined.entry(e.player_id.into()).or_default().push(index);
                }
            }
            LeagueEvent::PlayerUnsubscribed(e) => {
                self.league_mut(e.league_id.into(), position)?
                    .players
                    .retain(|p| *p != e.player_id.uuid());
                self.departed.insert((e.league_id.into(), e.player_id.into()));
            }
            LeagueEvent::GamesScheduled(e) => {
                let league = self.league_mut(e.league_id.into(), position)?;
                league.status = LeagueStatus::Running;
                // Game ids are derived from the league and the number (`game_id`, since the
                // first schedule), which lets the index keep neither: check the numbering,
                // and the derivation on the first game (a SHA-1 a game is seconds at 10M).
                let numbered = (1..).zip(&e.games).all(|(number, game)| game.number == number)
                    && e.games.first().is_none_or(|first| {
                        first.game_id == league_domain::game_id(e.league_id, 1)
                    });
                if !numbered {
                    return Err(ProjectionError::inconsistent(
                        position,
                        format!("league {}: games not numbered 1..n with derived ids", e.league_id),
                    ));
                }
                league.games = e.games.len() as u32;
                let index = self.league_index[&e.league_id.uuid()];
                self.games.reserve(e.games.len());
                for game in &e.games {
                    self.games.insert(tag_of(game.game_id.into()), index);
                }
            }
            LeagueEvent::LeagueCompleted(e) => {
                let league = self.league_mut(e.league_id.into(), position)?;
                league.status = LeagueStatus::Completed;
                league.completed_at = Some(meta.recorded_at);
            }
            // Results are each league's own model's business (`crate::model`).
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn apply_tournament(
        &mut self,
        meta: EventMeta,
        event: &TournamentEvent,
    ) -> Result<bool, ProjectionError> {
        let position = meta.position;
        match event {
            TournamentEvent::TournamentCoOrganiserAdded(e) => {
                self.tournament_mut(e.tournament_id.into(), position)?.organisers.add(e.player_id);
            }
            TournamentEvent::TournamentCreated(e) => {
                if self.tournament_index.contains_key(&e.tournament_id.uuid()) {
                    return Err(ProjectionError::inconsistent(
                        position,
                        format!("tournament {} created twice", e.tournament_id),
                    ));
                }
                self.tournament_index.insert(e.tournament_id.into(), self.tournaments.len() as u32);
                self.tournaments.push(TournamentSummary {
                    id: e.tournament_id.into(),
                    settings: e.settings.clone(),
                    status: TournamentStatus::Open,
                    entrants: Vec::new(),
                    rounds_seeded: 0,
                    created_at: meta.recorded_at,
                    organisers: Organisers::created_by(e.created_by),
                });
            }
            TournamentEvent::TournamentPlayerEntered(TournamentPlayerEntered {
                tournament_id,
                player_id,
                ..
            })
            | TournamentEvent::TournamentPlayerPromoted(TournamentPlayerPromoted {
                tournament_id,
                player_id,
            }) => {
                let index = self.tournament_index.get(&(*tournament_id).into()).copied();
                self.tournament_mut((*tournament_id).into(), position)?
                    .entrants
                    .push((*player_id).into());
                if let Some(index) = index {
                    self.note_entry((*player_id).into(), index);
                }
            }
            TournamentEvent::TournamentRegistrationChanged(e) => {
                self.tournament_mut(e.tournament_id.into(), position)?.settings.registration =
                    e.registration;
            }
            TournamentEvent::TournamentScheduleChanged(e) => {
                self.tournament_mut(e.tournament_id.into(), position)?.settings.schedule =
                    e.schedule.clone();
            }
            TournamentEvent::RoundSeeded(e) => {
                let tournament = self.tournament_mut(e.tournament_id.into(), position)?;
                tournament.status = TournamentStatus::Running;
                tournament.rounds_seeded = e.round;
            }
            TournamentEvent::TournamentCompleted(e) => {
                self.tournament_mut(e.tournament_id.into(), position)?.status =
                    TournamentStatus::Completed;
            }
            // Withdrawn entrants stay listed (their scores stay in the standings); requests,
            // the waitlist, roll calls, boards and results are the tournament's own fold's
            // business.
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// How [`load_catalog`] got its catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogSource {
    /// The position of the snapshot it started from (`None`: it folded the whole log).
    pub snapshot: Option<u64>,
    /// Why the stored snapshot was not used, if there is one.
    pub rejected: Option<SnapshotRejected>,
    /// Catalog events folded after the snapshot (all of them without one).
    pub events_folded: u64,
}

/// Loads the catalog as of `last`: from the stored snapshot when it is usable (see
/// [`snapshot`]), else from nothing, then folding the catalog events up to `last`.
pub async fn load_catalog(
    store: &EventStore,
    last: u64,
) -> Result<(Catalog, CatalogSource), ProjectionError> {
    let (start, snapshot, rejected) = match snapshot::usable_catalog_snapshot(store, last).await? {
        None => (Catalog::new(), None, None),
        Some(Ok(catalog)) => {
            let position = catalog.position();
            (catalog, Some(position), None)
        }
        Some(Err(rejected)) => {
            tracing::warn!(%rejected, "the catalog snapshot is not used; folding the whole log");
            (Catalog::new(), None, Some(rejected))
        }
    };
    let (catalog, events_folded) = fold_catalog(store, start, last).await?;
    Ok((catalog, CatalogSource { snapshot, rejected, events_folded }))
}

/// Folds the catalog events after `catalog`'s position up to `last` into it: one streaming
/// query over the catalog event types only (served by the `events(event_type, position)`
/// index), decoding each payload straight from its JSON text. Events past `last` are left to
/// the caller (the live feed); the catalog's position is `last` afterwards. Returns the
/// catalog and the number of events folded.
pub(crate) async fn fold_catalog(
    store: &EventStore,
    mut catalog: Catalog,
    last: u64,
) -> Result<(Catalog, u64), ProjectionError> {
    let mut folded = 0;
    let types: Vec<&str> = CATALOG_EVENT_TYPES.iter().map(|t| t.as_str()).collect();
    let mut rows = store.read_types_between(&types, catalog.position, last);
    while let Some(row) = rows.try_next().await? {
        let (meta, event) = decode_row(&row)?;
        catalog.apply_event(meta, &event)?;
        folded += 1;
    }
    drop(rows);
    // Read after the fold, so every registration folded has its key (both commit together);
    // a key deleted meanwhile belongs to an erasure the follower folds next.
    if catalog.has_unopened_names() {
        catalog.open_names(&person_keys(store, None).await?);
    }
    // An event of a type this code does not know would otherwise go unnoticed until its
    // league is loaded (or forever, outside league streams): refuse to start on it, as the
    // follower stops on it (the same index answers, one seek per distinct type).
    let mut unknown: Option<(u64, String)> = None;
    for event_type in store.event_types().await? {
        if EventType::parse(&event_type).is_err()
            && let Some(position) = store.first_position_of_type(&event_type, last).await?
            && unknown.as_ref().is_none_or(|(earliest, _)| position < *earliest)
        {
            unknown = Some((position, event_type));
        }
    }
    if let Some((position, event_type)) = unknown {
        let source = EventType::parse(&event_type).expect_err("not a known type");
        return Err(ProjectionError::Decode { position, source });
    }
    catalog.advance_to(last);
    Ok((catalog, folded))
}

#[cfg(test)]
mod tests {
    use league_domain::EventType;

    use super::CATALOG_EVENT_TYPES;
    use crate::RATING_EVENT_TYPES;

    /// The lists derived from the rooms' lists of event types are the ones the catalog and the
    /// ratings folded when they were kept by hand: who and what exists (players, leagues,
    /// tournaments, their organisers, entrants and status, the series and their events), the
    /// identities linked to sign in with, and the results.
    #[test]
    fn the_derived_lists_are_the_types_the_folds_read() {
        use EventType::*;
        let mut catalog = CATALOG_EVENT_TYPES.clone();
        catalog.sort();
        let mut expected = vec![
            PlayerRegistered,
            PlayerErased,
            LeagueCreated,
            PlayerSubscribed,
            PlayerUnsubscribed,
            GamesScheduled,
            LeagueCompleted,
            TournamentCreated,
            TournamentPlayerEntered,
            RoundSeeded,
            TournamentCompleted,
            TournamentRegistrationChanged,
            TournamentPlayerPromoted,
            TournamentScheduleChanged,
            TokenRotated,
            TokenRevoked,
            OrganiserAppointed,
            OrganiserDismissed,
            LeagueCoOrganiserAdded,
            TournamentCoOrganiserAdded,
            IdentityLinked,
            IdentityUnlinked,
            SessionStarted,
            SessionRenewed,
            SessionEnded,
            AllSessionsEnded,
            SignInLinkIssued,
            PasskeyAdded,
            PasskeyRemoved,
            SeriesCreated,
            SeriesEventAdded,
            SeriesEventRemoved,
            SeriesSettingsChanged,
        ];
        expected.sort();
        assert_eq!(catalog, expected);
        let mut results = RATING_EVENT_TYPES.clone();
        results.sort();
        assert_eq!(
            results,
            [GameFinished, GameResultCorrected, BoardFinished, BoardResultCorrected]
        );
    }
}
