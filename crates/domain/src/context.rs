//! Facts from outside one aggregate that a pure handler needs; the application layer
//! fills them from read models before calling `handle`.

use chrono::{DateTime, Utc};

use crate::error::DomainError;
use crate::ids::PlayerId;

/// What the handler may know beyond the aggregate's own events.
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    /// The current time (UTC); the activity window ends here.
    pub now: DateTime<Utc>,
    /// For a subscription: the subscribing player, or `None` when no such player is
    /// registered. Ignored by other commands.
    pub subscriber: Option<SubscriberFacts>,
    /// Players a command names that are not registered (filled for the players a command
    /// asks about: `players_to_check` of [`crate::LeagueCommand`],
    /// [`crate::TournamentCommand`] and [`crate::CalendarCommand`]).
    pub unknown_players: Vec<PlayerId>,
    /// Of the same players, those whose personal data was erased: nothing new is recorded
    /// about them (`docs/personal-data.md#erasure`), see [`Context::refuse_erased`].
    pub erased_players: Vec<PlayerId>,
    /// Whether the acting player is appointed organiser now (may create leagues and
    /// tournaments). Managing a competition depends on the competition's own organisers.
    pub actor_is_organiser: bool,
    /// For a sign-in link: whether the acting player organises a competition the link's
    /// player takes part in (`docs/sign-in.md#sign-in-links`).
    pub actor_organises_player: bool,
    /// Of the competitions a webhook command is about
    /// ([`crate::WebhookCommand::competitions_to_check`]), those that are no league or
    /// tournament.
    pub unknown_competitions: Vec<uuid::Uuid>,
    /// Of the same competitions, those the acting player does not organise.
    pub unmanaged_competitions: Vec<uuid::Uuid>,
    /// For a sign-up with an invite code: the invite whose code hash it names (`None` when
    /// no invite has that hash).
    pub invite: Option<InviteFacts>,
    /// For a round's seeding: `[owner, other]` for every player of the round (`owner`)
    /// whose permanent keep-apart list holds another player of the round (`other`)
    /// (`docs/tournaments.md#a-players-permanent-keep-apart-list`).
    pub permanent_keep_apart: Vec<[PlayerId; 2]>,
}

/// What the log says of an invite (`docs/operations.md#sign-up`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InviteFacts {
    pub expires_at: DateTime<Utc>,
    pub revoked: bool,
}

/// What the platform knows about a registered player who wants to subscribe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubscriberFacts {
    /// Games with a `GameFinished` event, where the player was seated, recorded within
    /// [`Context::activity_window_start`]..=`now` ("the last 90 days",
    /// `docs/scheduling.md#league-life-cycle`).
    pub finished_games_in_window: u32,
}

impl Context {
    /// A context with no subscriber (enough for every command but a subscription).
    pub fn new(now: DateTime<Utc>) -> Self {
        Context {
            now,
            subscriber: None,
            unknown_players: Vec::new(),
            erased_players: Vec::new(),
            actor_is_organiser: false,
            actor_organises_player: false,
            unknown_competitions: Vec::new(),
            unmanaged_competitions: Vec::new(),
            invite: None,
            permanent_keep_apart: Vec::new(),
        }
    }

    /// The subscriber exists and finished `finished_games_in_window` games in the window.
    pub fn with_subscriber(mut self, finished_games_in_window: u32) -> Self {
        self.subscriber = Some(SubscriberFacts { finished_games_in_window });
        self
    }

    /// Of the players the command names, these are not registered.
    pub fn with_unknown_players(mut self, unknown: Vec<PlayerId>) -> Self {
        self.unknown_players = unknown;
        self
    }

    /// Of the players the command names, these were erased.
    pub fn with_erased_players(mut self, erased: Vec<PlayerId>) -> Self {
        self.erased_players = erased;
        self
    }

    /// `CONFLICT` when `player` was erased: a command may not subscribe, enter, seat,
    /// appoint or issue anything to an erased player (`docs/personal-data.md#erasure`).
    pub fn refuse_erased(&self, player: PlayerId) -> Result<(), DomainError> {
        if self.erased_players.contains(&player) {
            return Err(DomainError::erased(player));
        }
        Ok(())
    }

    /// The acting player is (or is not) an appointed organiser.
    pub fn with_actor_organiser(mut self, is_organiser: bool) -> Self {
        self.actor_is_organiser = is_organiser;
        self
    }

    /// The acting player does (or does not) organise a competition the command's player
    /// takes part in.
    pub fn with_actor_organising_player(mut self, organises: bool) -> Self {
        self.actor_organises_player = organises;
        self
    }

    /// Of the competitions a webhook command is about, these are unknown, and the acting
    /// player does not organise these.
    pub fn with_competitions(
        mut self,
        unknown: Vec<uuid::Uuid>,
        unmanaged: Vec<uuid::Uuid>,
    ) -> Self {
        self.unknown_competitions = unknown;
        self.unmanaged_competitions = unmanaged;
        self
    }

    /// The round's players' permanent keep-apart lists, as `[owner, other]` pairs.
    pub fn with_permanent_keep_apart(mut self, pairs: Vec<[PlayerId; 2]>) -> Self {
        self.permanent_keep_apart = pairs;
        self
    }

    /// Start of the window in which finished games count towards "active player".
    pub fn activity_window_start(&self) -> DateTime<Utc> {
        crate::rules::activity_window_start(self.now)
    }
}
