// @ts-check
/** @file The league page's time travel: a slider over the league's log positions (keyboard:
 * arrow keys) that names the event at each position and shows `standings(asOf: {position})`
 * as they stood then. It follows the newest position until the reader moves it: the page
 * gives it the newest event and the standings now, and the rest of the log is read only when
 * the reader first moves the slider (docs/performance.md#live-pages). */

import { gql } from "./api.js";
import { h, replace, when } from "./dom.js";
import * as Q from "./queries.js";
import { actorName, describe, leagueEvents } from "./league-log.js";
import { standingsTable } from "./standings.js";

/**
 * The time-travel section; `follow(newest, count, standings)` shows the newest of `count`
 * events with the standings now (and moves the slider there while the reader has not moved
 * it away).
 * @param {string} leagueId
 * @param {() => { names: Map<string, string>, games: Map<string, number> }} lookup the
 *   current league's player names and game numbers by id
 */
export function timeTravel(leagueId, lookup) {
  /** @type {any[]} every event, once the reader has moved the slider */
  let events = [];
  /** @type {Promise<void> | null} */
  let reading = null;
  /** @type {any} */
  let newest = null;
  /** @type {any[]} */
  let now = [];
  let following = true;
  let request = 0;
  const slider = /** @type {HTMLInputElement} */ (h("input", { type: "range", id: "travel-slider", min: 0, max: 0, step: 1, value: 0 }));
  const label = h("p", { id: "travel-event", class: "travel-event" });
  const standings = h("div", { id: "travel-standings" });
  const show = async () => {
    const event = following ? newest : events[Number(slider.value)];
    if (!event) return;
    const { names } = lookup();
    const text = `Position ${event.position}: ${describe(event)}`;
    slider.setAttribute("aria-valuetext", text);
    replace(label, h("strong", {}, text), ` — ${actorName(event.actor, names)}, ${when(event.recordedAt)}`);
    const mine = ++request;
    const title = `Standings as of position ${event.position}`;
    if (following) {
      replace(standings, standingsTable(now, title));
      return;
    }
    const { standings: then } = await gql(Q.STANDINGS_AS_OF, { leagueId, position: event.position });
    if (mine === request) replace(standings, standingsTable(then, title));
  };
  slider.addEventListener("input", async () => {
    reading ??= leagueEvents(leagueId).then((all) => {
      events = all;
      slider.max = String(Math.max(0, events.length - 1));
    });
    await reading;
    following = Number(slider.value) === events.length - 1;
    await show();
  });
  const element = h("section", { "aria-labelledby": "travel-h", class: "travel" },
    h("h2", { id: "travel-h" }, "Time travel"),
    h("label", { for: "travel-slider" }, "Log position"), slider, label, standings);
  /** @param {any} event @param {number} count @param {any[]} rows */
  const follow = (event, count, rows) => {
    newest = event;
    now = rows;
    if (event && events.length > 0 && event.position > events[events.length - 1].position) events.push(event);
    slider.max = String(Math.max(0, Math.max(count, events.length) - 1));
    if (following) {
      slider.value = slider.max;
      void show();
    }
  };
  return { element, follow };
}
