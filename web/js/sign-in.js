// @ts-check
/** @file Getting in and staying in (docs/sign-in.md): the sign-in page (a player's token
 * or the admin's), the page a sign-in link or its QR code opens, a player's signed-in
 * devices (sign one out, or everywhere; sign in another device with a link), and a
 * tournament's printable sheet of sign-in QR codes, one per entrant with their board. */

import { ApiError, gql, rememberReturn, returnPath, session } from "./api.js";
import { h, replace, announce, when } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors, requireFilled, command } from "./forms.js";
import { navigate } from "./main.js";

/** Extra ways to sign in (passkeys, identity providers) add their section here. @type {(() => (Node | null))[]} */
export const signInMethods = [];

/** @type {import("./main.js").View} */
export function signInView(main) {
  const token = /** @type {HTMLTextAreaElement} */ (h("textarea", { required: true, rows: 3, autocomplete: "off", spellcheck: "false" }));
  const form = h("form", { novalidate: true },
    h("h2", { id: "token-signin-h" }, "With a token"),
    formError(),
    field("Token", token, { field: "token", hint: "The token you got when you were registered (you stay signed in on this device), or the admin token (kept for this browser session only)." }),
    h("button", { type: "submit", class: "primary" }, "Sign in"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!requireFilled(form)) return;
    const value = token.value.trim();
    try {
      // `me` is the calling player, or null for the admin; an unknown token is refused.
      const { me } = await gql(Q.ME, {}, value);
      if (me) await session.signInWithToken(value);
      else session.signInAdmin(value);
      announce(me ? `Signed in as ${me.name}.` : "Signed in as the admin.");
      navigate(returnPath());
    } catch (error) {
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") {
        error.errors = [{ message: "This token is not known to the server.", extensions: { field: "token" } }];
      }
      showError(form, error);
    }
  });
  replace(main, h("h1", {}, "Sign in"),
    h("p", { class: "hint" }, "At an event? Scan the QR code your organiser gave you: it signs you in on your phone."),
    ...signInMethods.map((method) => method()), form);
}

/** `/signin/link?to=…#secret`: the page a sign-in link (or its QR code) opens.
 * @type {import("./main.js").View} */
export async function signInLinkView(main) {
  const secret = location.hash.slice(1);
  const to = new URLSearchParams(location.search).get("to");
  // The secret leaves the address bar (and so the history) at once.
  history.replaceState(null, "", location.pathname);
  if (to) rememberReturn(to);
  replace(main, h("h1", {}, "Signing in…"));
  try {
    if (!secret) throw new ApiError([{ message: "This address holds no sign-in link.", extensions: { code: "BAD_USER_INPUT" } }]);
    await session.signInWithLink(secret);
    announce(`Signed in as ${session.role?.kind === "player" ? session.role.name : ""}.`);
    navigate(returnPath());
  } catch (error) {
    replace(main, h("h1", {}, "This sign-in link does not work"),
      h("p", { role: "alert" }, error instanceof Error ? error.message : String(error)),
      h("p", {}, "Ask your organiser for a new one, or ", h("a", { href: "/signin" }, "sign in another way"), "."));
  }
}

/**
 * The signed-in player's devices: each session with how and when it signed in, "sign out"
 * per device and everywhere, and a link (with its QR code) to sign in another device.
 */
export function devicesSection() {
  const list = h("div", { id: "devices" });
  const output = h("div", { id: "device-link", "aria-live": "polite" });
  const load = async () => {
    const { sessions } = await gql(Q.SESSIONS);
    replace(list, sessions.length === 0 ? h("p", {}, "No browser is signed in with a session.")
      : h("ul", { class: "devices" }, sessions.map((/** @type {any} */ s) => h("li", {},
          h("strong", {}, s.device), s.current ? " (this device)" : "",
          h("span", { class: "hint" }, ` signed in ${when(s.startedAt)} with ${METHOD_WORDS[s.method] ?? s.method}`), " ",
          s.current ? null : h("button", { type: "button", "aria-label": `Sign out ${s.device}, signed in ${when(s.startedAt)}`,
            onclick: () => command(output, () => gql(Q.END_SESSION, { sessionId: s.id }), "Signed out.", load) }, "Sign out")))));
  };
  const everywhere = async () => {
    if (!confirm("Sign out on every device, this one included?")) return;
    await command(output, () => gql(Q.END_ALL_SESSIONS), "Signed out everywhere.", async () => {
      session.forget();
      navigate("/signin");
    });
  };
  const anotherDevice = async () => {
    const { issueSignInLink } = await gql(Q.ISSUE_SIGN_IN_LINK, { returnTo: location.pathname });
    replace(output, linkCard(issueSignInLink, "Scan this with your other device, or open the link there. It works once, until " + when(issueSignInLink.expiresAt) + "."));
  };
  void load();
  return h("section", { "aria-labelledby": "devices-h" },
    h("h2", { id: "devices-h" }, "Your devices"),
    list,
    h("div", { class: "actions" },
      h("button", { type: "button", onclick: () => void anotherDevice() }, "Sign in another device"),
      h("button", { type: "button", onclick: () => void everywhere() }, "Sign out everywhere")),
    output);
}

/** @type {Record<string, string>} */
const METHOD_WORDS = { TOKEN: "a token", LINK: "a sign-in link", PASSKEY: "a passkey", IDENTITY: "an identity provider" };

/** A sign-in link with its QR code. @param {any} link @param {string} hint */
export function linkCard(link, hint) {
  return h("div", { class: "sign-in-card" }, qrImage(link),
    h("p", { class: "hint" }, hint),
    h("p", { class: "link" }, h("a", { href: link.url, "data-external": "" }, "Sign-in link for ", link.player.name)));
}

/** A sign-in link's QR code as an image. @param {any} link */
function qrImage(link) {
  return h("img", { class: "qr", alt: `Sign-in QR code for ${link.player.name}`, src: `data:image/svg+xml;utf8,${encodeURIComponent(link.qrSvg)}`, width: 160, height: 160 });
}

/** `/tournaments/<id>/sign-in-sheet`: one card per entrant (name, board of the latest
 * round, QR code), issued in one step and printed on paper. @type {import("./main.js").View} */
export async function signInSheetView(main, [id]) {
  const { tournament } = await gql(Q.TOURNAMENT, { id });
  if (!tournament) {
    replace(main, h("h1", {}, "Tournament not found"));
    return;
  }
  const active = tournament.entrants.filter((/** @type {any} */ e) => e.withdrawnAfterRound === null);
  const status = h("div", { "aria-live": "polite" });
  const sheet = h("div", { class: "sign-in-sheet" });
  const issue = async () => {
    /** @type {any} */
    let answer = null;
    await command(status, async () => { answer = await gql(Q.ISSUE_SIGN_IN_SHEET, { tournamentId: id }); }, "Sign-in codes ready.", async () => {
      const { links, skipped } = answer.issueSignInSheet;
      const seatOf = latestSeats(tournament);
      replace(sheet, links.map((/** @type {any} */ link) => h("article", { class: "sheet-card" },
        h("h2", {}, link.player.name),
        h("p", {}, seatOf.get(link.player.id) ?? tournament.name),
        // On screen the code is also a link: a player without a camera can be signed in on
        // the organiser's device, or the link copied to them.
        h("a", { href: link.url, "data-external": "", class: "sheet-link" }, qrImage(link)),
        h("p", { class: "hint" }, `Scan to sign in. Works once, until ${when(link.expiresAt)}.`))));
      replace(status, h("p", {}, `${links.length} sign-in codes ready. `,
        h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print")),
        skipped.length ? h("p", { class: "hint" }, "No code for: ", skipped.map((/** @type {any} */ s) => `${s.player.name} (${s.reason})`).join("; ")) : null);
    });
  };
  replace(main, h("h1", {}, `Sign-in sheet: ${tournament.name}`),
    h("p", { class: "no-print" }, h("a", { href: `/tournaments/${id}` }, "Back to the tournament")),
    h("div", { class: "no-print" },
      h("p", { class: "hint" }, `One QR code per entrant (${active.length}): scanning it signs the player in on their phone and opens this tournament. Each works once; issuing again makes new codes.`),
      h("button", { type: "button", class: "primary", onclick: () => void issue() }, `Make ${active.length} sign-in codes`),
      status),
    sheet);
}

/** Player → "Round r, board b, <seat>" in the latest seeded round. @param {any} tournament */
function latestSeats(tournament) {
  const seats = new Map();
  const round = tournament.rounds[tournament.rounds.length - 1];
  for (const board of round?.boards ?? []) {
    for (const seat of board.seats) seats.set(seat.player.id, `Round ${round.number}, board ${board.number}, ${seat.label}`);
  }
  return seats;
}
