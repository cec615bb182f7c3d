// @ts-check
/** @file A league's log as its pages read it: every event (paged through `events`), and an
 * event or actor in words (the league page's time travel and the audit view). Each player's
 * score history is the league's `scoreHistories`, read with the league. */

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

/** What an event did, in words: the server's sentence (`Event.description`), the same the
 * CLI's audits and webhook bodies show. @param {{description: string}} event */
export function describe(event) {
  return event.description;
}

/** An actor (`admin`, `player:<id>`) by name. @param {string|null} actor @param {Map<string, string>} names */
export function actorName(actor, names) {
  if (!actor) return "—";
  if (actor.startsWith("player:")) return names.get(actor.slice(7)) ?? actor;
  return actor;
}
