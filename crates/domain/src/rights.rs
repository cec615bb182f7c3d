//! Who may manage a competition: the site admin, its creator (an organiser, recorded in its
//! creation event) and its co-organisers. Leagues and tournaments share these rules, so each
//! refusal names the right and the competition the same way.

use std::fmt;

use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, LeagueId, PlayerId, TournamentId};

/// A competition, for naming it in a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Competition {
    League(LeagueId),
    Tournament(TournamentId),
}

impl fmt::Display for Competition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Competition::League(id) => write!(f, "league {id}"),
            Competition::Tournament(id) => write!(f, "tournament {id}"),
        }
    }
}

/// A competition's organisers besides the site admin: its creator (`None` when the site
/// admin created it) and the co-organisers added since, in order.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Organisers {
    creator: Option<PlayerId>,
    co_organisers: Vec<PlayerId>,
}

impl Organisers {
    /// The organisers of a competition created by `created_by` (absent: the site admin).
    pub fn created_by(created_by: Option<Actor>) -> Self {
        Organisers {
            creator: created_by.and_then(|actor| actor.player_id()),
            co_organisers: Vec::new(),
        }
    }

    /// The player who created the competition (`None`: the site admin).
    pub fn creator(&self) -> Option<PlayerId> {
        self.creator
    }

    /// The co-organisers, in the order they were added.
    pub fn co_organisers(&self) -> &[PlayerId] {
        &self.co_organisers
    }

    /// Whether `player` organises the competition (as creator or co-organiser).
    pub fn includes(&self, player: PlayerId) -> bool {
        self.creator == Some(player) || self.co_organisers.contains(&player)
    }

    /// Adds a co-organiser (once).
    pub fn add(&mut self, player: PlayerId) {
        if !self.includes(player) {
            self.co_organisers.push(player);
        }
    }

    /// Whether `actor` may manage the competition: the site admin or one of its organisers.
    pub(crate) fn may_manage(&self, actor: Actor) -> bool {
        match actor {
            Actor::Admin => true,
            Actor::Player(player) => self.includes(player),
        }
    }

    /// `actor` may `right` (e.g. "seed a round") on `competition` only as one of its
    /// organisers or the site admin.
    pub(crate) fn authorise(
        &self,
        actor: Actor,
        competition: Competition,
        right: &str,
    ) -> Result<(), DomainError> {
        match actor {
            _ if self.may_manage(actor) => Ok(()),
            Actor::Player(player) => Err(DomainError::forbidden(format!(
                "player {player} does not organise {competition}: only its organisers or the \
                 site admin may {right}"
            ))),
            Actor::Admin => unreachable!("the site admin manages every competition"),
        }
    }

    /// A player acts for themself; the competition's organisers and the site admin may act
    /// for anyone in it.
    pub(crate) fn authorise_for_player(
        &self,
        actor: Actor,
        player: PlayerId,
        competition: Competition,
        right: &str,
    ) -> Result<(), DomainError> {
        if actor.player_id() == Some(player) {
            return Ok(());
        }
        self.authorise(actor, competition, &format!("{right} for another player"))
    }

    /// Adds `player` as co-organiser on an organiser's or the site admin's request; the
    /// player must be registered, not erased, and not organise the competition already.
    pub(crate) fn check_new_co_organiser(
        &self,
        actor: Actor,
        player: PlayerId,
        competition: Competition,
        context: &Context,
    ) -> Result<(), DomainError> {
        self.authorise(actor, competition, "add co-organisers")?;
        if context.unknown_players.contains(&player) {
            return Err(DomainError::PlayerNotFound(player));
        }
        context.refuse_erased(player)?;
        if self.includes(player) {
            return Err(DomainError::conflict(format!(
                "player {player} already organises {competition}"
            )));
        }
        Ok(())
    }
}

/// Who may create a competition: the site admin, or a player appointed organiser
/// ([`Context::actor_is_organiser`]). Returns the `createdBy` to record: `None` for the site
/// admin (the bytes of an admin's creation stay as before organisers existed).
pub(crate) fn authorise_creation(
    actor: Actor,
    context: &Context,
    what: &str,
) -> Result<Option<Actor>, DomainError> {
    match actor {
        Actor::Admin => Ok(None),
        Actor::Player(_) if context.actor_is_organiser => Ok(Some(actor)),
        Actor::Player(player) => Err(DomainError::forbidden(format!(
            "player {player} is not an organiser: only organisers or the site admin may create \
             {what}"
        ))),
    }
}

/// Who may do what only a competition's organisers do outside its stream (print its
/// sign-in sheet, `docs/sign-in.md`): its organisers and the site admin.
pub fn authorise_organisers_only(
    organisers: &Organisers,
    actor: Actor,
    what: &str,
) -> Result<(), DomainError> {
    if organisers.may_manage(actor) {
        Ok(())
    } else {
        Err(DomainError::forbidden(format!("only its organisers or the site admin may {what}")))
    }
}

/// Who may read everything the platform holds about a person (the access request): the
/// person themself and the site admin.
pub fn authorise_personal_data(actor: Actor, person: PlayerId) -> Result<(), DomainError> {
    if actor.is_admin() || actor.player_id() == Some(person) {
        Ok(())
    } else {
        Err(DomainError::forbidden(format!(
            "only player {person} themself or the site admin may read their personal data"
        )))
    }
}
