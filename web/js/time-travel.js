// @ts-check
/** @file The league page's time travel: a slider over the league's log positions (keyboard:
 * arrow keys) that names the event at each position and shows `standings(asOf: {position})`
 * as they stood then. It follows the newest position until the reader moves it. */

import { gql } from "./api.js";
import { h, replace, when } from "./dom.js";
import * as Q from "./queries.js";
import { actorName, describe, leagueEvents } from "./league-log.js";
import { standingsTable } from "./standings.js";

/**
 * The time-travel section; `load()` (re)reads the log and shows the chosen position.
 * @param {string} leagueId
 * @param {() => { names: Map<string, string>, games: Map<string, number> }} lookup the
 *   current league's player names and game numbers by id
 */
export function timeTravel(leagueId, lookup) {
  /** @type {any[]} */
  let events = [];
  let following = true;
  let request = 0;
  const slider = /** @type {HTMLInputElement} */ (h("input", { type: "range", id: "travel-slider", min: 0, max: 0, step: 1, value: 0 }));
  const label = h("p", { id: "travel-event", class: "travel-event" });
  const standings = h("div", { id: "travel-standings" });
  const show = async () => {
    const event = events[Number(slider.value)];
    if (!event) return;
    const { names } = lookup();
    const text = `Position ${event.position}: ${describe(event)}`;
    slider.setAttribute("aria-valuetext", text);
    replace(label, h("strong", {}, text), ` — ${actorName(event.actor, names)}, ${when(event.recordedAt)}`);
    const mine = ++request;
    const { standings: then } = await gql(Q.STANDINGS_AS_OF, { leagueId, position: event.position });
    if (mine === request) replace(standings, standingsTable(then, `Standings as of position ${event.position}`));
  };
  slider.addEventListener("input", () => {
    following = Number(slider.value) === events.length - 1;
    void show();
  });
  const element = h("section", { "aria-labelledby": "travel-h", class: "travel" },
    h("h2", { id: "travel-h" }, "Time travel"),
    h("label", { for: "travel-slider" }, "Log position"), slider, label, standings);
  const load = async () => {
    events = await leagueEvents(leagueId);
    slider.max = String(Math.max(0, events.length - 1));
    if (following) slider.value = slider.max;
    await show();
  };
  return { element, load };
}
