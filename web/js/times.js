// @ts-check
/** @file A tournament's times (docs/tournaments.md#times): the creation form's schedule and
 * round-start fields, wall times in the tournament's IANA time zone turned into UTC instants,
 * and instants shown in that zone ("Sat 1 Jun, 14:00"). */

import { h } from "./dom.js";
import { field, input, numberOf } from "./forms.js";

/** The browser's own IANA time zone (the form's default). */
export function browserTimeZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** `zone`'s offset from UTC at `instant`, in milliseconds. @param {number} instant @param {string} zone */
function offsetAt(instant, zone) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
    hour: "2-digit", minute: "2-digit", second: "2-digit",
  }).formatToParts(new Date(instant));
  const part = (/** @type {string} */ type) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** A `datetime-local` value read as a wall time in `zone`, as an RFC 3339 UTC instant
 * (null when empty or the zone is unknown). @param {string} value @param {string} zone */
export function instantIn(value, zone) {
  if (value === "") return null;
  const wall = Date.parse(`${value}:00Z`);
  if (Number.isNaN(wall)) return null;
  try {
    let instant = wall - offsetAt(wall, zone);
    instant = wall - offsetAt(instant, zone);
    return new Date(instant).toISOString().replace(".000Z", "Z");
  } catch {
    return null;
  }
}

/** An instant as the tournament's clocks show it: "Sat 1 Jun, 14:00".
 * @param {string} instant @param {string} zone */
export function localTime(instant, zone) {
  return new Date(instant).toLocaleString("en-GB", {
    timeZone: zone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
}

/** "Round 2 starts at Sat 1 Jun, 14:00 (Europe/Paris)", with the check-in opening when set.
 * @param {{ round: number, startsAt: string, endsAt?: string | null, finalYear?: number | null, checkInOpensAt?: string | null }} times @param {string} zone */
export function roundTimesText(times, zone) {
  let text = `Round ${times.round} starts at ${localTime(times.startsAt, zone)}`;
  if (times.endsAt) text += `, ends at ${localTime(times.endsAt, zone)}`;
  text += ` (${zone})`;
  if (times.finalYear) text += `; the game ends after ${times.finalYear}`;
  if (times.checkInOpensAt) text += `; check-in opens at ${localTime(times.checkInOpensAt, zone)}`;
  return `${text}.`;
}

/** The creation form's "Times" fieldset: dates, venue, time zone, check-in window and a start
 * time per round (`rounds()` says how many). `read()` gives `TournamentScheduleInput` (null
 * when nothing is set) and `roundStarts()` each filled round's start as a UTC instant.
 * @param {() => number} rounds */
export function scheduleFields(rounds) {
  const zone = input("text", { value: browserTimeZone(), autocomplete: "off" });
  const startsOn = input("date");
  const endsOn = input("date");
  const venue = input("text");
  const address = input("text", { placeholder: "optional" });
  const checkIn = input("number", { step: 1, min: 0, placeholder: "optional" });
  const starts = h("div", { class: "round-starts" });
  /** @type {HTMLInputElement[]} */
  let startInputs = [];
  const renderStarts = () => {
    const count = Math.max(0, Math.min(20, rounds() || 0));
    const kept = startInputs.map((el) => el.value);
    startInputs = Array.from({ length: count }, (_, i) => input("datetime-local", { value: kept[i] ?? "" }));
    starts.replaceChildren(...startInputs.map((el, i) => field(`Round ${i + 1} starts at`, el, { field: `round${i + 1}.startsAt` })));
  };
  renderStarts();
  const element = h("fieldset", { class: "schedule-fields" },
    h("legend", {}, "Times"),
    field("Time zone", zone, { field: "schedule.timeZone", hint: "An IANA time zone, e.g. Europe/Paris; times below are in it." }),
    field("First day", startsOn, { field: "schedule.startsOn" }),
    field("Last day", endsOn, { field: "schedule.endsOn", hint: "Optional: the first day when empty." }),
    field("Venue", venue, { field: "schedule.venueName", hint: "Optional." }),
    field("Venue address", address, { field: "schedule.venueAddress" }),
    field("Check-in opens (minutes before a round)", checkIn, { field: "schedule.checkInOpensMinutesBefore", hint: "Optional: before then players cannot check themselves in." }),
    starts);
  const read = () => {
    const schedule = {
      timeZone: zone.value.trim() || null, startsOn: startsOn.value || null, endsOn: endsOn.value || null,
      venueName: venue.value.trim() || null, venueAddress: address.value.trim() || null,
      checkInOpensMinutesBefore: numberOf(checkIn),
    };
    return Object.values(schedule).some((v) => v !== null) ? schedule : null;
  };
  const roundStarts = () => startInputs
    .map((el, i) => ({ round: i + 1, startsAt: instantIn(el.value, zone.value.trim() || "UTC") }))
    .filter((r) => r.startsAt !== null);
  return { element, read, roundStarts, renderStarts };
}
