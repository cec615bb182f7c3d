//! [`AppCommand`]: a command for any aggregate, as `App::execute` takes it.

use league_domain::{
    Actor, CalendarCommand, LeagueCommand, PlayerCommand, SeriesCommand, TournamentCommand,
    WebhookCommand,
};

/// A command for any aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    Player(PlayerCommand),
    League(LeagueCommand),
    Tournament(TournamentCommand),
    Calendar(CalendarCommand),
    Webhook(WebhookCommand),
    Series(SeriesCommand),
}

impl AppCommand {
    pub fn actor(&self) -> Actor {
        match self {
            AppCommand::Player(c) => c.actor(),
            AppCommand::League(c) => c.actor(),
            AppCommand::Tournament(c) => c.actor(),
            AppCommand::Calendar(c) => c.actor(),
            AppCommand::Webhook(c) => c.actor(),
            AppCommand::Series(c) => c.actor(),
        }
    }

    /// The stream the command appends to.
    pub fn stream_id(&self) -> String {
        match self {
            AppCommand::Player(c) => c.stream_id(),
            AppCommand::League(c) => c.stream_id(),
            AppCommand::Tournament(c) => c.stream_id(),
            AppCommand::Calendar(c) => c.stream_id(),
            AppCommand::Webhook(c) => c.stream_id(),
            AppCommand::Series(c) => c.stream_id(),
        }
    }
}

impl From<PlayerCommand> for AppCommand {
    fn from(c: PlayerCommand) -> Self {
        AppCommand::Player(c)
    }
}

impl From<LeagueCommand> for AppCommand {
    fn from(c: LeagueCommand) -> Self {
        AppCommand::League(c)
    }
}

impl From<TournamentCommand> for AppCommand {
    fn from(c: TournamentCommand) -> Self {
        AppCommand::Tournament(c)
    }
}

impl From<CalendarCommand> for AppCommand {
    fn from(c: CalendarCommand) -> Self {
        AppCommand::Calendar(c)
    }
}

impl From<SeriesCommand> for AppCommand {
    fn from(c: SeriesCommand) -> Self {
        AppCommand::Series(c)
    }
}

impl From<WebhookCommand> for AppCommand {
    fn from(c: WebhookCommand) -> Self {
        AppCommand::Webhook(c)
    }
}

macro_rules! app_command_from {
    ($($ty:ident => $outer:ident),*) => {$(
        impl From<league_domain::$ty> for AppCommand {
            fn from(c: league_domain::$ty) -> Self {
                AppCommand::$outer(c.into())
            }
        }
    )*};
}

app_command_from!(
    RegisterPlayer => Player,
    RotateToken => Player,
    RevokeToken => Player,
    AppointOrganiser => Player,
    DismissOrganiser => Player,
    ErasePlayer => Player,
    AddPasskey => Player,
    RemovePasskey => Player,
    LinkIdentity => Player,
    UnlinkIdentity => Player,
    SignUpPlayer => Player,
    IssueInvite => Player,
    RevokeInvite => Player,
    StartSession => Player,
    RenewSession => Player,
    EndSession => Player,
    EndAllSessions => Player,
    IssueSignInLink => Player,
    ChangePermanentKeepApart => Player,
    RecordExternalId => Player,
    CreateLeague => League,
    AddLeagueCoOrganiser => League,
    Subscribe => League,
    Unsubscribe => League,
    ReportResult => League,
    CorrectResult => League,
    CreateTournament => Tournament,
    EnterTournament => Tournament,
    WithdrawFromTournament => Tournament,
    AnswerRollCall => Tournament,
    SeedRound => Tournament,
    SwapRoundPlayers => Tournament,
    ReportBoardResult => Tournament,
    CorrectBoardResult => Tournament,
    AddTournamentCoOrganiser => Tournament,
    ChangeTournamentRegistration => Tournament,
    ApproveTournamentEntry => Tournament,
    DeclineTournamentEntry => Tournament,
    UndoTournamentWithdrawal => Tournament,
    RecordBoardProgress => Tournament,
    ChangeTournamentSchedule => Tournament,
    SetRoundTimes => Tournament,
    ConfirmBoardResult => Tournament,
    DisputeBoardResult => Tournament,
    ChangeBestCountryRule => Tournament,
    GiveAward => Tournament,
    RevokeAward => Tournament,
    ChangeTeamRules => Tournament,
    CreateTeam => Tournament,
    RenameTeam => Tournament,
    DissolveTeam => Tournament,
    AddTeamMember => Tournament,
    RemoveTeamMember => Tournament,
    SetRoundPool => Tournament,
    RemoveRoundPool => Tournament,
    SetRoundScoring => Tournament,
    AdjustScore => Tournament,
    RevokeScoreAdjustment => Tournament,
    SetHandicap => Tournament,
    SetUnranked => Tournament,
    ChangeKeepApart => Tournament,
    BreakTopBoardTie => Tournament,
    RotateCalendarFeed => Calendar,
    RegisterWebhook => Webhook,
    PauseWebhook => Webhook,
    ResumeWebhook => Webhook,
    RemoveWebhook => Webhook,
    CreateSeries => Series,
    AddSeriesEvent => Series,
    RemoveSeriesEvent => Series,
    ChangeSeriesSettings => Series,
    ChangePowerAssignment => Tournament,
    SubmitPowerPreferences => Tournament,
    SetBoardPowers => Tournament,
    ChoosePower => Tournament
);
