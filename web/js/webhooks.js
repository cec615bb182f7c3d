// @ts-check
/** @file The webhooks page (`/webhooks`, `/webhooks?competition=ID`): the caller's webhooks
 * with their delivery state, resuming a paused one and removing one (confirmed); registering
 * one for a competition its organisers manage, or for every competition (the site admin), its
 * signing secret shown once (docs/webhooks.md). */

import { gql, session } from "./api.js";
import { h, replace, copy, announce, badge, when } from "./dom.js";
import { table } from "./table.js";
import { command, field, formError, input, onSubmit, selectOf } from "./forms.js";
import * as Q from "./queries.js";

/** @type {import("./main.js").View} */
export async function webhooksView(main) {
  const role = session.role;
  if (!role) {
    replace(main, h("h1", {}, "Webhooks"), h("p", {}, "This page is for organisers and the site admin. ", h("a", { href: "/signin" }, "Sign in.")));
    return;
  }
  const competitionId = new URLSearchParams(location.search).get("competition");
  const [{ __type: kinds }, competition] = await Promise.all([gql(Q.WEBHOOK_KINDS), competitionId ? named(competitionId) : null]);
  const manages = role.kind === "admin" || (competition?.organisers ?? []).some((/** @type {any} */ o) => o.id === role.id);
  const list = h("section", { "aria-labelledby": "hooks-h" });
  const load = async () => {
    const { webhooks } = await gql(Q.WEBHOOKS);
    const shown = competitionId ? webhooks.filter((/** @type {any} */ w) => w.competitionIds.includes(competitionId)) : webhooks;
    replace(list, h("h2", { id: "hooks-h" }, `Webhooks (${shown.length})`), formError(),
      shown.length === 0 ? h("p", {}, "None yet.")
        : h("div", { class: "table-wrap" }, table(["Sends to", "Status", ""], shown.map((/** @type {any} */ w) => hookRow(w, list, load)), { class: "webhooks" })));
  };
  replace(main,
    h("h1", {}, competition ? `Webhooks of ${competition.name}` : "Webhooks"),
    competition ? h("p", {}, h("a", { href: `/${competition.__typename === "League" ? "leagues" : "tournaments"}/${competitionId}` }, `Back to ${competition.name}`)) : null,
    manages && (competition || role.kind === "admin") ? registerForm(kinds.enumValues, competition ? competitionId : null, load) : null,
    list,
    h("p", { class: "hint" }, "How deliveries are signed and retried: the webhooks guide of the API documentation."));
  await load();
}

/** A league or tournament by id, with its organisers. @param {string} id */
async function named(id) {
  const { league, tournament } = await gql(Q.COMPETITION, { id });
  return league ?? tournament;
}

/** A webhook's row: where it sends, its state, resume (when paused) and remove (confirmed).
 * @param {any} w @param {HTMLElement} where @param {() => Promise<void>} reload */
function hookRow(w, where, reload) {
  const actions = h("td", { class: "actions" });
  const act = (/** @type {string} */ doc, /** @type {string} */ done) => () => void command(where, () => gql(doc, { id: w.id }), done, reload);
  const ask = () => replace(actions,
    h("button", { type: "button", class: "danger", onclick: act(Q.REMOVE_WEBHOOK, "Webhook removed.") }, "Remove for good"),
    h("button", { type: "button", onclick: () => replace(actions, ...initial()) }, "Keep"));
  const initial = () => [
    w.status === "PAUSED" ? h("button", { type: "button", onclick: act(Q.RESUME_WEBHOOK, "Webhook resumed.") }, "Resume") : null,
    h("button", { type: "button", "aria-label": `Remove the webhook to ${w.url}`, onclick: ask }, "Remove")];
  replace(actions, ...initial());
  return h("tr", { "data-webhook": w.id },
    h("td", {}, h("code", { class: "feed" }, w.url), h("p", { class: "hint" },
      `${w.format} · ${w.kinds.join(", ")} · ${w.competitionIds.length === 0 ? "every competition" : `${w.competitionIds.length} competition(s)`}`)),
    h("td", {}, badge(w.status), w.pausedReason ? h("p", { class: "hint" }, w.pausedReason) : null,
      w.lastError ? h("p", { class: "hint" }, `Last error: ${w.lastError}`) : null,
      w.lastDeliveredAt ? h("p", { class: "hint" }, `Delivered ${when(w.lastDeliveredAt)}`) : null),
    actions);
}

/** Registers a webhook for `competitionId` (null: every competition); shows its secret once.
 * @param {{ name: string, description: string }[]} kinds @param {string|null} competitionId @param {() => Promise<void>} reload */
function registerForm(kinds, competitionId, reload) {
  const url = input("url", { required: true, autocomplete: "off", placeholder: "https://" });
  const format = selectOf(["JSON", "DISCORD"], (value) => ({ value, text: value === "JSON" ? "JSON" : "Discord message" }));
  const boxes = kinds.map((k) => ({ name: k.name, box: input("checkbox", { checked: k.name === "RESULT_REPORTED" || k.name === "STANDINGS_CHANGED" }) }));
  const issued = h("div", { "aria-live": "polite" });
  const form = h("form", { novalidate: true, "aria-labelledby": "register-hook-h" },
    h("h2", { id: "register-hook-h" }, "Register a webhook"),
    h("p", { class: "hint" }, competitionId ? "It will be told about this competition." : "It will be told about every competition."),
    formError(),
    field("Address (URL)", url, { field: "url", hint: "Where to send, e.g. a Discord channel's webhook address." }),
    field("Format", format, { field: "format" }),
    h("fieldset", { "data-field": "kinds", id: "hook-kinds", "aria-describedby": "hook-kinds-error" }, h("legend", {}, "Tell it about"),
      boxes.map((b, i) => field(kinds[i].description, b.box)),
      h("p", { class: "field-error", id: "hook-kinds-error", hidden: true })),
    h("button", { type: "submit", class: "primary" }, "Register webhook"),
    issued);
  onSubmit(form, async (idempotencyKey) => {
    const input = { url: url.value.trim(), format: format.value, kinds: boxes.filter((b) => b.box.checked).map((b) => b.name), competitionIds: competitionId ? [competitionId] : [] };
    const { registerWebhook } = await gql(Q.REGISTER_WEBHOOK, { input, idempotencyKey });
    const status = h("span", { role: "status" });
    replace(issued, h("p", {}, "Its signing secret: ", h("code", { class: "token" }, registerWebhook.secret), " ",
      h("button", { type: "button", onclick: async () => {
        status.textContent = (await copy(registerWebhook.secret)) ? "Copied." : "Copy failed: select the secret and copy it.";
      } }, "Copy"), " ", status),
    h("p", { class: "hint" }, "Shown only now."));
    announce("Webhook registered.");
    url.value = "";
    await reload();
  });
  return form;
}
