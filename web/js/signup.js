// @ts-check
/** @file Signing up (docs/operations.md#sign-up): where the site allows it, a person
 * registers themself with their name (and, on an invite-only site, the invite code of the
 * link an organiser shared) and is signed in; on a closed site the page says who registers
 * people. Also the organiser's "invite people" part of the walk-ins page. */

import { ApiError, gql, session } from "./api.js";
import { h, replace, copy, announce, when } from "./dom.js";
import * as Q from "./queries.js";
import { field, formError, showError, clearErrors, requireFilled } from "./forms.js";
import { renderNav } from "./main.js";

/** @type {import("./main.js").View} */
export async function signUpView(main) {
  const { signUpPolicy } = await gql(Q.SIGN_UP_POLICY);
  if (signUpPolicy === "CLOSED") {
    replace(main, h("h1", {}, "Sign up"),
      h("p", {}, "This site does not let people sign up themselves: an organiser of your tournament or league registers you and gives you a way in."),
      h("p", {}, h("a", { href: "/signin" }, "Sign in")));
    return;
  }
  const invite = signUpPolicy === "INVITE";
  const name = /** @type {HTMLInputElement} */ (h("input", { type: "text", required: true, autocomplete: "name" }));
  const code = /** @type {HTMLInputElement} */ (h("input", { type: "text", required: invite, autocomplete: "off", spellcheck: "false",
    value: new URLSearchParams(location.search).get("invite") ?? "" }));
  const form = h("form", { novalidate: true, "aria-labelledby": "signup-h" },
    formError(),
    field("Your name", name, { field: "name", hint: "As others will see it in standings." }),
    invite ? field("Invite code", code, { field: "invite", hint: "From the link or code an organiser gave you." }) : null,
    h("button", { type: "submit", class: "primary" }, "Sign up"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!requireFilled(form)) return;
    try {
      const answer = await postSignUp({ name: name.value.trim(), invite: invite ? code.value.trim() : null });
      // The answer set the session cookie: read who it signs in.
      await session.refresh();
      renderNav();
      announce(`Signed up and signed in as ${answer.player.name}.`);
      replace(main, h("h1", { id: "signup-h" }, `Welcome, ${answer.player.name}`), tokenNote(answer.token),
        h("p", {}, h("a", { href: `/players/${answer.player.id}` }, "Go to my page")));
      const heading = main.querySelector("h1");
      heading?.setAttribute("tabindex", "-1");
      heading?.focus();
    } catch (error) {
      showError(form, error);
    }
  });
  replace(main, h("h1", { id: "signup-h" }, "Sign up"),
    h("p", {}, invite ? "This site lets people sign up with an organiser's invite." : "Anyone may sign up here."), form,
    h("p", {}, "Registered already? ", h("a", { href: "/signin" }, "Sign in")));
}

/** The new player's token, shown once, with a copy button. @param {string} token */
function tokenNote(token) {
  const status = h("span", { class: "copied", role: "status" });
  return h("div", {},
    h("p", {}, "You are signed in. To sign in on another device, keep this token (shown only now):"),
    h("p", {}, h("code", { class: "token" }, token), " ",
      h("button", { type: "button", onclick: async () => {
        status.textContent = (await copy(token)) ? "Copied." : "Copy failed: select the token and copy it.";
      } }, "Copy token"), " ", status));
}

/** `POST /auth/sign-up`; a refusal becomes an {@link ApiError} with its code and field.
 * @param {{ name: string, invite: string|null }} body */
async function postSignUp(body) {
  let response;
  try {
    response = await fetch("/auth/sign-up", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError([{ message: "the server cannot be reached", extensions: { code: "NETWORK" } }]);
  }
  const answer = await response.json().catch(() => ({}));
  if (response.ok && !answer.error) return answer;
  // A refusal is `{ error }` (as in GraphQL); too many sign-ups are 429.
  const error = answer.error ?? { code: "HTTP", message: `the server answered ${response.status}` };
  // Why a sign-up is refused is the person's to read (a closed site, an unknown, expired or
  // revoked invite), not the generic "You may not do this."
  const refused = error.code === "FORBIDDEN";
  const message = refused ? `Sign-up refused: ${error.message.replace(/^forbidden: /, "")}.` : error.message;
  throw new ApiError([{ message, extensions: { code: refused ? "SIGN_UP_REFUSED" : error.code, field: error.field } }]);
}

/** The organiser's invite link for the walk-ins page, where the site is invite-only: a button
 * that issues one (valid 14 days) and shows it with a copy button and a revoke button. */
export async function invitePart() {
  // Organisers issue invites; the site admin registers people directly.
  if (session.role?.kind !== "player") return null;
  const { signUpPolicy } = await gql(Q.SIGN_UP_POLICY);
  if (signUpPolicy !== "INVITE") return null;
  const shown = h("div", { "aria-live": "polite" });
  const part = h("section", { "aria-labelledby": "invite-h" },
    h("h2", { id: "invite-h" }, "Invite people to sign up themselves"), formError(),
    h("p", { class: "hint" }, "A link anyone can use to sign up until it expires or you revoke it."),
    h("button", { type: "button", onclick: async () => {
      clearErrors(part);
      try {
        const { issueInvite } = await gql(Q.ISSUE_INVITE, {});
        replace(shown, inviteShown(part, shown, issueInvite));
      } catch (error) {
        showError(part, error);
      }
    } }, "Issue an invite link"), shown);
  return part;
}

/** One issued invite: its link (shown only now), copy and revoke.
 * @param {HTMLElement} part @param {HTMLElement} shown @param {any} invite */
function inviteShown(part, shown, invite) {
  const link = `${location.origin}${invite.link}`;
  const status = h("span", { class: "copied", role: "status" });
  return h("p", {}, h("code", { class: "token" }, link), " ",
    h("button", { type: "button", onclick: async () => {
      status.textContent = (await copy(link)) ? "Copied." : "Copy failed: select the link and copy it.";
    } }, "Copy link"), " ",
    h("button", { type: "button", onclick: async () => {
      try {
        await gql(Q.REVOKE_INVITE, { inviteId: invite.id });
        replace(shown, h("p", {}, "The invite is revoked."));
      } catch (error) {
        showError(part, error);
      }
    } }, "Revoke"), " ", status,
    h("span", { class: "hint" }, ` Valid until ${when(invite.expiresAt)}.`));
}
