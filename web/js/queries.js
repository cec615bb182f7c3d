// @ts-check
/** @file Every GraphQL document the app sends. The browser tests validate each one
 * against `schema.graphql`, so the app and the API cannot drift apart. */

/** The scoring catalogue: every system and aggregation, with what a result must carry. */
export const CATALOGUE = /* GraphQL */ `
query Catalogue {
  scoringSystems {
    system cliName displayName aliases resultShape minPlayersPerGame maxPlayersPerGame
    requires { field description } concessionScoring rule source description ratingKind totalCentres
  }
  aggregations { kind displayName rule takesN }
  usualScoringSystems { game system }
}`;

export const ME = /* GraphQL */ `query Me { me { id name isOrganiser } }`;

export const LEAGUES = /* GraphQL */ `
query Leagues($first: Int!, $after: String) {
  leagues(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name game gameVersion scoringSystem status size playersPerGame players { id } }
  }
}`;

const STANDING = `rank total played wins draws player { id name } separatedBy { code label }`;

/** What the app shows of a reported result, and prefills a correction with. */
const RESULT_FIELDS = `
fragment ResultFields on GameResult {
  __typename
  ... on PlacementResult { entries { points player { id } } }
  ... on DiplomacyResult { entries { centres eliminated eliminatedYear inDraw soloYear earlierCentres player { id } } }
  ... on TeamResult { draw sides { name players { points units lost kills shipsLeft surrendered player { id } } } }
}`;

/** An event as a live page shows it (the time travel's label). */
const LIVE_EVENT = `position version type description actor recordedAt`;

/** A change of a player's total, as the chart and the audit page show it. */
const SCORE_CHANGE = `position delta total reason game { id }`;

/** A league's page: everything it shows, in one request (docs/performance.md#live-pages). */
export const LEAGUE = /* GraphQL */ `
query League($id: ID!) {
  seriesOf(competitionId: $id) { id name }
  league(id: $id) {
    id name game gameVersion scoringSystem playersPerGame size gamesPerSeat
    requireActivePlayers status createdAt version
    aggregation { kind n }
    organisers { id }
    players { id name }
    standings { ${STANDING} }
    games {
      id number status finishedAt
      seats { seat label player { id name } }
      scores { score player { id name } }
      result { ...ResultFields }
    }
    latestEvent { ${LIVE_EVENT} }
    scoreHistories { player { id name } changes { ${SCORE_CHANGE} } }
  }
}
${RESULT_FIELDS}`;

export const STANDINGS_AS_OF = /* GraphQL */ `
query StandingsAsOf($leagueId: ID!, $position: Int!) {
  standings(leagueId: $leagueId, asOf: { position: $position }) { ${STANDING} }
}`;

export const STANDINGS_CHANGED = /* GraphQL */ `
subscription StandingsChanged($leagueId: ID!) {
  standingsChanged(leagueId: $leagueId) { position standings { ${STANDING} } }
}`;

export const LEAGUE_EVENTS = /* GraphQL */ `
subscription LeagueEvents($leagueId: ID!) {
  leagueEvents(leagueId: $leagueId) { ${LIVE_EVENT} }
}`;

/** Only the standings rows a change moved, with the versions that say whether the page's
 * rows are the ones they apply to (docs/api.md#live-updates). */
export const STANDINGS_PUSHED = /* GraphQL */ `
subscription StandingsPushed($leagueId: ID!) {
  standingsChanged(leagueId: $leagueId) {
    position version previousVersion rowCount ranks changed { rank total played wins draws player { id } separatedBy { code label } }
  }
}`;

/** What a result or a correction changed on a league's page: the games it touched (through
 * the score changes it made) and the chart's new points. */
export const LEAGUE_CHANGE = /* GraphQL */ `
query LeagueChange($id: ID!, $after: Int!) {
  league(id: $id) {
    id status
    scoreHistories(afterPosition: $after) {
      player { id }
      changes {
        ${SCORE_CHANGE}
        game { id status finishedAt scores { score player { id name } } result { ...ResultFields } }
      }
    }
  }
}
${RESULT_FIELDS}`;

export const EVENTS = /* GraphQL */ `
query Events($leagueId: ID, $tournamentId: ID, $first: Int!, $after: String) {
  events(leagueId: $leagueId, tournamentId: $tournamentId, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { position type description actor recordedAt hash prevHash streamId version payload }
  }
}`;

export const SCORE_HISTORY = /* GraphQL */ `
query ScoreHistory($leagueId: ID!, $playerId: ID!) {
  scoreHistory(leagueId: $leagueId, playerId: $playerId) {
    position recordedAt delta total reason game { id number }
  }
}`;

export const PLAYER = /* GraphQL */ `
query Player($id: ID!) {
  player(id: $id) {
    id name registeredAt calendarFeed
    leagues { id name game scoringSystem status players { id name } }
    competitions {
      rank of nextBoardStartsAt
      tournament { id name status schedule { timeZone } boardsOf(playerId: $id) { id round number correctionReasons } }
      league { id name status }
      nextBoard { id round number seats { label player { id } } }
    }
  }
}`;

export const PLAYERS = /* GraphQL */ `
query Players($first: Int!, $after: String) {
  players(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name }
  }
}`;

export const GAME = /* GraphQL */ `
query Game($id: ID!) {
  game(id: $id) {
    id number status finishedAt
    league { id name scoringSystem playersPerGame organisers { id } }
    seats { seat label player { id name } }
    scores { score player { id name } }
    result { ...ResultFields }
  }
}
${RESULT_FIELDS}`;

export const REGISTER_PLAYER = /* GraphQL */ `
mutation RegisterPlayer($name: String!) {
  registerPlayer(input: { name: $name }) { token player { id name } }
}`;

export const CREATE_LEAGUE = /* GraphQL */ `
mutation CreateLeague($input: CreateLeagueInput!, $idempotencyKey: String) {
  createLeague(input: $input, idempotencyKey: $idempotencyKey) { id name }
}`;

export const SUBSCRIBE = /* GraphQL */ `
mutation Subscribe($leagueId: ID!) {
  subscribeToLeague(leagueId: $leagueId) { id status }
}`;

export const UNSUBSCRIBE = /* GraphQL */ `
mutation Unsubscribe($leagueId: ID!) {
  unsubscribeFromLeague(leagueId: $leagueId) { id status }
}`;

export const REPORT_RESULT = /* GraphQL */ `
mutation ReportResult($gameId: ID!, $result: GameResultInput!, $idempotencyKey: String) {
  reportGameResult(gameId: $gameId, result: $result, idempotencyKey: $idempotencyKey) { id status }
}`;

export const CORRECT_RESULT = /* GraphQL */ `
mutation CorrectResult($gameId: ID!, $result: GameResultInput!, $reason: String!, $idempotencyKey: String) {
  correctGameResult(gameId: $gameId, result: $result, reason: $reason, idempotencyKey: $idempotencyKey) { id status }
}`;

const RATING = `mu sigma display games`;

export const RATINGS = /* GraphQL */ `
query Ratings($game: GameKind!, $first: Int!, $after: String) {
  ratings(game: $game, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { rank player { id name } rating { ${RATING} } }
  }
}`;

export const PLAYER_RATING = /* GraphQL */ `
query PlayerRating($id: ID!, $game: GameKind!) {
  player(id: $id) {
    id
    rating(game: $game) { ${RATING} }
  }
}`;

/** Asked only when a visitor opens it: on a long log the first history a gateway answers
 * loads every rated game (docs/ratings.md), which the rating alone does not. */
export const PLAYER_RATING_HISTORY = /* GraphQL */ `
query PlayerRatingHistory($id: ID!, $game: GameKind!) {
  player(id: $id) {
    id
    ratingHistory(game: $game) {
      position recordedAt correction delta
      rating { ${RATING} }
      game { id number league { id name } }
      board { id tournamentId tournamentName round number }
    }
  }
}`;

/** What a tournament may be created with, as the server lists it. */
export const TOURNAMENT_CATALOGUE = /* GraphQL */ `
query TournamentCatalogue {
  tournamentScorings { id name description usesRoundScores }
  roundScorings { value name description }
  replacementScores: __type(name: "ReplacementScores") { enumValues { name description } }
}`;

export const TOURNAMENTS = /* GraphQL */ `
query Tournaments {
  tournaments {
    id name game gameVersion scoringSystem status playersPerBoard roundCount nextRound
    entrants { withdrawnAfterRound }
    registration { maxEntrants }
    organisers { id }
  }
}`;

export const CREATE_TOURNAMENT = /* GraphQL */ `
mutation CreateTournament($input: CreateTournamentInput!, $idempotencyKey: String) {
  createTournament(input: $input, idempotencyKey: $idempotencyKey) { id name }
}`;

/** Sets when a round is played (docs/tournaments.md#times). */
export const SET_ROUND_TIMES = /* GraphQL */ `
mutation SetRoundTimes($tournamentId: ID!, $round: Int!, $startsAt: DateTime!) {
  setRoundTimes(tournamentId: $tournamentId, round: $round, startsAt: $startsAt) { id }
}`;

const TOURNAMENT_STANDING = `
  rank total games wins draws notes player { id name }
  rounds { round score satOut dropped boards { board score dropped } } separatedBy { code label }
  unranked rulings { kind number round board points reason }`;

/** A board as the tournament page shows it: seats, scores and each correction's reason. */
const TOURNAMENT_PAGE_BOARD = `id number finished corrections correctionReasons seats { seat label player { id name } } scores { score player { id } } powerChoice { order { id name } picked next { id name } }`;

/** A tournament's page: settings, entrants, the open roll call, every seeded round. */
/** Each power's Best Country leaders (docs/tournaments.md#best-country-and-awards). */
const BEST_COUNTRY = "power leaders { player { id name } round boardNumber score centres tied }";

/** A team's line in the team standings (docs/tournaments.md#teams). */
const TEAM_STANDING = "rank total team { number name members { id name } }";

export const TOURNAMENT = /* GraphQL */ `
query Tournament($id: ID!) {
  seriesOf(competitionId: $id) { id name }
  tournament(id: $id) {
    id name game gameVersion scoringSystem playersPerBoard roundCount roundScoring
    tournamentScoring { id name description }
    keepApart { id name }
    sitOutPoints sitOutPointsOnce topBoardLastRound replacementScores seatLabels
    status createdAt version nextRound
    schedule { timeZone startsOn endsOn venueName venueAddress checkInOpensMinutesBefore }
    roundTimes { round startsAt endsAt finalYear checkInOpensAt }
    organisers { id name }
    entrants { enteredAfterRound withdrawnAfterRound player { id name } }
    registration { closed opensAt closesAt maxEntrants approval entrants openNow refusal }
    waitlist { id name }
    entryRequests { id name }
    rollCall { answered present standby twoBoards player { id name } }
    proposal { round present problem sittingOut { id name } playingTwice { id name } reasons { player { id } reason } }
    bestCountryRule { criterion excludeTopBoards }
    bestCountries { ${BEST_COUNTRY} }
    awards { number name player { id name } power reason }
    teamRules { maxSize teamRounds basis best }
    teams { number name members { id name } }
    teamStandings { ${TEAM_STANDING} }
    powerAssignment { method topBoardOrderedChoice }
    powerPreferences { player { id name } powers }
    roundStages { round scoringSystem ownScoringSystem pool { best multiplier decidesPlaces poolBoards named { id name } } }
    handicaps { points reason player { id name } }
    topBoardOrders { round reason players { id name } }
    rounds {
      number started completed topBoard
      sittingOut { id name }
      playingTwice { id name }
      seeding { algorithm seed inputsDigest repeatScore seatRepeats keepApartMet }
      swaps { first { id name } second { id name } reason }
      boards { ${TOURNAMENT_PAGE_BOARD} }
    }
  }
}`;

/** Only the board a result or a correction changed, for the tournament page
 * (docs/api.md#live-updates). */
export const CHANGED_BOARD = /* GraphQL */ `
query ChangedBoard($id: ID!, $boardId: ID!) {
  tournament(id: $id) { id board(id: $boardId) { round ${TOURNAMENT_PAGE_BOARD} } bestCountries { ${BEST_COUNTRY} } teamStandings { ${TEAM_STANDING} } }
}`;

/** Each event's version (a gap shows a missed one), type and payload: the tournament page
 * reads only what the event changed (docs/api.md#live-updates). */
export const TOURNAMENT_EVENTS = /* GraphQL */ `
subscription TournamentEvents($tournamentId: ID!) {
  tournamentEvents(tournamentId: $tournamentId) { position version type payload }
}`;

/** Only the position: that a tournament's standings moved (a series page reads its own
 * standings again). */
export const TOURNAMENT_STANDINGS_MOVED = /* GraphQL */ `
subscription TournamentStandingsMoved($tournamentId: ID!) {
  tournamentStandingsChanged(tournamentId: $tournamentId) { position }
}`;

/** Only the standings lines a change moved, with the versions that say whether the page's
 * lines are the ones they apply to (docs/api.md#live-updates). */
export const TOURNAMENT_STANDINGS_PUSHED = /* GraphQL */ `
subscription TournamentStandingsPushed($tournamentId: ID!) {
  tournamentStandingsChanged(tournamentId: $tournamentId) {
    position version previousVersion rowCount ranks changed { ${TOURNAMENT_STANDING} }
  }
}`;

export const TOURNAMENT_STANDINGS = /* GraphQL */ `
query TournamentStandings($id: ID!, $afterRound: Int) {
  tournament(id: $id) { id version standings(afterRound: $afterRound) { ${TOURNAMENT_STANDING} } }
}`;

export const BOARDS_OF = /* GraphQL */ `
query BoardsOf($id: ID!, $playerId: ID!) {
  tournament(id: $id) { id boardsOf(playerId: $playerId) { id round number finished seats { label player { id } } } }
}`;

export const SEEDING_CHECKS = /* GraphQL */ `
query SeedingChecks($id: ID!) {
  tournament(id: $id) {
    id
    seedingChecks { round verified algorithm seed recordedDigest recomputedDigest boardsMatch problem }
  }
}`;

/** One round's boards, for the printable board call. */
export const BOARD_CALL = /* GraphQL */ `
query BoardCall($id: ID!, $round: Int!) {
  tournament(id: $id) {
    id name
    round(number: $round) {
      number
      sittingOut { id name }
      playingTwice { id name }
      boards { id number seats { seat label player { id name } } }
    }
  }
}`;

/** A board with what its result form needs. */
export const TOURNAMENT_BOARD = /* GraphQL */ `
query TournamentBoard($id: ID!, $boardId: ID!) {
  tournament(id: $id) {
    id name scoringSystem confirmPlayerResults
    organisers { id }
    board(id: $boardId) {
      id round number finished corrections correctionReasons
      seats { seat label player { id name } }
      scores { score player { id } }
      replacements { seated { id name } replacement { id name } }
      result { ...ResultFields }
      awaitingConfirmation { result { ...ResultFields } reportedBy { id name } disputedBy { id name } disputeReason }
    }
  }
}
${RESULT_FIELDS}`;

export const ENTER_TOURNAMENT = /* GraphQL */ `
mutation EnterTournament($tournamentId: ID!, $playerId: ID, $idempotencyKey: String) {
  enterTournament(tournamentId: $tournamentId, playerId: $playerId, idempotencyKey: $idempotencyKey) { id version }
}`;

/** The registration controls a tournament's directors change (docs/tournaments.md#registration). */
export const CHANGE_TOURNAMENT_REGISTRATION = /* GraphQL */ `
mutation ChangeTournamentRegistration($tournamentId: ID!, $registration: TournamentRegistrationInput!) {
  changeTournamentRegistration(tournamentId: $tournamentId, registration: $registration) { id version }
}`;

export const APPROVE_TOURNAMENT_ENTRY = /* GraphQL */ `
mutation ApproveTournamentEntry($tournamentId: ID!, $playerId: ID!) {
  approveTournamentEntry(tournamentId: $tournamentId, playerId: $playerId) { id version }
}`;

export const DECLINE_TOURNAMENT_ENTRY = /* GraphQL */ `
mutation DeclineTournamentEntry($tournamentId: ID!, $playerId: ID!) {
  declineTournamentEntry(tournamentId: $tournamentId, playerId: $playerId) { id version }
}`;

export const UNDO_TOURNAMENT_WITHDRAWAL = /* GraphQL */ `
mutation UndoTournamentWithdrawal($tournamentId: ID!, $playerId: ID!) {
  undoTournamentWithdrawal(tournamentId: $tournamentId, playerId: $playerId) { id version }
}`;

export const WITHDRAW_FROM_TOURNAMENT = /* GraphQL */ `
mutation WithdrawFromTournament($tournamentId: ID!, $playerId: ID, $idempotencyKey: String) {
  withdrawFromTournament(tournamentId: $tournamentId, playerId: $playerId, idempotencyKey: $idempotencyKey) { id version }
}`;

export const ANSWER_ROLL_CALL = /* GraphQL */ `
mutation AnswerRollCall($tournamentId: ID!, $round: Int!, $playerId: ID, $present: Boolean!, $standby: Boolean!, $twoBoards: Boolean!) {
  answerRollCall(tournamentId: $tournamentId, round: $round, playerId: $playerId, present: $present, standby: $standby, twoBoards: $twoBoards) { id version }
}`;

export const SEED_ROUND = /* GraphQL */ `
mutation SeedRound($tournamentId: ID!, $round: Int!, $idempotencyKey: String) {
  seedRound(tournamentId: $tournamentId, round: $round, idempotencyKey: $idempotencyKey) { number }
}`;

export const SWAP_ROUND_PLAYERS = /* GraphQL */ `
mutation SwapRoundPlayers($tournamentId: ID!, $round: Int!, $first: ID!, $second: ID!, $reason: String!) {
  swapRoundPlayers(tournamentId: $tournamentId, round: $round, first: $first, second: $second, reason: $reason) { number }
}`;

export const REPORT_BOARD_RESULT = /* GraphQL */ `
mutation ReportBoardResult($tournamentId: ID!, $boardId: ID!, $result: GameResultInput!, $idempotencyKey: String) {
  reportBoardResult(tournamentId: $tournamentId, boardId: $boardId, result: $result, idempotencyKey: $idempotencyKey) { id finished }
}`;

export const CORRECT_BOARD_RESULT = /* GraphQL */ `
mutation CorrectBoardResult($tournamentId: ID!, $boardId: ID!, $result: GameResultInput!, $reason: String!, $idempotencyKey: String) {
  correctBoardResult(tournamentId: $tournamentId, boardId: $boardId, result: $result, reason: $reason, idempotencyKey: $idempotencyKey) { id finished }
}`;

export const ROTATE_TOKEN = /* GraphQL */ `
mutation RotateToken { rotateToken { player { id name } token } }`;

/** A new secret calendar feed for the signed-in player (its URL is shown only once). */
export const ROTATE_CALENDAR_FEED = /* GraphQL */ `
mutation RotateCalendarFeed { rotateCalendarFeed { url } }`;

/** Players whose name holds `search` (every player when it is empty), with their roles. */
export const FIND_PLAYERS = /* GraphQL */ `
query FindPlayers($first: Int!, $after: String, $search: String) {
  players(first: $first, after: $after, search: $search) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name isOrganiser erased }
  }
}`;

/** A player as their account page shows them. */
export const ACCOUNT = /* GraphQL */ `
query Account($id: ID!) { player(id: $id) { id name isOrganiser erased registeredAt } }`;

export const APPOINT_ORGANISER = /* GraphQL */ `
mutation AppointOrganiser($playerId: ID!) { appointOrganiser(playerId: $playerId) { id isOrganiser } }`;

export const DISMISS_ORGANISER = /* GraphQL */ `
mutation DismissOrganiser($playerId: ID!) { dismissOrganiser(playerId: $playerId) { id isOrganiser } }`;

/** The site admin replaces a player's token (the new one is shown only once). */
export const ROTATE_TOKEN_OF = /* GraphQL */ `
mutation RotateTokenOf($playerId: ID!) { rotateToken(playerId: $playerId) { player { id name } token } }`;

export const REVOKE_TOKEN = /* GraphQL */ `
mutation RevokeToken($playerId: ID!) { revokeToken(playerId: $playerId) { id } }`;

export const ERASE_PLAYER = /* GraphQL */ `
mutation ErasePlayer($playerId: ID, $reason: String!) { erasePlayer(playerId: $playerId, reason: $reason) { id name erased } }`;

/** The access request: everything the platform holds about a player, as JSON. */
export const PERSONAL_DATA = /* GraphQL */ `
query PersonalData($playerId: ID) { personalData(playerId: $playerId) }`;

/** A league's or tournament's organisers (the creator and the co-organisers). */
export const LEAGUE_ORGANISERS = /* GraphQL */ `
query LeagueOrganisers($id: ID!) { league(id: $id) { id name organisers { id name } } }`;

export const TOURNAMENT_ORGANISERS = /* GraphQL */ `
query TournamentOrganisers($id: ID!) { tournament(id: $id) { id name organisers { id name } } }`;

export const ADD_CO_ORGANISER = /* GraphQL */ `
mutation AddCoOrganiser($competitionId: ID!, $playerId: ID!) { addCoOrganiser(competitionId: $competitionId, playerId: $playerId) }`;

/** A league or a tournament by id (the other is null), with its organisers. */
export const COMPETITION = /* GraphQL */ `
query Competition($id: ID!) {
  league(id: $id) { __typename id name organisers { id } }
  tournament(id: $id) { __typename id name organisers { id } }
}`;

/** What a webhook can be told about, with the server's descriptions. */
export const WEBHOOK_KINDS = /* GraphQL */ `
query WebhookKinds { __type(name: "WebhookKind") { enumValues { name description } } }`;

export const WEBHOOKS = /* GraphQL */ `
query Webhooks {
  webhooks { id url kinds competitionIds format status pausedReason lastError lastDeliveredAt }
}`;

export const REGISTER_WEBHOOK = /* GraphQL */ `
mutation RegisterWebhook($input: RegisterWebhookInput!, $idempotencyKey: String) {
  registerWebhook(input: $input, idempotencyKey: $idempotencyKey) { secret webhook { id } }
}`;

export const RESUME_WEBHOOK = /* GraphQL */ `
mutation ResumeWebhook($id: ID!) { resumeWebhook(id: $id) { id status } }`;

export const REMOVE_WEBHOOK = /* GraphQL */ `
mutation RemoveWebhook($id: ID!) { removeWebhook(id: $id) }`;

/** The embeddable standings widget of a league. */
export const EMBED_LEAGUE = /* GraphQL */ `
query EmbedLeague($id: ID!) { league(id: $id) { id name status standings { ${STANDING} } } }`;

const EMBED_TOURNAMENT_STANDING = `rank total games player { id name }`;

/** The embeddable standings widget of a tournament. */
export const EMBED_TOURNAMENT = /* GraphQL */ `
query EmbedTournament($id: ID!) {
  tournament(id: $id) { id name status standings { ${EMBED_TOURNAMENT_STANDING} } }
}`;

export const TOURNAMENT_STANDINGS_CHANGED = /* GraphQL */ `
subscription TournamentStandingsChanged($tournamentId: ID!) {
  tournamentStandingsChanged(tournamentId: $tournamentId) {
    position tournament { id standings { ${EMBED_TOURNAMENT_STANDING} } }
  }
}`;

/** The signed-in player's passkeys (docs/sign-in.md#passkeys). */
export const PASSKEYS = /* GraphQL */ `
query Passkeys { passkeys { id name addedAt } }`;

/** Begins adding a passkey: creation options (JSON text) for `navigator.credentials.create`. */
export const BEGIN_ADDING_PASSKEY = /* GraphQL */ `
mutation BeginAddingPasskey { beginAddingPasskey }`;

/** Finishes adding a passkey: the new credential (JSON text) and its name. */
export const ADD_PASSKEY = /* GraphQL */ `
mutation AddPasskey($name: String!, $response: String!) { addPasskey(name: $name, response: $response) { id name addedAt } }`;

/** Removes one of the signed-in player's passkeys. */
export const REMOVE_PASSKEY = /* GraphQL */ `
mutation RemovePasskey($passkeyId: ID!) { removePasskey(passkeyId: $passkeyId) }`;
export const WALK_INS_TOURNAMENT = /* GraphQL */ `
query WalkInsTournament($id: ID!) {
  tournament(id: $id) { id name organisers { id } }
}`;

export const WALK_INS_PREVIEW = /* GraphQL */ `
query WalkInsPreview($competitionId: ID!, $list: String!) {
  walkInsPreview(competitionId: $competitionId, list: $list) {
    lines { line name externalIds { system id } matches { player { id name } entered } sameNameAsLines }
    problems { line field message }
  }
}`;

export const WALK_INS = /* GraphQL */ `
mutation WalkIns($input: WalkInsInput!) {
  walkIns(input: $input) { line player { id name } registered entered token }
}`;

export const SIGN_UP_POLICY = /* GraphQL */ `
query SignUpPolicy { signUpPolicy }`;

export const ISSUE_INVITE = /* GraphQL */ `
mutation IssueInvite($days: Int) {
  issueInvite(days: $days) { id link expiresAt }
}`;

export const REVOKE_INVITE = /* GraphQL */ `
mutation RevokeInvite($inviteId: ID!) { revokeInvite(inviteId: $inviteId) }`;
/** The signed-in player's browsers (docs/sign-in.md). */
export const SESSIONS = /* GraphQL */ `
query Sessions { sessions { id method device startedAt renewedAt expiresAt current } }`;

export const END_SESSION = /* GraphQL */ `
mutation EndSession($sessionId: ID!) { endSession(sessionId: $sessionId) }`;

export const END_ALL_SESSIONS = /* GraphQL */ `mutation EndAllSessions { endAllSessions }`;

const SIGN_IN_LINK = "player { id name } url qrSvg expiresAt";

/** A single-use sign-in link (the caller's own, or a player's for an organiser). */
export const ISSUE_SIGN_IN_LINK = /* GraphQL */ `
mutation IssueSignInLink($playerId: ID, $returnTo: String) {
  issueSignInLink(playerId: $playerId, returnTo: $returnTo) { ${SIGN_IN_LINK} }
}`;

/** A sign-in link for every entrant of a tournament (the printed sheet). */
export const ISSUE_SIGN_IN_SHEET = /* GraphQL */ `
mutation IssueSignInSheet($tournamentId: ID!) {
  issueSignInSheet(tournamentId: $tournamentId) { links { ${SIGN_IN_LINK} } skipped { reason player { id name } } }
}`;
/** How one may sign in besides a token: the site's identity provider, and whether the
 * calling player linked an identity of it. */
export const SIGN_IN_METHODS = /* GraphQL */ `
query SignInMethods { signInMethods { identityProvider { name linked } } }`;

/** Unlinks the calling player's identity of the site's identity provider. */
export const UNLINK_IDENTITY = /* GraphQL */ `
mutation UnlinkIdentity { unlinkIdentity { id } }`;

/** A board's live progress: the centre chart's lines, each year's counts and the provisional
 * scores (docs/tournaments.md#live-progress). */
const BOARD_PROGRESS_FIELDS = `
  id finished
  progress {
    supplyCentres
    years { year total corrections reason recordedBy { id name } }
    powers { seat power player { id name } counts { year centres } eliminatedYear }
  }
  provisionalScores { score player { id } }`;

const PROVISIONAL_STANDING = `rank total games player { id name }`;

/** The board page's progress section and the tournament's provisional standings. */
export const BOARD_PROGRESS = /* GraphQL */ `
query BoardProgress($id: ID!, $boardId: ID!) {
  tournament(id: $id) { id provisionalStandings { ${PROVISIONAL_STANDING} } board(id: $boardId) { ${BOARD_PROGRESS_FIELDS} } }
}`;

/** Each progress record, carrying what the board page shows: no refetch. */
export const BOARD_PROGRESS_RECORDED = /* GraphQL */ `
subscription BoardProgressRecorded($tournamentId: ID!, $boardId: ID) {
  boardProgressRecorded(tournamentId: $tournamentId, boardId: $boardId) {
    position
    tournament { id provisionalStandings { ${PROVISIONAL_STANDING} } }
    board { ${BOARD_PROGRESS_FIELDS} }
  }
}`;

export const RECORD_BOARD_PROGRESS = /* GraphQL */ `
mutation RecordBoardProgress($tournamentId: ID!, $boardId: ID!, $year: Int!, $centres: [Int!]!, $reason: String) {
  recordBoardProgress(tournamentId: $tournamentId, boardId: $boardId, year: $year, centres: $centres, reason: $reason) { id }
}`;

/** The projector page: standings (official and provisional), the current round's board call
 * and each of its boards' centre charts. */
export const KIOSK = /* GraphQL */ `
query Kiosk($id: ID!) {
  tournament(id: $id) {
    id name status version
    standings { ${PROVISIONAL_STANDING} }
    provisionalStandings { ${PROVISIONAL_STANDING} }
    bestCountries { ${BEST_COUNTRY} }
    rounds {
      number completed
      boards { id number finished seats { label player { id name } } progress { powers { seat power counts { year centres } eliminatedYear } } }
    }
  }
}`;

/** What a result changes on the projector page besides the official standings (pushed): the
 * provisional standings and which boards are finished (a new round or board reads the page
 * again). */
export const KIOSK_RESULT = /* GraphQL */ `
query KioskResult($id: ID!) {
  tournament(id: $id) {
    id
    provisionalStandings { ${PROVISIONAL_STANDING} }
    bestCountries { ${BEST_COUNTRY} }
    rounds { number boards { id finished } }
  }
}`;

/** Confirming or disputing a player's report that awaits confirmation (docs/tournaments.md#result-confirmation). */
export const CONFIRM_BOARD_RESULT = /* GraphQL */ `
mutation ConfirmBoardResult($tournamentId: ID!, $boardId: ID!, $idempotencyKey: String) {
  confirmBoardResult(tournamentId: $tournamentId, boardId: $boardId, idempotencyKey: $idempotencyKey) { id finished }
}`;

export const DISPUTE_BOARD_RESULT = /* GraphQL */ `
mutation DisputeBoardResult($tournamentId: ID!, $boardId: ID!, $reason: String!, $idempotencyKey: String) {
  disputeBoardResult(tournamentId: $tournamentId, boardId: $boardId, reason: $reason, idempotencyKey: $idempotencyKey) { id finished }
}`;

/** A tournament's audit page: its name and the people its events name, and its events paged. */
export const TOURNAMENT_AUDIT = /* GraphQL */ `
query TournamentAudit($id: ID!) {
  tournament(id: $id) {
    id name
    organisers { id name }
    entrants { player { id name } }
  }
}`;

// Series (docs/series.md): web/js/series.js.
const SERIES_FIELDS = /* GraphQL */ `id name best basis createdBy events { id kind name }`;

export const SERIES_LIST = /* GraphQL */ `query SeriesList { seriesList { ${SERIES_FIELDS} } }`;

export const SERIES = /* GraphQL */ `
query Series($id: ID!) {
  series(id: $id) {
    ${SERIES_FIELDS}
    standings { rank total attended player { id name } }
    attendance { player { id name } results { eventId rank points counted } }
  }
}`;

export const SERIES_CANDIDATES = /* GraphQL */ `query SeriesCandidates { tournaments { id name } leagues(first: 100) { nodes { id name } } }`;

export const CREATE_SERIES = /* GraphQL */ `
mutation CreateSeries($input: CreateSeriesInput!, $idempotencyKey: String) {
  createSeries(input: $input, idempotencyKey: $idempotencyKey) { id }
}`;

export const ADD_SERIES_EVENT = /* GraphQL */ `
mutation AddSeriesEvent($seriesId: ID!, $competitionId: ID!, $idempotencyKey: String) {
  addSeriesEvent(seriesId: $seriesId, competitionId: $competitionId, idempotencyKey: $idempotencyKey) { id }
}`;

export const REMOVE_SERIES_EVENT = /* GraphQL */ `
mutation RemoveSeriesEvent($seriesId: ID!, $competitionId: ID!) {
  removeSeriesEvent(seriesId: $seriesId, competitionId: $competitionId) { id }
}`;

/** Giving and revoking a named award, and the Best Country rule (docs/tournaments.md#best-country-and-awards). */
export const GIVE_AWARD = /* GraphQL */ `
mutation GiveAward($tournamentId: ID!, $name: String!, $playerId: ID!, $power: String, $reason: String, $idempotencyKey: String) {
  giveAward(tournamentId: $tournamentId, name: $name, playerId: $playerId, power: $power, reason: $reason, idempotencyKey: $idempotencyKey) { id }
}`;

export const REVOKE_AWARD = /* GraphQL */ `
mutation RevokeAward($tournamentId: ID!, $number: Int!, $idempotencyKey: String) {
  revokeAward(tournamentId: $tournamentId, number: $number, idempotencyKey: $idempotencyKey) { id }
}`;

export const CHANGE_BEST_COUNTRY_RULE = /* GraphQL */ `
mutation ChangeBestCountryRule($tournamentId: ID!, $criterion: BestCountryCriterion!, $excludeTopBoards: Boolean) {
  changeBestCountryRule(tournamentId: $tournamentId, criterion: $criterion, excludeTopBoards: $excludeTopBoards) { id }
}`;

/** Teams: the rules, creating and dissolving a team, its members (docs/tournaments.md#teams). */
export const CHANGE_TEAM_RULES = /* GraphQL */ `
mutation ChangeTeamRules($tournamentId: ID!, $rules: TeamRulesInput!) {
  changeTeamRules(tournamentId: $tournamentId, rules: $rules) { id }
}`;

export const CREATE_TEAM = /* GraphQL */ `
mutation CreateTeam($tournamentId: ID!, $name: String!, $idempotencyKey: String) {
  createTeam(tournamentId: $tournamentId, name: $name, idempotencyKey: $idempotencyKey) { id }
}`;

export const DISSOLVE_TEAM = /* GraphQL */ `
mutation DissolveTeam($tournamentId: ID!, $number: Int!, $idempotencyKey: String) {
  dissolveTeam(tournamentId: $tournamentId, number: $number, idempotencyKey: $idempotencyKey) { id }
}`;

export const ADD_TEAM_MEMBER = /* GraphQL */ `
mutation AddTeamMember($tournamentId: ID!, $number: Int!, $playerId: ID!, $idempotencyKey: String) {
  addTeamMember(tournamentId: $tournamentId, number: $number, playerId: $playerId, idempotencyKey: $idempotencyKey) { id }
}`;

export const REMOVE_TEAM_MEMBER = /* GraphQL */ `
mutation RemoveTeamMember($tournamentId: ID!, $number: Int!, $playerId: ID!, $idempotencyKey: String) {
  removeTeamMember(tournamentId: $tournamentId, number: $number, playerId: $playerId, idempotencyKey: $idempotencyKey) { id }
}`;

/** Power assignment: the method, rankings (one's own or a pasted list) and a pick in turn
 * (docs/tournaments.md#power-assignment). */
export const CHANGE_POWER_ASSIGNMENT = /* GraphQL */ `
mutation ChangePowerAssignment($tournamentId: ID!, $method: PowerAssignment!, $topBoardOrderedChoice: Boolean) {
  changePowerAssignment(tournamentId: $tournamentId, method: $method, topBoardOrderedChoice: $topBoardOrderedChoice) { id }
}`;

export const SUBMIT_POWER_PREFERENCES = /* GraphQL */ `
mutation SubmitPowerPreferences($tournamentId: ID!, $powers: [String!]!) {
  submitPowerPreferences(tournamentId: $tournamentId, powers: $powers) { id }
}`;

export const PASTE_POWER_PREFERENCES = /* GraphQL */ `
mutation PastePowerPreferences($tournamentId: ID!, $list: String!) {
  pastePowerPreferences(tournamentId: $tournamentId, list: $list) { id }
}`;

export const CHOOSE_POWER = /* GraphQL */ `
mutation ChoosePower($tournamentId: ID!, $boardId: ID!, $playerId: ID, $power: String!) {
  choosePower(tournamentId: $tournamentId, boardId: $boardId, playerId: $playerId, power: $power) { id }
}`;

/** Setting a round's pool and scoring system (docs/tournaments.md#pools-top-boards-and-per-round-scoring). */
export const SET_ROUND_POOL = /* GraphQL */ `
mutation SetRoundPool($tournamentId: ID!, $round: Int!, $best: Int, $named: [ID!], $multiplier: String, $decidesPlaces: Boolean, $idempotencyKey: String) {
  setRoundPool(tournamentId: $tournamentId, round: $round, best: $best, named: $named, multiplier: $multiplier, decidesPlaces: $decidesPlaces, idempotencyKey: $idempotencyKey) { id }
}`;

export const SET_ROUND_SCORING = /* GraphQL */ `
mutation SetRoundScoring($tournamentId: ID!, $round: Int!, $scoringSystem: ScoringSystem!) {
  setRoundScoring(tournamentId: $tournamentId, round: $round, scoringSystem: $scoringSystem) { id }
}`;

/** Rulings: adjusting a score, revoking an adjustment, marking an entrant unranked (docs/tournaments.md#rulings). */
export const ADJUST_SCORE = /* GraphQL */ `
mutation AdjustScore($tournamentId: ID!, $playerId: ID!, $level: AdjustmentLevel!, $boardId: ID, $round: Int, $points: Float!, $reason: String!, $idempotencyKey: String) {
  adjustScore(tournamentId: $tournamentId, playerId: $playerId, level: $level, boardId: $boardId, round: $round, points: $points, reason: $reason, idempotencyKey: $idempotencyKey) { id }
}`;

export const REVOKE_SCORE_ADJUSTMENT = /* GraphQL */ `
mutation RevokeScoreAdjustment($tournamentId: ID!, $number: Int!, $idempotencyKey: String) {
  revokeScoreAdjustment(tournamentId: $tournamentId, number: $number, idempotencyKey: $idempotencyKey) { id }
}`;

export const SET_ENTRANT_UNRANKED = /* GraphQL */ `
mutation SetEntrantUnranked($tournamentId: ID!, $playerId: ID!, $unranked: Boolean!, $reason: String, $idempotencyKey: String) {
  setEntrantUnranked(tournamentId: $tournamentId, playerId: $playerId, unranked: $unranked, reason: $reason, idempotencyKey: $idempotencyKey) { id }
}`;

/** A director's forms for what only GraphQL and the CLI offered: a board's powers
 * (docs/tournaments.md#power-assignment), removing a round's pool
 * (docs/tournaments.md#pools-top-boards-and-per-round-scoring), a handicap and a top board's
 * order (docs/tournaments.md#rulings). */
export const SET_BOARD_POWERS = /* GraphQL */ `
mutation SetBoardPowers($tournamentId: ID!, $boardId: ID!, $seats: [PowerSeatInput!]!) {
  setBoardPowers(tournamentId: $tournamentId, boardId: $boardId, seats: $seats) { id }
}`;

export const REMOVE_ROUND_POOL = /* GraphQL */ `
mutation RemoveRoundPool($tournamentId: ID!, $round: Int!, $idempotencyKey: String) {
  removeRoundPool(tournamentId: $tournamentId, round: $round, idempotencyKey: $idempotencyKey) { id }
}`;

export const SET_HANDICAP = /* GraphQL */ `
mutation SetHandicap($tournamentId: ID!, $playerId: ID!, $points: Float!, $reason: String) {
  setHandicap(tournamentId: $tournamentId, playerId: $playerId, points: $points, reason: $reason) { id }
}`;

export const BREAK_TOP_BOARD_TIE = /* GraphQL */ `
mutation BreakTopBoardTie($tournamentId: ID!, $round: Int!, $order: [ID!]!, $reason: String!) {
  breakTopBoardTie(tournamentId: $tournamentId, round: $round, order: $order, reason: $reason) { id }
}`;

/** Keep-apart pairs: a player's permanent list, a tournament's pairs (docs/tournaments.md#rulings). */
export const PERMANENT_KEEP_APART = /* GraphQL */ `
query PermanentKeepApart($id: ID!) { player(id: $id) { id keepApart { player { id name } reason } } }`;

export const CHANGE_PERMANENT_KEEP_APART = /* GraphQL */ `
mutation ChangePermanentKeepApart($playerId: ID, $otherId: ID!, $keep: Boolean!, $reason: String) {
  changePermanentKeepApart(playerId: $playerId, otherId: $otherId, keep: $keep, reason: $reason) { player { id } }
}`;

export const CHANGE_KEEP_APART = /* GraphQL */ `
mutation ChangeKeepApart($tournamentId: ID!, $firstId: ID!, $secondId: ID!, $keep: Boolean!, $reason: String) {
  changeKeepApart(tournamentId: $tournamentId, firstId: $firstId, secondId: $secondId, keep: $keep, reason: $reason) { id }
}`;
