//! Idempotency keys (`docs/api.md#idempotency-keys`): a key answers only a retry of the same
//! command by the same caller. Keys are scoped to the actor; each keyed append records a
//! fingerprint of its command in the events' metadata, and a reuse of the key for another
//! command is refused with [`AppError::IdempotencyKeyReused`] (`CONFLICT`). Rights are
//! checked before any key is looked up (`App::execute`).

use league_domain::{
    Actor, CalendarCommand, EventType, LeagueCommand, PlayerCommand, SeriesCommand,
    TournamentCommand, WebhookCommand,
};
use league_store::AppendOutcome;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::command::AppCommand;
use crate::error::AppError;

/// Longest idempotency key accepted from a caller.
pub(crate) const MAX_KEY_CHARS: usize = 200;

/// Version of the fingerprint's form, so a later form never matches an earlier one by chance.
const FINGERPRINT_FORM: &str = "v1";

/// Checks a caller's idempotency key and scopes it to the actor, so two users' keys never
/// collide. Blank, too long, or holding a control character (a NUL, which PostgreSQL text
/// cannot hold, a newline…) is `BAD_USER_INPUT` on `idempotencyKey`.
pub(crate) fn scoped_key(actor: Actor, key: &str) -> Result<String, AppError> {
    let chars = key.chars().count();
    if key.trim().is_empty() || chars > MAX_KEY_CHARS {
        return Err(AppError::invalid(
            "idempotencyKey",
            format!("must be 1 to {MAX_KEY_CHARS} non-blank characters, got {chars}"),
        ));
    }
    if let Some(control) = key.chars().find(|c| c.is_control()) {
        return Err(AppError::invalid(
            "idempotencyKey",
            format!("must not hold control characters, found U+{:04X}", u32::from(control)),
        ));
    }
    Ok(format!("{actor}:{key}"))
}

/// The hash (SHA-256, hex) identifying `command` as a caller asked for it: its kind, actor
/// and arguments, without what the server draws afresh for each call (a new competition's or
/// webhook's id, a token or feed hash, a seed the caller left out) and without secrets or
/// personal data (a webhook URL, a player's name), which must not be recoverable from the
/// log by guessing. Two calls with the same fingerprint are the same command.
pub(crate) fn fingerprint(command: &AppCommand) -> String {
    let described = match command {
        AppCommand::Player(c) => match c {
            PlayerCommand::Register(c) => format!(
                "{:?}",
                league_domain::RegisterPlayer {
                    player_id: Uuid::nil().into(),
                    name: String::new(),
                    token_hash: String::new(),
                    ..c.clone()
                }
            ),
            PlayerCommand::RotateToken(c) => format!(
                "{:?}",
                league_domain::RotateToken { token_hash: String::new(), ..c.clone() }
            ),
            PlayerCommand::AddPasskey(c) => format!(
                "{:?}",
                league_domain::AddPasskey {
                    passkey_id: Uuid::nil(),
                    credential: String::new(),
                    name: String::new(),
                    ..c.clone()
                }
            ),
            other => format!("{other:?}"),
        },
        AppCommand::League(c) => match c {
            LeagueCommand::Create(c) => {
                format!(
                    "{:?}",
                    league_domain::CreateLeague { league_id: Uuid::nil().into(), ..c.clone() }
                )
            }
            other => format!("{other:?}"),
        },
        AppCommand::Tournament(c) => match c {
            TournamentCommand::Create(c) => format!(
                "{:?}",
                league_domain::CreateTournament { tournament_id: Uuid::nil().into(), ..c.clone() }
            ),
            TournamentCommand::SeedRound(c) => {
                format!("{:?}", league_domain::SeedRound { seed: 0, ..c.clone() })
            }
            other => format!("{other:?}"),
        },
        AppCommand::Calendar(CalendarCommand::Rotate(c)) => format!(
            "{:?}",
            league_domain::RotateCalendarFeed { feed_hash: String::new(), ..c.clone() }
        ),
        AppCommand::Webhook(c) => match c {
            WebhookCommand::Register(c) => format!(
                "{:?}",
                league_domain::RegisterWebhook {
                    webhook_id: Uuid::nil().into(),
                    url: String::new(),
                    ..c.clone()
                }
            ),
            other => format!("{other:?}"),
        },
        AppCommand::Series(c) => match c {
            SeriesCommand::Create(c) => format!(
                "{:?}",
                league_domain::CreateSeries { series_id: Uuid::nil().into(), ..c.clone() }
            ),
            other => format!("{other:?}"),
        },
    };
    let mut hash = Sha256::new();
    hash.update(FINGERPRINT_FORM.as_bytes());
    hash.update([0]);
    hash.update(described.as_bytes());
    hex::encode(hash.finalize())
}

/// Whether `outcome`, the first outcome recorded under the caller's key, answers `command`
/// (with `fingerprint`): the fingerprints are equal. Events written before fingerprints
/// existed are compared on what they show: the first event's type must be one the command
/// starts with, and its stream the command's (unless the server draws the stream's id
/// afresh for each call, as for a creation).
pub(crate) fn check_reuse(
    outcome: &AppendOutcome,
    command: &AppCommand,
    fingerprint: &str,
    key: &str,
) -> Result<(), AppError> {
    let Some(first) = outcome.events.first() else { return Ok(()) };
    let same = match first.metadata.command_fingerprint.as_deref() {
        Some(recorded) => recorded == fingerprint,
        None => {
            let starts = first_event_types(command)
                .iter()
                .any(|event_type| event_type.as_str() == first.event_type);
            starts && (draws_stream_id(command) || first.stream_id.as_str() == command.stream_id())
        }
    };
    if same { Ok(()) } else { Err(AppError::IdempotencyKeyReused { key: key.to_owned() }) }
}

/// The event types an append of `command` can start with.
fn first_event_types(command: &AppCommand) -> &'static [EventType] {
    match command {
        AppCommand::Player(c) => match c {
            PlayerCommand::Register(_) => &[EventType::PlayerRegistered],
            PlayerCommand::RotateToken(_) => &[EventType::TokenRotated],
            PlayerCommand::RevokeToken(_) => &[EventType::TokenRevoked],
            PlayerCommand::AppointOrganiser(_) => &[EventType::OrganiserAppointed],
            PlayerCommand::DismissOrganiser(_) => &[EventType::OrganiserDismissed],
            PlayerCommand::Erase(_) => &[EventType::PlayerErased],
            PlayerCommand::AddPasskey(_) => &[EventType::PasskeyAdded],
            PlayerCommand::RemovePasskey(_) => &[EventType::PasskeyRemoved],
            PlayerCommand::LinkIdentity(_) => &[EventType::IdentityLinked],
            PlayerCommand::UnlinkIdentity(_) => &[EventType::IdentityUnlinked],
            PlayerCommand::SignUp(_) => &[EventType::PlayerRegistered],
            PlayerCommand::IssueInvite(_) => &[EventType::InviteIssued],
            PlayerCommand::RevokeInvite(_) => &[EventType::InviteRevoked],
            PlayerCommand::StartSession(_) => &[EventType::SessionStarted],
            PlayerCommand::RenewSession(_) => &[EventType::SessionRenewed],
            PlayerCommand::EndSession(_) => &[EventType::SessionEnded],
            PlayerCommand::EndAllSessions(_) => &[EventType::AllSessionsEnded],
            PlayerCommand::IssueSignInLink(_) => &[EventType::SignInLinkIssued],
            PlayerCommand::ChangePermanentKeepApart(_) => {
                &[EventType::PermanentKeepApartAdded, EventType::PermanentKeepApartRemoved]
            }
            PlayerCommand::RecordExternalId(_) => &[EventType::ExternalIdRecorded],
        },
        AppCommand::League(c) => match c {
            LeagueCommand::Create(_) => &[EventType::LeagueCreated],
            LeagueCommand::Subscribe(_) => &[EventType::PlayerSubscribed],
            LeagueCommand::Unsubscribe(_) => &[EventType::PlayerUnsubscribed],
            LeagueCommand::ReportResult(_) => &[EventType::GameFinished],
            LeagueCommand::CorrectResult(_) => &[EventType::GameResultCorrected],
            LeagueCommand::AddCoOrganiser(_) => &[EventType::LeagueCoOrganiserAdded],
        },
        AppCommand::Tournament(c) => match c {
            TournamentCommand::Create(_) => &[EventType::TournamentCreated],
            TournamentCommand::Enter(_) => &[
                EventType::TournamentPlayerEntered,
                EventType::TournamentPlayerWaitlisted,
                EventType::TournamentEntryRequested,
            ],
            TournamentCommand::Withdraw(_) => {
                &[EventType::TournamentPlayerWithdrawn, EventType::TournamentEntryCancelled]
            }
            TournamentCommand::AnswerRollCall(_) => &[EventType::RollCallAnswered],
            TournamentCommand::SeedRound(_) => &[EventType::RoundSeeded, EventType::KeepApartAdded],
            TournamentCommand::Swap(_) => &[EventType::RoundPlayersSwapped],
            TournamentCommand::ReportResult(_) => {
                &[EventType::BoardFinished, EventType::BoardResultAwaitingConfirmation]
            }
            TournamentCommand::CorrectResult(_) => &[EventType::BoardResultCorrected],
            TournamentCommand::AddCoOrganiser(_) => &[EventType::TournamentCoOrganiserAdded],
            TournamentCommand::ChangeRegistration(_) => &[EventType::TournamentRegistrationChanged],
            TournamentCommand::ApproveEntry(_) => &[EventType::TournamentEntryApproved],
            TournamentCommand::DeclineEntry(_) => &[EventType::TournamentEntryDeclined],
            TournamentCommand::UndoWithdrawal(_) => &[EventType::TournamentWithdrawalUndone],
            TournamentCommand::RecordProgress(_) => &[EventType::BoardProgressRecorded],
            TournamentCommand::ChangeSchedule(_) => &[EventType::TournamentScheduleChanged],
            TournamentCommand::SetRoundTimes(_) => &[EventType::RoundTimesSet],
            TournamentCommand::ConfirmResult(_) => &[EventType::BoardFinished],
            TournamentCommand::DisputeResult(_) => &[EventType::BoardResultDisputed],
            TournamentCommand::ChangeBestCountryRule(_) => &[EventType::BestCountryRuleChanged],
            TournamentCommand::GiveAward(_) => &[EventType::AwardGiven],
            TournamentCommand::RevokeAward(_) => &[EventType::AwardRevoked],
            TournamentCommand::ChangeTeamRules(_) => &[EventType::TeamRulesChanged],
            TournamentCommand::CreateTeam(_) => &[EventType::TeamCreated],
            TournamentCommand::RenameTeam(_) => &[EventType::TeamRenamed],
            TournamentCommand::DissolveTeam(_) => &[EventType::TeamDissolved],
            TournamentCommand::AddTeamMember(_) => &[EventType::TeamMemberAdded],
            TournamentCommand::RemoveTeamMember(_) => &[EventType::TeamMemberRemoved],
            TournamentCommand::ChangePowerAssignment(_) => &[EventType::PowerAssignmentChanged],
            TournamentCommand::SubmitPowerPreferences(_) => &[EventType::PowerPreferencesSubmitted],
            TournamentCommand::SetBoardPowers(_) => &[EventType::BoardPowersSet],
            TournamentCommand::ChoosePower(_) => &[EventType::PowerChosen],
            TournamentCommand::SetRoundPool(_) => &[EventType::RoundPoolSet],
            TournamentCommand::RemoveRoundPool(_) => &[EventType::RoundPoolRemoved],
            TournamentCommand::SetRoundScoring(_) => &[EventType::RoundScoringSet],
            TournamentCommand::AdjustScore(_) => &[EventType::ScoreAdjusted],
            TournamentCommand::RevokeScoreAdjustment(_) => &[EventType::ScoreAdjustmentRevoked],
            TournamentCommand::SetHandicap(_) => &[EventType::HandicapSet],
            TournamentCommand::SetUnranked(_) => &[EventType::EntrantRankingChanged],
            TournamentCommand::ChangeKeepApart(_) => {
                &[EventType::KeepApartAdded, EventType::KeepApartRemoved]
            }
            TournamentCommand::BreakTopBoardTie(_) => &[EventType::TopBoardTieBroken],
        },
        AppCommand::Calendar(CalendarCommand::Rotate(_)) => {
            &[EventType::CalendarFeedIssued, EventType::CalendarFeedRotated]
        }
        AppCommand::Webhook(c) => match c {
            WebhookCommand::Register(_) => &[EventType::WebhookRegistered],
            WebhookCommand::Pause(_) => &[EventType::WebhookPaused],
            WebhookCommand::Resume(_) => &[EventType::WebhookResumed],
            WebhookCommand::Remove(_) => &[EventType::WebhookRemoved],
        },
        AppCommand::Series(c) => match c {
            SeriesCommand::Create(_) => &[EventType::SeriesCreated],
            SeriesCommand::Add(_) => &[EventType::SeriesEventAdded],
            SeriesCommand::Remove(_) => &[EventType::SeriesEventRemoved],
            SeriesCommand::Change(_) => &[EventType::SeriesSettingsChanged],
        },
    }
}

/// Whether the gateway draws the command's stream id afresh for each call (a creation), so a
/// retry's stream differs from the first call's.
fn draws_stream_id(command: &AppCommand) -> bool {
    matches!(
        command,
        AppCommand::Player(PlayerCommand::Register(_))
            | AppCommand::League(LeagueCommand::Create(_))
            | AppCommand::Tournament(TournamentCommand::Create(_))
            | AppCommand::Webhook(WebhookCommand::Register(_))
            | AppCommand::Series(SeriesCommand::Create(_))
    )
}

#[cfg(test)]
mod tests {
    use league_domain::{CorrectResult, Subscribe, Unsubscribe};
    use league_scoring::GameResult;

    use super::*;

    fn player(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    #[test]
    fn keys_with_control_characters_are_refused() {
        let actor = Actor::Player(player(1).into());
        for key in ["a\0b", "line\nbreak", "\u{7f}", "tab\there"] {
            let error = scoped_key(actor, key).unwrap_err();
            assert_eq!(error.invalid_input().map(|(field, _)| field), Some("idempotencyKey"));
        }
        assert_eq!(scoped_key(actor, "join-1 ünïcode").unwrap(), format!("{actor}:join-1 ünïcode"));
    }

    #[test]
    fn the_fingerprint_tells_commands_apart_but_not_what_the_server_draws() {
        let actor = Actor::Player(player(1).into());
        let subscribe: AppCommand =
            Subscribe { actor, league_id: player(10).into(), player_id: player(1).into() }.into();
        let unsubscribe: AppCommand =
            Unsubscribe { actor, league_id: player(10).into(), player_id: player(1).into() }.into();
        let elsewhere: AppCommand =
            Subscribe { actor, league_id: player(11).into(), player_id: player(1).into() }.into();
        assert_eq!(fingerprint(&subscribe), fingerprint(&subscribe.clone()));
        assert_ne!(fingerprint(&subscribe), fingerprint(&unsubscribe));
        assert_ne!(fingerprint(&subscribe), fingerprint(&elsewhere));
        let correct = |reason: &str| -> AppCommand {
            CorrectResult {
                actor,
                league_id: player(10).into(),
                game_id: player(20).into(),
                result: GameResult::Placement(Vec::new()),
                reason: reason.to_owned(),
            }
            .into()
        };
        assert_ne!(fingerprint(&correct("typo")), fingerprint(&correct("other")));
        let seed = |seed: u64| -> AppCommand {
            league_domain::SeedRound {
                actor,
                tournament_id: player(30).into(),
                round: 1,
                seed,
                sitting_out: None,
                playing_twice: None,
            }
            .into()
        };
        assert_eq!(fingerprint(&seed(1)), fingerprint(&seed(2)));
    }
}
