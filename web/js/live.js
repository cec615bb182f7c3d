// @ts-check
/** @file Live refresh, shared by the league and tournament pages and the standings widget:
 * the "live" badge that shows whether a subscription is connected, the subscriptions a page
 * follows (ended together when the page goes), and a refresh that never runs twice at once. */

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
 * Subscribes to every feed; the badge follows the first one's connection. Returns the
 * clean-up that ends them all.
 * @param {{ show: (connected: boolean) => void }} badge
 * @param {Feed[]} feeds
 */
export function follow(badge, feeds) {
  const stops = feeds.map((feed, i) => subscribe(feed.query, feed.variables, feed.onData, i === 0 ? badge.show : undefined));
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * A page's refresh (load, then re-render): each call runs after the one before has finished,
 * so a burst of live events never renders an older answer over a newer one.
 * @param {() => Promise<void>} refresh
 * @returns {() => Promise<void>}
 */
export function serial(refresh) {
  let running = Promise.resolve();
  return () => (running = running.then(refresh));
}
