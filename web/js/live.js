// @ts-check
/** @file Live refresh, shared by the league and tournament pages and the standings widget:
 * the "live" badge that shows whether a subscription is connected, the subscriptions a page
 * follows (ended together when the page goes), a refresh that never runs twice at once, and
 * the versions that say whether a pushed change applies to what the page holds
 * (docs/api.md#live-updates). */

import { subscribe } from "./api.js";
import { h } from "./dom.js";

/** @typedef {{ query: string, variables: Record<string, unknown>, onData: (data: any) => void }} Feed */

/** The badge beside a live section's heading: "connecting…", then "live" or "reconnecting…". */
export function liveBadge() {
  const element = h("span", { class: "live", "data-state": "connecting" }, "connecting…");
  /** @param {boolean} connected */
  const show = (connected) => {
    element.dataset.state = connected ? "live" : "offline";
    element.textContent = connected ? "live" : "reconnecting…";
  };
  return { element, show };
}

/**
 * Subscribes to every feed; the badge follows the first one's connection, and
 * `onReconnect` runs when a feed connects again after a drop (pushes may have been missed
 * meanwhile). Returns the clean-up that ends them all.
 * @param {{ show: (connected: boolean) => void }} badge
 * @param {Feed[]} feeds
 * @param {() => void} [onReconnect]
 */
export function follow(badge, feeds, onReconnect) {
  const stops = feeds.map((feed, i) => {
    let dropped = false;
    /** @param {boolean} connected */
    const state = (connected) => {
      if (i === 0) badge.show(connected);
      if (connected && dropped && i === 0) onReconnect?.();
      dropped ||= !connected;
    };
    return subscribe(feed.query, feed.variables, feed.onData, state);
  });
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * A page's refresh (load, then re-render): each call runs after the one before has finished,
 * so a burst of live events never renders an older answer over a newer one.
 * @template {unknown[]} A
 * @param {(...args: A) => Promise<void>} refresh
 * @returns {(...args: A) => Promise<void>}
 */
export function serial(refresh) {
  let running = Promise.resolve();
  return (...args) => (running = running.then(() => refresh(...args)));
}

/**
 * What a page holds of a versioned stream (a league's, a tournament's), for pushed changes
 * that each lead from one version to the next: `apply(from, to, change)` runs `change` when
 * the page holds version `from` exactly, skips a change the page already has (`to` not
 * newer), and otherwise (a push was missed) calls `missed`, which reads the page again and
 * then `holds(version)` of what it read.
 * @param {number} version the version the page was read at
 * @param {() => void} missed
 */
export function versioned(version, missed) {
  let held = version;
  return {
    /** @param {number} from @param {number} to @param {() => void} change */
    apply(from, to, change) {
      if (to <= held) return;
      if (from === held) {
        held = to;
        change();
      } else {
        held = to;
        missed();
      }
    },
    /** After the page was read again. @param {number} version */
    holds(version) {
      held = version;
    },
  };
}

/**
 * Standings (a league's or a tournament's) as a push says they are now: every row's new rank
 * (`ranks`, in the order of the rows the page holds), the `changed` rows in place of the old
 * ones (keeping the page's player names), in the server's order (rank, then player id:
 * docs/api.md#live-updates); `null` when the push counts other rows or names a player the
 * page does not have (the page then reads the standings again).
 * @param {any[]} rows @param {{ changed: any[], ranks: number[], rowCount: number }} update
 */
export function withChangedRows(rows, update) {
  const changed = new Map(update.changed.map((r) => [r.player.id, r]));
  const known = new Set(rows.map((r) => r.player.id));
  if (rows.length !== update.rowCount || rows.length !== update.ranks.length
    || [...changed.keys()].some((id) => !known.has(id))) return null;
  const order = (/** @type {any} */ a, /** @type {any} */ b) => a.rank - b.rank || (a.player.id < b.player.id ? -1 : a.player.id > b.player.id ? 1 : 0);
  return rows.map((r, i) => ({ ...r, ...changed.get(r.player.id), rank: update.ranks[i], player: r.player })).sort(order);
}
