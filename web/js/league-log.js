// @ts-check
/** @file A league's log as its pages read it: every event (paged through `events`), each
 * player's score history, and an event or actor in words (the league page's time travel and
 * the audit view). */

import { gql } from "./api.js";
import * as Q from "./queries.js";

/** Every event of a league, oldest first (paged through the `events` connection). @param {string} leagueId */
export async function leagueEvents(leagueId) {
  /** @type {any[]} */
  const all = [];
  let after = null;
  for (;;) {
    const { events } = await gql(Q.EVENTS, { leagueId, first: 100, after });
    all.push(...events.nodes);
    if (!events.pageInfo.hasNextPage) return all;
    after = events.pageInfo.endCursor;
  }
}

/** Each subscribed player's score history in a league. @param {string} leagueId @param {{id: string, name: string}[]} players */
export async function histories(leagueId, players) {
  const lists = await Promise.all(players.map((p) => gql(Q.SCORE_HISTORY, { leagueId, playerId: p.id })));
  return players.map((player, i) => ({ player, changes: /** @type {any[]} */ (lists[i].scoreHistory) }));
}

/** What an event did, in words. @param {any} event @param {Map<string, string>} names @param {Map<string, number>} games */
export function describe(event, names, games) {
  const p = event.payload ?? {};
  const who = (/** @type {string|undefined} */ id) => (id && names.get(id)) ?? (id ? `player ${id.slice(0, 8)}` : "someone");
  const game = games.has(p.gameId) ? `game ${games.get(p.gameId)}` : "a game";
  switch (event.type) {
    case "LeagueCreated": return `League created: ${p.name ?? ""}`;
    case "PlayerSubscribed": return `${who(p.playerId)} joined`;
    case "PlayerUnsubscribed": return `${who(p.playerId)} left`;
    case "GamesScheduled": return `${p.games?.length ?? ""} games scheduled`;
    case "GameFinished": return `Result of ${game} reported`;
    case "GameResultCorrected": return `Result of ${game} corrected: ${p.reason ?? ""}`;
    case "LeagueCompleted": return "League completed";
    default: return event.type;
  }
}

/** An actor (`admin`, `player:<id>`) by name. @param {string|null} actor @param {Map<string, string>} names */
export function actorName(actor, names) {
  if (!actor) return "—";
  if (actor.startsWith("player:")) return names.get(actor.slice(7)) ?? actor;
  return actor;
}
