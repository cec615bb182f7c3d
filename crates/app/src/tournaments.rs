//! Reading tournaments (`docs/tournaments.md`): a tournament is folded from its own stream
//! into the domain's [`Tournament`] — the state commands are decided on is also what
//! standings, rounds and boards are read from, kept per stream like every aggregate and
//! brought up to date with the events appended since. History (as of a position or an
//! instant) folds the stream up to the bound; seeding verification re-runs every recorded
//! seeding from the events before it.

use std::sync::Arc;

use league_domain::{
    Actor, SeedingCheck, Tournament, authorise_organisers_only, tournament_stream_id,
};
use league_projections::{AsOf, decode};
use league_store::{RecordedEvent, StreamId};
use uuid::Uuid;

use crate::aggregates::StreamState;
use crate::app::App;
use crate::error::AppError;

/// Where a tournament board is: its tournament (id and name), round and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardOfPlayer {
    pub tournament: Uuid,
    pub tournament_name: String,
    pub round: u32,
    pub number: u32,
}

impl App {
    /// A tournament as of its last committed event (`None` if there is no such tournament).
    pub async fn tournament(&self, id: Uuid) -> Result<Option<Arc<Tournament>>, AppError> {
        if self.catalog().tournament(id).is_none() {
            return Ok(None);
        }
        let stream = tournament_stream(id)?;
        match self.stream_state(&stream, || StreamState::Tournament(Arc::default())).await? {
            StreamState::Tournament(tournament) => Ok(Some(tournament)),
            _ => Err(AppError::internal(format!("stream {stream} holds another aggregate"))),
        }
    }

    /// The tournament, round and number of board `board` that `player` entered, if the id is
    /// a tournament board's (a rating change names a league game or a board: `docs/ratings.md`).
    pub async fn board_of_player(
        &self,
        player: Uuid,
        board: Uuid,
    ) -> Result<Option<BoardOfPlayer>, AppError> {
        let entered: Vec<Uuid> = self
            .catalog()
            .tournaments_entered(player)
            .filter(|t| t.rounds_seeded > 0)
            .map(|t| t.id)
            .collect();
        for id in entered {
            let Some(tournament) = self.tournament(id).await? else { continue };
            if let (Some(found), Some(settings)) =
                (tournament.board(board.into()), tournament.settings())
            {
                return Ok(Some(BoardOfPlayer {
                    tournament: id,
                    tournament_name: settings.name.clone(),
                    round: found.round,
                    number: found.number,
                }));
            }
        }
        Ok(None)
    }

    /// A tournament, or `NOT_FOUND`.
    /// The players of a tournament who have not withdrawn, in entry order, for one of its
    /// organisers or the site admin (its sign-in sheet, `docs/sign-in.md`).
    pub async fn active_entrants(&self, id: Uuid, actor: Actor) -> Result<Vec<Uuid>, AppError> {
        let tournament = self.existing_tournament(id).await?;
        authorise_organisers_only(
            tournament.organisers(),
            actor,
            "issue sign-in links for every entrant",
        )?;
        Ok(tournament
            .entrants()
            .iter()
            .filter(|entrant| entrant.is_active())
            .map(|entrant| entrant.player.into())
            .collect())
    }

    pub async fn existing_tournament(&self, id: Uuid) -> Result<Arc<Tournament>, AppError> {
        self.tournament(id).await?.ok_or_else(|| not_found(id))
    }

    /// A tournament at a point in history: its stream folded up to `as_of`.
    pub async fn tournament_as_of(
        &self,
        id: Uuid,
        as_of: AsOf,
    ) -> Result<Arc<Tournament>, AppError> {
        let events = self.tournament_events(id).await?;
        let mut tournament = Tournament::default();
        for event in events.iter().take_while(|e| as_of.includes(e.position, e.recorded_at)) {
            let (_, domain) = decode(event).map_err(AppError::internal)?;
            league_domain::Aggregate::apply_event(&mut tournament, &domain);
        }
        Ok(Arc::new(tournament))
    }

    /// A tournament exactly as of its event at log `position`, the `stream_version`-th of its
    /// stream (a live update names one): the kept state when it has folded nothing after that
    /// event, else the stream folded up to the position. Live updates are then the standings
    /// as of the event they name, however far the follower has moved on.
    pub async fn tournament_at(
        &self,
        id: Uuid,
        position: u64,
        stream_version: u64,
    ) -> Result<Arc<Tournament>, AppError> {
        // The kept state at exactly that version is the tournament as of that event: every
        // spectator's update for one event shares it without a read of the log.
        if let Some(StreamState::Tournament(kept)) =
            self.kept_state(tournament_stream(id)?.as_str())
            && league_domain::Aggregate::version(kept.as_ref()) == stream_version
        {
            return Ok(kept);
        }
        let current = self.existing_tournament(id).await?;
        if league_domain::Aggregate::version(current.as_ref()) == stream_version {
            return Ok(current);
        }
        self.tournament_as_of(id, AsOf::Position(position)).await
    }

    /// Every event of a tournament's stream, in order (`NOT_FOUND` if there is none).
    pub async fn tournament_events(&self, id: Uuid) -> Result<Vec<RecordedEvent>, AppError> {
        if self.catalog().tournament(id).is_none() {
            return Err(not_found(id));
        }
        Ok(self.reads().read_stream(&tournament_stream(id)?, 1).await?)
    }

    /// One page of a tournament's audit log: up to `first` (1 to [`crate::app::MAX_PAGE`])
    /// events of its stream after global position `after`.
    pub async fn tournament_events_page(
        &self,
        id: Uuid,
        after: Option<u64>,
        first: usize,
    ) -> Result<Vec<RecordedEvent>, AppError> {
        crate::app::check_page(first)?;
        if self.catalog().tournament(id).is_none() {
            return Err(not_found(id));
        }
        let stream = tournament_stream(id)?;
        Ok(self.reads().read_stream_after(&stream, after.unwrap_or(0), first as u64).await?)
    }

    /// Re-runs every recorded seeding of the tournament from the log
    /// (`docs/tournaments.md#seeding`).
    pub async fn verify_seeding(&self, id: Uuid) -> Result<Vec<SeedingCheck>, AppError> {
        let events = self
            .tournament_events(id)
            .await?
            .iter()
            .map(|event| decode(event).map(|(_, domain)| domain).map_err(AppError::internal))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Tournament::verify_seeding(&events))
    }
}

fn tournament_stream(id: Uuid) -> Result<StreamId, AppError> {
    StreamId::new(tournament_stream_id(id.into())).map_err(AppError::internal)
}

fn not_found(id: Uuid) -> AppError {
    AppError::NotFound(format!("tournament {id}"))
}
