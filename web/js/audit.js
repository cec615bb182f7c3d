// @ts-check
/** @file The audit views: a league's or a tournament's event log (position, type, actor,
 * time, hash), paged, with every score change a league event made and, for corrections,
 * the reason. */

import { gql } from "./api.js";
import { h, replace, score, delta, when } from "./dom.js";
import { catalogue, systemName } from "./catalogue.js";
import * as Q from "./queries.js";
import { actorName, describe } from "./league-log.js";
import { firstRow, pager, wideTable } from "./table.js";

const PAGE = 25;

/**
 * What each player reported in a result payload, in words, by player id.
 * @param {any} result the `result` of a `GameFinished` / `GameResultCorrected` payload
 * @returns {Map<string, string>}
 */
function reported(result) {
  /** @type {Map<string, string>} */
  const out = new Map();
  if (!result) return out;
  for (const e of result.placement ?? []) out.set(e.player, `${score(e.points)} game points`);
  for (const e of result.diplomacy ?? []) {
    out.set(e.player, `${e.centres} centres${e.eliminated ? `, eliminated${e.eliminatedYear ? ` ${e.eliminatedYear}` : ""}` : ""}`);
  }
  for (const side of result.teams?.sides ?? []) {
    for (const p of side.players) {
      out.set(p.player, `${side.name}${result.teams.draw ? " (draw)" : ""}, ${score(p.points)} points${p.surrendered ? ", surrendered" : ""}`);
    }
  }
  return out;
}

/** @type {import("./main.js").View} */
export async function auditView(main, [id]) {
  const [{ league }, cat] = await Promise.all([gql(Q.LEAGUE, { id }), catalogue()]);
  if (!league) {
    replace(main, h("h1", {}, "League not found"));
    return;
  }
  const names = new Map(league.players.map((/** @type {any} */ p) => [p.id, p.name]));
  /** @type {Map<number, { id: string, name: string, change: any }[]>} score changes by the position that made them */
  const changes = new Map();
  for (const { player, changes: list } of league.scoreHistories) {
    for (const change of list) changes.set(change.position, [...(changes.get(change.position) ?? []), { id: player.id, name: player.name, change }]);
  }
  const system = systemName(cat, league.scoringSystem);
  await auditLog(main, {
    title: `Audit log: ${league.name}`,
    back: h("a", { href: `/leagues/${id}` }, "Back to the league"),
    names,
    page: async (first, after) => (await gql(Q.EVENTS, { leagueId: id, first, after })).events,
    explain: (e) => {
      const explained = changes.get(e.position) ?? [];
      if (explained.length === 0) return null;
      const inputs = reported(e.payload?.result);
      const input = (/** @type {string} */ id) => [...inputs].find(([key]) => key.toLowerCase().includes(id.toLowerCase()))?.[1];
      return [h("p", { class: "hint" }, `Scored by ${system}:`), h("ul", { class: "explained" }, explained.map(({ id: playerId, name, change }) => {
        const what = input(playerId);
        return h("li", {}, `${name}: ${what ? `${what} → ` : ""}${delta(change.delta)}, total ${score(change.total)}`);
      }))];
    },
  });
}

/**
 * An audit page: its title and way back, then the competition's events paged, each with its
 * position, type, actor, time, hash, its words, what `explain` adds, a correction's reason
 * and its payload.
 * @param {HTMLElement} main
 * @param {{ title: string, back: HTMLElement, names: Map<string, string>,
 *   page: (first: number, after: string | null) => Promise<any>, explain: (e: any) => any }} log
 */
async function auditLog(main, { title, back, names, page, explain }) {
  const body = h("div");
  replace(main,
    h("h1", {}, title),
    h("p", {}, back, ". Every change is an event in the hash-chained log; each hash covers the event and the previous hash."),
    body);
  /** @type {(string|null)[]} */
  const stack = [null];
  const load = async () => {
    const events = await page(PAGE, stack[stack.length - 1]);
    const first = firstRow(stack, PAGE);
    const rows = events.nodes.map((/** @type {any} */ e) => h("tr", { "data-position": e.position },
      h("td", { class: "num" }, e.position),
      h("td", {}, h("code", {}, e.type)),
      h("td", {}, actorName(e.actor, names)),
      h("td", {}, h("time", { datetime: e.recordedAt }, when(e.recordedAt))),
      h("td", {}, h("code", { class: "hash", title: `hash ${e.hash}\nprevious ${e.prevHash}` }, e.hash.slice(0, 12), "…")),
      h("td", {}, describe(e),
        explain(e),
        typeof e.payload?.reason === "string" ? h("p", { class: "reason" }, `Reason: ${e.payload.reason}`) : null,
        h("details", {}, h("summary", {}, "Payload"), h("pre", {}, JSON.stringify(e.payload, null, 2))))));
    replace(body,
      wideTable(["Position", "Type", "Actor", "Time", "Hash", "What changed"], rows,
        { class: "audit", caption: `Events ${first}–${first + events.nodes.length - 1} of ${events.totalCount}` }),
      pager(stack, events.pageInfo, load));
  };
  await load();
}

/** A tournament's audit page (`docs/tournaments.md#the-audit-page`). @type {import("./main.js").View} */
export async function tournamentAuditView(main, [id]) {
  const { tournament } = await gql(Q.TOURNAMENT_AUDIT, { id });
  if (!tournament) {
    replace(main, h("h1", {}, "Tournament not found"));
    return;
  }
  const people = [...tournament.organisers, ...tournament.entrants.map((/** @type {any} */ e) => e.player)];
  await auditLog(main, {
    title: `Audit log: ${tournament.name}`,
    back: h("a", { href: `/tournaments/${id}` }, "Back to the tournament"),
    names: new Map(people.map((p) => [p.id, p.name])),
    page: async (first, after) => (await gql(Q.EVENTS, { tournamentId: id, first, after })).events,
    explain: () => null,
  });
}
