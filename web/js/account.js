// @ts-check
/** @file A player's account page (`/players/ID/account`): for the player themself, download
 * their data (the access request) and erase it; for the site admin, the same for anyone plus
 * issuing them a sign-in link (with its QR code), appointing or dismissing them as organiser,
 * replacing their token (the new one shown once) and revoking it (docs/api.md#roles,
 * docs/personal-data.md, docs/sign-in.md). Anyone else is told whose page
 * it is. */

import { gql, session } from "./api.js";
import { h, replace, copy, announce, badge, when } from "./dom.js";
import { command, field, formError, input, onSubmit } from "./forms.js";
import * as Q from "./queries.js";
import { navigate } from "./main.js";
import { linkCard } from "./sign-in.js";
import { permanentKeepApartSection } from "./keep-apart.js";

/** @type {import("./main.js").View} */
export async function accountView(main, [id]) {
  const role = session.role;
  const self = role?.kind === "player" && role.id === id;
  if (role?.kind !== "admin" && !self) {
    replace(main, h("h1", {}, "Account"),
      h("p", {}, "This page is for the player themself and the site admin. ", h("a", { href: "/signin" }, "Sign in.")));
    return;
  }
  const render = async () => {
    const { player } = await gql(Q.ACCOUNT, { id });
    if (!player) {
      replace(main, h("h1", {}, "Player not found"));
      return;
    }
    replace(main,
      h("h1", {}, self ? "Your account" : `Account: ${player.name}`, player.erased ? [" ", badge("Erased")] : null),
      h("p", {}, h("a", { href: `/players/${id}` }, self ? "Your page" : `${player.name}'s page`)),
      self || player.erased ? null : signInLinkSection(player),
      self ? null : organiserSection(player, render),
      self || player.erased ? null : tokenSection(player),
      player.erased ? null : permanentKeepApartSection(player, self),
      dataSection(player, self),
      player.erased ? h("p", {}, "This player's personal data was erased: they show as their pseudonym everywhere.")
        : eraseForm(player, self, render));
  };
  await render();
}

/** The site admin issues a single-use sign-in link for the player (docs/sign-in.md), shown
 * with its QR code to scan on their phone. @param {{ id: string, name: string }} player */
export function signInLinkSection(player) {
  const output = h("div", { id: "sign-in-link", "aria-live": "polite" });
  const section = h("section", { "aria-labelledby": "link-h" }, h("h2", { id: "link-h" }, "Sign-in link"),
    h("p", { class: "hint" }, `Signs ${player.name} in once, on the device that opens it or scans its QR code.`), formError());
  const issue = () => command(section, async () => {
    const { issueSignInLink } = await gql(Q.ISSUE_SIGN_IN_LINK, { playerId: player.id, returnTo: null });
    replace(output, linkCard(issueSignInLink, `It works once, until ${when(issueSignInLink.expiresAt)}.`));
  }, `A sign-in link for ${player.name} is shown.`, async () => {});
  section.append(h("button", { type: "button", class: "primary", onclick: () => void issue() }, "Issue sign-in link"), output);
  return section;
}

/** The admin's organiser switch. @param {any} player @param {() => Promise<void>} reload */
function organiserSection(player, reload) {
  const section = h("section", { "aria-labelledby": "organiser-h" }, h("h2", { id: "organiser-h" }, "Organiser"), formError());
  const act = (/** @type {string} */ doc, /** @type {string} */ done) => () =>
    void command(section, () => gql(doc, { playerId: player.id }), done, reload);
  section.append(player.isOrganiser
    ? h("p", {}, `${player.name} may create leagues and tournaments. `,
        h("button", { type: "button", onclick: act(Q.DISMISS_ORGANISER, `${player.name} is no longer an organiser.`) }, "Dismiss organiser"))
    : h("p", {}, player.erased ? "Not an organiser." : [`${player.name} is not an organiser. `,
        h("button", { type: "button", onclick: act(Q.APPOINT_ORGANISER, `${player.name} is an organiser now.`) }, "Appoint organiser")]));
  return section;
}

/** The admin replaces (the new token shown once) or revokes a player's token. @param {any} player */
function tokenSection(player) {
  const output = h("div", { id: "new-token", "aria-live": "polite" });
  const section = h("section", { "aria-labelledby": "token-h" },
    h("h2", { id: "token-h" }, "Token"),
    h("p", { class: "hint" }, "Replacing or revoking a token signs out every device that used it, at once."),
    formError());
  const rotate = () => command(section, async () => {
    const { rotateToken } = await gql(Q.ROTATE_TOKEN_OF, { playerId: player.id });
    const status = h("span", { class: "copied", role: "status" });
    replace(output, h("p", {}, `${player.name}'s new token: `, h("code", { class: "token" }, rotateToken.token), " ",
      h("button", { type: "button", onclick: async () => {
        status.textContent = (await copy(rotateToken.token)) ? "Copied." : "Copy failed: select the token and copy it.";
      } }, "Copy"), " ", status),
    h("p", { class: "hint" }, "Shown only now: the server keeps only its hash. The old token no longer works."));
  }, `${player.name} has a new token.`, async () => {});
  const revoke = () => command(section, async () => {
    await gql(Q.REVOKE_TOKEN, { playerId: player.id });
    replace(output, h("p", {}, `${player.name}'s token is revoked: they cannot sign in with it until you replace it.`));
  }, `${player.name}'s token is revoked.`, async () => {});
  section.append(h("div", { class: "actions" },
    h("button", { type: "button", onclick: () => void rotate() }, "Replace token"),
    h("button", { type: "button", onclick: () => void revoke() }, "Revoke token")), output);
  return section;
}

/** The access request: everything the platform holds about the player, as a JSON file.
 * @param {any} player @param {boolean} self */
function dataSection(player, self) {
  const status = h("p", { role: "status" });
  const section = h("section", { "aria-labelledby": "data-h" },
    h("h2", { id: "data-h" }, self ? "Your data" : "Their data"),
    h("p", { class: "hint" }, self ? "Everything the platform holds about you, as a JSON file." : "The access request: everything the platform holds about them, as a JSON file."),
    formError());
  const download = () => command(section, async () => {
    const { personalData } = await gql(Q.PERSONAL_DATA, { playerId: player.id });
    const url = URL.createObjectURL(new Blob([JSON.stringify(personalData, null, 2)], { type: "application/json" }));
    const name = `personal-data-${player.id}.json`;
    const link = h("a", { href: url, download: name, "data-external": "" });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = `Downloaded ${name}.`;
  }, "Personal data downloaded.", async () => {});
  section.append(h("button", { type: "button", class: "primary", onclick: () => void download() }, self ? "Download my data" : "Download their data"), status);
  return section;
}

/** Erasure, confirmed and with a reason; cannot be undone. A player who erased themself is
 * signed out (their token no longer works). @param {any} player @param {boolean} self @param {() => Promise<void>} reload */
function eraseForm(player, self, reload) {
  const reason = input("text", { required: true, autocomplete: "off" });
  const sure = input("checkbox", { required: true });
  const form = h("form", { novalidate: true, "aria-labelledby": "erase-h", class: "danger" },
    h("h2", { id: "erase-h" }, self ? "Erase my data" : `Erase ${player.name}`),
    h("p", {}, self
      ? "Your name and sign-in are deleted for good; your results, scores and ratings stay under a pseudonym. You will be signed out."
      : "Their name is deleted for good and they show as a pseudonym; their results stay; their token stops working."),
    formError(),
    field("Reason", reason, { field: "reason", hint: self ? "For the record, e.g. “I am leaving the club”." : "Who asked, and when." }),
    field(self ? "I understand this cannot be undone" : "This cannot be undone", sure, { field: "confirm" }),
    h("button", { type: "submit", class: "danger" }, self ? "Erase my data" : "Erase player"));
  onSubmit(form, async () => {
    if (!sure.checked) {
      const slot = document.getElementById(`${sure.id}-error`);
      if (slot) {
        slot.textContent = "Tick this to confirm.";
        slot.removeAttribute("hidden");
      }
      sure.focus();
      return;
    }
    await gql(Q.ERASE_PLAYER, { playerId: player.id, reason: reason.value.trim() });
    if (self) {
      await session.signOut();
      announce("Your data is erased. You are signed out.");
      navigate("/");
      return;
    }
    announce(`${player.name} is erased.`);
    await reload();
  });
  return form;
}
