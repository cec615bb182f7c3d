//! Events in words: the one sentence each event of the log reads as wherever a person reads
//! it — the CLI's league and tournament audits, webhook bodies, and the API's
//! `Event.description` (so the web app). Each aggregate's events are matched exhaustively, so
//! a new event is put into words here before any surface shows it.

use league_domain::{
    CalendarEvent, DomainEvent, LeagueEvent, PlayerEvent, PlayerId, Registration, Schedule,
    SeriesEvent, SignInMethod, TournamentEvent, WebhookEvent, redact_urls, seat_label,
};
use league_scoring::{GameResult, score_game_unexplained};
use uuid::Uuid;

use league_projections::decode;
use league_store::RecordedEvent;

use crate::app::App;
use crate::error::AppError;

mod rulings;

/// How a sentence names a player.
pub type NamePlayer<'a> = &'a (dyn Fn(Uuid) -> String + Sync);

impl App {
    /// The sentence `event` reads as, naming players as the catalog shows them (their
    /// pseudonym once erased).
    pub async fn describe(&self, event: &DomainEvent) -> String {
        self.describe_naming(event, &|player| self.shown_name(player)).await
    }

    /// The sentence a stored event reads as ([`Self::describe`]).
    pub async fn describe_recorded(&self, event: &RecordedEvent) -> Result<String, AppError> {
        let (_, decoded) = decode(event).map_err(AppError::internal)?;
        Ok(self.describe(&decoded).await)
    }

    /// The sentence `event` reads as, naming players with `name` (the CLI's audits add the
    /// player's id).
    pub async fn describe_naming(&self, event: &DomainEvent, name: NamePlayer<'_>) -> String {
        let words = Words { app: self, name };
        match event {
            DomainEvent::Player(event) => words.player(event),
            DomainEvent::League(event) => words.league(event).await,
            DomainEvent::Tournament(event) => words.tournament(event).await,
            DomainEvent::Calendar(event) => words.calendar(event),
            DomainEvent::Webhook(event) => words.webhook(event),
            DomainEvent::Series(event) => words.series(event),
        }
    }

    /// A player's name as the catalog shows it, or their id when unknown.
    pub fn shown_name(&self, player: Uuid) -> String {
        self.catalog().player(player).map_or_else(|| player.to_string(), |p| p.name.clone())
    }
}

/// A tournament's registration controls in words: "open, 2026-12-01T09:00:00+00:00 to …,
/// at most 21 entrants, entries approved by the organisers".
/// A Best Country rule in words (`docs/tournaments.md#best-country-and-awards`).
pub fn best_country_rule_words(rule: &league_domain::BestCountryRule) -> String {
    let by = match rule.criterion {
        league_scoring::BestCountryCriterion::Score => "by score, then centres",
        league_scoring::BestCountryCriterion::Centres => "by centres, then score",
    };
    let boards = if rule.exclude_top_boards { "top boards excluded" } else { "every board" };
    format!("Best Country: {by}; {boards}")
}

/// How powers are given, in words (`docs/tournaments.md#power-assignment`).
pub fn power_assignment_words(rule: &league_domain::PowerAssignmentRule) -> String {
    let method = match rule.method {
        league_domain::PowerAssignment::Automatic => "automatic",
        league_domain::PowerAssignment::Preferences => "by preferences, lowest placed first",
        league_domain::PowerAssignment::Manual => "set by the directors",
        league_domain::PowerAssignment::OrderedChoice => "ordered choice at the board",
    };
    let top = if rule.top_board_ordered_choice { "; top board by ordered choice" } else { "" };
    format!("Powers: {method}{top}")
}

fn registration_words(registration: &Registration) -> String {
    let mut words = vec![if registration.closed { "closed" } else { "open" }.to_owned()];
    match (registration.opens_at, registration.closes_at) {
        (Some(opens), Some(closes)) => {
            words.push(format!("from {} to {}", opens.to_rfc3339(), closes.to_rfc3339()));
        }
        (Some(opens), None) => words.push(format!("from {}", opens.to_rfc3339())),
        (None, Some(closes)) => words.push(format!("until {}", closes.to_rfc3339())),
        (None, None) => {}
    }
    words.push(match registration.max_entrants {
        Some(cap) => format!("at most {cap} entrants, then a waitlist"),
        None => "no cap".to_owned(),
    });
    if registration.approval {
        words.push("entries approved by the organisers".to_owned());
    }
    words.join(", ")
}

/// A tournament's schedule in words: "28 to 29 November 2026 at Club Diplo (1 rue de
/// Rivoli), times in Europe/Paris, check-in opens 60 minutes before a round".
fn schedule_words(schedule: &Schedule) -> String {
    let mut words = Vec::new();
    match (schedule.starts_on, schedule.ends_on) {
        (Some(first), Some(last)) if first != last => words.push(format!("{first} to {last}")),
        (Some(day), _) | (None, Some(day)) => words.push(day.to_string()),
        (None, None) => words.push("no dates".to_owned()),
    }
    if let Some(venue) = &schedule.venue {
        match &venue.address {
            Some(address) => words.push(format!("at {} ({address})", venue.name)),
            None => words.push(format!("at {}", venue.name)),
        }
    }
    words.push(format!("times in {}", schedule.time_zone_name()));
    if let Some(minutes) = schedule.check_in_opens_minutes_before {
        words.push(format!("check-in opens {minutes} minutes before a round"));
    }
    words.join(", ")
}

struct Words<'a> {
    app: &'a App,
    name: NamePlayer<'a>,
}

impl Words<'_> {
    fn name(&self, player: Uuid) -> String {
        (self.name)(player)
    }

    /// Who acted: a player by name, or the site admin.
    fn actor(&self, actor: league_domain::Actor) -> String {
        actor.player_id().map_or_else(|| "the site admin".to_owned(), |p| self.name(p.uuid()))
    }

    fn names(&self, players: &[PlayerId]) -> String {
        if players.is_empty() {
            return "nobody".to_owned();
        }
        players.iter().map(|p| self.name(p.uuid())).collect::<Vec<_>>().join(", ")
    }

    fn player(&self, event: &PlayerEvent) -> String {
        match event {
            PlayerEvent::PlayerRegistered(e) => {
                format!("{} registered", self.name(e.player_id.into()))
            }
            PlayerEvent::TokenRotated(e) => {
                format!("{}'s token was replaced", self.name(e.player_id.into()))
            }
            PlayerEvent::TokenRevoked(e) => {
                format!("{}'s token was revoked", self.name(e.player_id.into()))
            }
            PlayerEvent::OrganiserAppointed(e) => {
                format!("{} may organise leagues and tournaments", self.name(e.player_id.into()))
            }
            PlayerEvent::OrganiserDismissed(e) => {
                format!(
                    "{} may no longer organise leagues and tournaments",
                    self.name(e.player_id.into())
                )
            }
            PlayerEvent::PlayerErased(e) => {
                format!("{}'s personal data was erased", self.name(e.player_id.into()))
            }
            PlayerEvent::PasskeyAdded(e) => {
                format!("{} added a passkey", self.name(e.player_id.into()))
            }
            PlayerEvent::PasskeyRemoved(e) => {
                format!("a passkey of {} was removed", self.name(e.player_id.into()))
            }
            // The issuer is the site's provider; the subject (personal data) is never shown.
            PlayerEvent::IdentityLinked(e) => {
                format!("{} linked an identity of {}", self.name(e.player_id.into()), e.issuer)
            }
            PlayerEvent::IdentityUnlinked(e) => {
                format!("{} unlinked their identity of {}", self.name(e.player_id.into()), e.issuer)
            }
            PlayerEvent::InviteIssued(e) => {
                format!("{} issued an invite to sign up", self.name(e.player_id.into()))
            }
            PlayerEvent::InviteRevoked(e) => {
                format!("an invite of {} was revoked", self.name(e.player_id.into()))
            }
            PlayerEvent::SessionStarted(e) => {
                let how = match e.method {
                    SignInMethod::Token => "their token",
                    SignInMethod::Link => "a sign-in link",
                    SignInMethod::Passkey => "a passkey",
                    SignInMethod::Identity => "an identity provider",
                };
                format!("{} signed in with {how}", self.name(e.player_id.into()))
            }
            PlayerEvent::SessionRenewed(e) => {
                format!("{}'s session was renewed", self.name(e.player_id.into()))
            }
            PlayerEvent::SessionEnded(e) => {
                format!("{} was signed out on one device", self.name(e.player_id.into()))
            }
            PlayerEvent::AllSessionsEnded(e) => {
                format!("{} was signed out everywhere", self.name(e.player_id.into()))
            }
            PlayerEvent::SignInLinkIssued(e) => {
                format!("A sign-in link was issued for {}", self.name(e.player_id.into()))
            }
            // The list may be sensitive: the words name its owner only.
            PlayerEvent::PermanentKeepApartAdded(e) => {
                format!("{}'s keep-apart list grew by one player", self.name(e.player_id.into()))
            }
            PlayerEvent::PermanentKeepApartRemoved(e) => {
                format!("{}'s keep-apart list shrank by one player", self.name(e.player_id.into()))
            }
            // The id itself (personal data) is never shown.
            PlayerEvent::ExternalIdRecorded(e) => {
                format!("{}'s {} id was recorded", self.name(e.player_id.into()), e.system)
            }
        }
    }

    async fn league(&self, event: &LeagueEvent) -> String {
        match event {
            LeagueEvent::LeagueCreated(e) => {
                let s = &e.settings;
                format!(
                    "League created: \"{}\" ({}), scoring system {}, {} players per game, {} \
                     players, {} games per seat{}",
                    s.name,
                    s.game,
                    s.scoring_system,
                    s.players_per_game,
                    s.size,
                    s.games_per_seat,
                    if s.require_active_players { ", active players only" } else { "" }
                )
            }
            LeagueEvent::PlayerSubscribed(e) => format!("{} joined", self.name(e.player_id.into())),
            LeagueEvent::PlayerUnsubscribed(e) => format!("{} left", self.name(e.player_id.into())),
            LeagueEvent::GamesScheduled(e) => {
                format!("League started: {} games scheduled", e.games.len())
            }
            LeagueEvent::GameFinished(e) => format!(
                "Result of {} reported: {}",
                self.game_label(e.league_id.into(), e.game_id.into()).await,
                self.scored(e.league_id.into(), &e.result)
            ),
            LeagueEvent::GameResultCorrected(e) => format!(
                "Result of {} corrected: {}; {}",
                self.game_label(e.league_id.into(), e.game_id.into()).await,
                e.reason,
                self.scored(e.league_id.into(), &e.result)
            ),
            LeagueEvent::LeagueCompleted(_) => "League completed: every game has a result".into(),
            LeagueEvent::LeagueCoOrganiserAdded(e) => {
                format!("{} co-organises the league", self.name(e.player_id.into()))
            }
        }
    }

    async fn tournament(&self, event: &TournamentEvent) -> String {
        match event {
            TournamentEvent::TournamentCreated(e) => {
                let s = &e.settings;
                format!(
                    "Tournament created: \"{}\" ({}), {} per board scored by {}, {} rounds, {}, \
                     round scoring: {}",
                    s.name,
                    s.game,
                    s.players_per_board,
                    s.scoring_system,
                    s.rounds,
                    s.tournament_scoring.info().name,
                    s.round_scoring.info().name
                )
            }
            TournamentEvent::TournamentPlayerEntered(e) => {
                format!("{} entered", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentPlayerWithdrawn(e) => {
                format!("{} withdrew after round {}", self.name(e.player_id.into()), e.after_round)
            }
            TournamentEvent::RollCallAnswered(e) => {
                let a = e.attendance;
                let offers = match (a.standby, a.two_boards) {
                    (true, true) => ", standby, will play two boards",
                    (true, false) => ", standby",
                    (false, true) => ", will play two boards",
                    (false, false) => "",
                };
                let presence = if a.present { "present" } else { "absent" };
                format!("round {}: {} {presence}{offers}", e.round, self.name(e.player_id.into()))
            }
            TournamentEvent::RoundSeeded(e) => {
                let settings = self
                    .app
                    .catalog()
                    .tournament(e.tournament_id.into())
                    .map(|t| t.settings.clone());
                let boards: Vec<String> = e
                    .boards
                    .iter()
                    .map(|board| {
                        let seats: Vec<String> = (board.seats.iter().enumerate())
                            .map(|(seat, player)| match &settings {
                                Some(s) => format!(
                                    "{} ({})",
                                    self.name((*player).into()),
                                    seat_label(s.scoring_system, s.players_per_board, seat)
                                ),
                                None => self.name((*player).into()),
                            })
                            .collect();
                        format!("board {} — {}", board.number, seats.join(", "))
                    })
                    .collect();
                let mut text = format!("round {} seeded: {}", e.round, boards.join("; "));
                if !e.sitting_out.is_empty() {
                    text.push_str(&format!("; sitting out: {}", self.names(&e.sitting_out)));
                }
                if !e.playing_twice.is_empty() {
                    text.push_str(&format!("; playing twice: {}", self.names(&e.playing_twice)));
                }
                text
            }
            TournamentEvent::RoundPlayersSwapped(e) => format!(
                "round {}: {} ⇄ {}: {}",
                e.round,
                self.name(e.first.into()),
                self.name(e.second.into()),
                e.reason
            ),
            TournamentEvent::BoardFinished(e) => {
                let board = self.board_label(e.tournament_id.into(), e.board_id.into()).await;
                let scored = self.scored(e.tournament_id.into(), &e.result);
                match e.confirmed_by {
                    Some(by) => {
                        format!("Result of {board} confirmed by {}: {scored}", self.actor(by))
                    }
                    None => format!("Result of {board} reported: {scored}"),
                }
            }
            TournamentEvent::BoardResultAwaitingConfirmation(e) => format!(
                "Result of {} reported, awaiting confirmation: {}",
                self.board_label(e.tournament_id.into(), e.board_id.into()).await,
                self.scored(e.tournament_id.into(), &e.result)
            ),
            TournamentEvent::BoardResultDisputed(e) => format!(
                "Result of {} disputed by {}: {}",
                self.board_label(e.tournament_id.into(), e.board_id.into()).await,
                self.actor(e.disputed_by),
                e.reason
            ),
            TournamentEvent::BoardResultCorrected(e) => format!(
                "Result of {} corrected: {}; {}",
                self.board_label(e.tournament_id.into(), e.board_id.into()).await,
                e.reason,
                self.scored(e.tournament_id.into(), &e.result)
            ),
            TournamentEvent::RoundCompleted(e) => {
                format!("every board of round {} has a result", e.round)
            }
            TournamentEvent::TournamentCompleted(_) => {
                "Tournament completed: the last round is complete".into()
            }
            TournamentEvent::TournamentCoOrganiserAdded(e) => {
                format!("{} co-organises the tournament", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentRegistrationChanged(e) => {
                format!("Registration: {}", registration_words(&e.registration))
            }
            TournamentEvent::TournamentEntryRequested(e) => {
                format!("{} asked to enter", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentEntryApproved(e) => {
                format!("{}'s entry was approved", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentEntryDeclined(e) => {
                format!("{}'s entry was declined", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentPlayerWaitlisted(e) => {
                format!(
                    "{} joined the waitlist: the tournament is full",
                    self.name(e.player_id.into())
                )
            }
            TournamentEvent::TournamentPlayerPromoted(e) => {
                format!("{} entered from the waitlist", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentEntryCancelled(e) => {
                format!("{} gave up their place in the queue", self.name(e.player_id.into()))
            }
            TournamentEvent::TournamentWithdrawalUndone(e) => {
                format!("{}'s withdrawal was undone", self.name(e.player_id.into()))
            }
            TournamentEvent::BoardProgressRecorded(e) => self.progress(e).await,
            TournamentEvent::BestCountryRuleChanged(e) => best_country_rule_words(&e.rule),
            TournamentEvent::AwardGiven(e) => {
                let mut text = format!("Award {} \"{}\"", e.award, e.name);
                if let Some(power) = &e.power {
                    text.push_str(&format!(" ({power})"));
                }
                text.push_str(&format!(" given to {}", self.name(e.player_id.into())));
                if let Some(reason) = &e.reason {
                    text.push_str(&format!(": {reason}"));
                }
                text
            }
            TournamentEvent::AwardRevoked(e) => match &e.reason {
                Some(reason) => format!("Award {} revoked: {reason}", e.award),
                None => format!("Award {} revoked", e.award),
            },
            TournamentEvent::TeamRulesChanged(e) => crate::teams::team_rules_words(&e.rules),
            TournamentEvent::TeamCreated(e) => format!("Team {} \"{}\" created", e.team, e.name),
            TournamentEvent::TeamRenamed(e) => format!("Team {} renamed \"{}\"", e.team, e.name),
            TournamentEvent::TeamDissolved(e) => format!("Team {} dissolved", e.team),
            TournamentEvent::TeamMemberAdded(e) => {
                format!("{} put in team {}", self.name(e.player_id.into()), e.team)
            }
            TournamentEvent::TeamMemberRemoved(e) => {
                format!("{} taken out of team {}", self.name(e.player_id.into()), e.team)
            }
            TournamentEvent::PowerAssignmentChanged(e) => power_assignment_words(&e.rule),
            TournamentEvent::PowerPreferencesSubmitted(e) if e.powers.is_empty() => {
                format!("{} cleared their ranking of the powers", self.name(e.player_id.into()))
            }
            TournamentEvent::PowerPreferencesSubmitted(e) => format!(
                "{} ranked the powers: {}",
                self.name(e.player_id.into()),
                e.powers.join(", ")
            ),
            TournamentEvent::BoardPowersSet(e) => format!(
                "{}'s powers set by a director",
                self.board_label(e.tournament_id.into(), e.board_id.into()).await
            ),
            TournamentEvent::BoardPowerChoiceOpened(e) => format!(
                "{} chooses its powers in turn, {} first",
                self.board_label(e.tournament_id.into(), e.board_id.into()).await,
                match e.order.first() {
                    Some(first) => self.name((*first).into()),
                    None => "nobody".to_owned(),
                }
            ),
            TournamentEvent::PowerChosen(e) => format!(
                "{} chose {} on {}",
                self.name(e.player_id.into()),
                e.power,
                self.board_label(e.tournament_id.into(), e.board_id.into()).await
            ),
            TournamentEvent::RoundPoolSet(e) => self.pool_words(e),
            TournamentEvent::RoundPoolRemoved(e) => format!("round {}'s pool removed", e.round),
            TournamentEvent::RoundScoringSet(e) => {
                format!("round {} scored by {}", e.round, e.scoring_system.info().display_name)
            }
            TournamentEvent::TournamentScheduleChanged(e) => {
                format!("Schedule: {}", schedule_words(&e.schedule))
            }
            TournamentEvent::RoundTimesSet(e) => {
                let schedule = self
                    .app
                    .catalog()
                    .tournament(e.tournament_id.into())
                    .map(|t| t.settings.schedule.clone())
                    .unwrap_or_default();
                let mut text = format!(
                    "round {} starts at {}",
                    e.round,
                    schedule.local_time(e.times.starts_at)
                );
                if let Some(ends_at) = e.times.ends_at {
                    text.push_str(&format!(", ends at {}", schedule.local_time(ends_at)));
                }
                if let Some(year) = e.times.final_year {
                    text.push_str(&format!(", last game year {year}"));
                }
                text
            }
            TournamentEvent::ScoreAdjusted(_)
            | TournamentEvent::ScoreAdjustmentRevoked(_)
            | TournamentEvent::HandicapSet(_)
            | TournamentEvent::EntrantRankingChanged(_)
            | TournamentEvent::KeepApartAdded(_)
            | TournamentEvent::KeepApartRemoved(_)
            | TournamentEvent::TopBoardTieBroken(_) => self.ruling(event).await.unwrap_or_default(),
        }
    }

    fn calendar(&self, event: &CalendarEvent) -> String {
        match event {
            CalendarEvent::CalendarFeedIssued(e) => {
                format!("{}'s calendar feed was issued", self.name(e.player_id.into()))
            }
            CalendarEvent::CalendarFeedRotated(e) => {
                format!("{}'s calendar feed was replaced", self.name(e.player_id.into()))
            }
        }
    }

    fn webhook(&self, event: &WebhookEvent) -> String {
        match event {
            WebhookEvent::WebhookRegistered(e) => format!("Webhook to {} registered", e.host),
            // An older log's pause reasons may quote the URL (`docs/webhooks.md#older-logs`).
            WebhookEvent::WebhookPaused(e) => format!("Webhook paused: {}", redact_urls(&e.reason)),
            WebhookEvent::WebhookResumed(_) => "Webhook resumed".into(),
            WebhookEvent::WebhookRemoved(_) => "Webhook removed".into(),
        }
    }

    fn series(&self, event: &SeriesEvent) -> String {
        let rule = |best: u32, basis| format!("best {best} results on {basis}");
        match event {
            SeriesEvent::SeriesCreated(e) => {
                format!("Series {} created: {}", e.name, rule(e.best, e.basis))
            }
            SeriesEvent::SeriesEventAdded(e) => {
                format!("{} added to the series", self.competition_name(e.competition))
            }
            SeriesEvent::SeriesEventRemoved(e) => {
                format!("{} removed from the series", self.competition_name(e.competition))
            }
            SeriesEvent::SeriesSettingsChanged(e) => {
                format!("Series now {}: {}", e.name, rule(e.best, e.basis))
            }
        }
    }

    /// A league's or tournament's name as the catalog shows it, or its id.
    fn competition_name(&self, id: Uuid) -> String {
        let catalog = self.app.catalog();
        (catalog.league(id).map(|league| league.settings.name.clone()))
            .or_else(|| catalog.tournament(id).map(|t| t.settings.name.clone()))
            .unwrap_or_else(|| id.to_string())
    }

    /// Each player of a result with their score under the competition's system, best first.
    fn scored(&self, competition: Uuid, result: &GameResult) -> String {
        let system = self.app.catalog().scoring_system_of(competition);
        let scored = system.and_then(|system| score_game_unexplained(system, result).ok());
        let Some(mut scored) = scored else { return "scores unavailable".into() };
        scored.players.sort_by(|a, b| b.score.total_cmp(&a.score));
        (scored.players.iter())
            .map(|row| {
                let player = Uuid::parse_str(&row.player)
                    .map_or_else(|_| row.player.clone(), |id| self.name(id));
                format!("{player} {}", points(row.score))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `round R, board B` for a tournament board, or `a board` if it is unknown.
    async fn board_label(&self, tournament: Uuid, board: Uuid) -> String {
        let tournament = self.app.tournament(tournament).await.ok().flatten();
        tournament
            .and_then(|t| {
                t.board(board.into()).map(|b| format!("round {}, board {}", b.round, b.number))
            })
            .unwrap_or_else(|| "a board".to_owned())
    }

    /// A board's centre counts after a game year, power by power
    /// (`docs/tournaments.md#live-progress`).
    async fn progress(&self, e: &league_domain::BoardProgressRecorded) -> String {
        let tournament = self.app.tournament(e.tournament_id.into()).await.ok().flatten();
        let labels = tournament.map(|t| t.seat_labels()).unwrap_or_default();
        let counts: Vec<String> = e
            .centres
            .iter()
            .enumerate()
            .map(|(seat, centres)| match labels.get(seat) {
                Some(label) => format!("{label} {centres}"),
                None => format!("seat {} {centres}", seat + 1),
            })
            .collect();
        let board = self.board_label(e.tournament_id.into(), e.board_id.into()).await;
        let mut text = format!("Centres of {board} after {}: {}", e.year, counts.join(", "));
        if let Some(reason) = &e.reason {
            text.push_str(&format!(" (corrected: {reason})"));
        }
        text
    }

    /// `game N` for a league's game, or `a game` if it is unknown.
    async fn game_label(&self, league: Uuid, game: Uuid) -> String {
        let model = self.app.league(league).await.ok().flatten();
        model
            .and_then(|model| model.game(game).map(|g| format!("game {}", g.number)))
            .unwrap_or_else(|| "a game".to_owned())
    }
}

/// A score or total as the sentences print it: exact thousandths, without trailing zeros.
pub fn points(total: f64) -> String {
    let text = format!("{total:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

impl Words<'_> {
    /// A round's pool in words (`docs/tournaments.md#pools-top-boards-and-per-round-scoring`):
    /// "round 4's pool: the best 21, ×1.5, deciding places 1–21".
    fn pool_words(&self, e: &league_domain::RoundPoolSet) -> String {
        let (who, size) = match &e.pool.players {
            league_domain::PoolPlayers::Best(size) => (format!("the best {size}"), *size as usize),
            league_domain::PoolPlayers::Named(players) => {
                let names: Vec<String> = players.iter().map(|p| self.name((*p).into())).collect();
                (names.join(", "), players.len())
            }
        };
        let mut text = format!("round {}'s pool: {who}, ×{}", e.round, e.pool.multiplier);
        if e.pool.decides_places {
            text.push_str(&format!(", deciding places 1–{size}"));
        }
        text
    }
}
