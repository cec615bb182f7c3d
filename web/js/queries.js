// @ts-check
/** @file Every GraphQL document the app sends. The browser tests validate each one
 * against `schema.graphql`, so the app and the API cannot drift apart. */

/** The scoring catalogue: every system and aggregation, with what a result must carry. */
export const CATALOGUE = /* GraphQL */ `
query Catalogue {
  scoringSystems {
    system cliName displayName aliases resultShape minPlayersPerGame maxPlayersPerGame
    requires { field description } concessionScoring rule source description ratingKind
  }
  aggregations { kind displayName rule takesN }
}`;

export const ME = /* GraphQL */ `query Me { me { id name } }`;

export const LEAGUES = /* GraphQL */ `
query Leagues($first: Int!, $after: String) {
  leagues(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name game gameVersion scoringSystem status size playersPerGame players { id } }
  }
}`;

const STANDING = `rank total played wins draws player { id name }`;

/** What the app shows of a reported result, and prefills a correction with. */
const RESULT_FIELDS = `
fragment ResultFields on GameResult {
  __typename
  ... on PlacementResult { entries { points player { id } } }
  ... on DiplomacyResult { entries { centres eliminated eliminatedYear inDraw soloYear earlierCentres player { id } } }
  ... on TeamResult { draw sides { name players { points units lost kills shipsLeft surrendered player { id } } } }
}`;

export const LEAGUE = /* GraphQL */ `
query League($id: ID!) {
  league(id: $id) {
    id name game gameVersion scoringSystem playersPerGame size gamesPerSeat
    requireActivePlayers status createdAt version
    aggregation { kind n }
    players { id name }
    standings { ${STANDING} }
    games {
      id number status finishedAt
      seats { seat label player { id name } }
      scores { score player { id name } }
      result { ...ResultFields }
    }
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
  leagueEvents(leagueId: $leagueId) { position type }
}`;

export const EVENTS = /* GraphQL */ `
query Events($leagueId: ID, $first: Int!, $after: String) {
  events(leagueId: $leagueId, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { position type actor recordedAt hash prevHash streamId version payload }
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
    id name registeredAt
    leagues { id name game scoringSystem status players { id name } }
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
    league { id name scoringSystem playersPerGame }
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
    ratingHistory(game: $game) {
      position recordedAt correction delta
      rating { ${RATING} }
      game { id number league { id name } }
    }
  }
}`;
