// @ts-check
/** @file Passkeys (docs/sign-in.md#passkeys): on a player's own page, their passkeys (name,
 * when added, remove) and a form to add one on this device; on the sign-in page, one
 * "Sign in with a passkey" button (the browser offers the passkeys it holds for this site:
 * nothing to type). */

import { ApiError, gql, session, returnPath } from "./api.js";
import { h, replace, when, announce } from "./dom.js";
import { field, formError, input, onSubmit, showError, command } from "./forms.js";
import * as Q from "./queries.js";
import { navigate } from "./main.js";
import { signInMethods } from "./sign-in.js";

/** Whether this browser can make and use passkeys. */
const supported = () => typeof window.PublicKeyCredential === "function";

/**
 * The options the server sent, as the browser's WebAuthn API takes them.
 * @param {any} json `PublicKeyCredential{Creation,Request}OptionsJSON`, maybe under `publicKey`
 * @param {"parseCreationOptionsFromJSON"|"parseRequestOptionsFromJSON"} parse
 */
function publicKeyOptions(json, parse) {
  const credential = /** @type {any} */ (window.PublicKeyCredential);
  return credential[parse](json.publicKey ?? json);
}

/** A refusal with a message at the form's top. @param {string} message */
const refusal = (message) => new ApiError([{ message, extensions: { code: "PASSKEY" } }]);

/** A ceremony the person cancelled or that timed out, in words. @param {unknown} error */
function cancelled(error) {
  if (error instanceof DOMException) return refusal("No passkey was used (cancelled, or none is on this device for this site).");
  return error;
}

/** The signed-in player's passkeys and the form to add one (their own page). */
export function passkeysSection() {
  const list = h("div", { id: "passkey-list", "aria-live": "polite" });
  const refresh = async () => {
    const { passkeys } = await gql(Q.PASSKEYS);
    replace(list, passkeys.length === 0 ? h("p", {}, "No passkey yet.") : passkeyTable(passkeys, list, refresh));
  };
  void refresh();
  return h("section", { "aria-labelledby": "passkeys-h" },
    h("h2", { id: "passkeys-h" }, "Your passkeys"),
    h("p", { class: "hint" }, "A passkey signs you in on this device with its screen lock: no token to type."),
    list,
    supported() ? addPasskeyForm(refresh) : h("p", {}, "This browser cannot make passkeys."));
}

/**
 * @param {{ id: string, name: string|null, addedAt: string }[]} passkeys
 * @param {HTMLElement} where @param {() => Promise<void>} refresh
 */
function passkeyTable(passkeys, where, refresh) {
  return h("div", { class: "table-wrap" }, h("table", {},
    h("caption", {}, "Passkeys"),
    h("thead", {}, h("tr", {}, ...["Name", "Added", ""].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, passkeys.map((passkey) => h("tr", {},
      h("th", { scope: "row" }, passkey.name ?? "Passkey"),
      h("td", {}, when(passkey.addedAt)),
      h("td", {}, h("button", {
        type: "button",
        "aria-label": `Remove passkey ${passkey.name ?? ""}`.trim(),
        onclick: () => void command(where, () => gql(Q.REMOVE_PASSKEY, { passkeyId: passkey.id }), "Passkey removed.", refresh),
      }, "Remove")))))));
}

/** The form adding a passkey on this device. @param {() => Promise<void>} refresh */
function addPasskeyForm(refresh) {
  const name = input("text", { required: true, autocomplete: "off", value: "This device", maxlength: 100 });
  const form = h("form", { novalidate: true, "aria-label": "Add a passkey" },
    formError(),
    field("Passkey name", name, { field: "name", hint: "So you can tell your passkeys apart, e.g. “My phone”." }),
    h("button", { type: "submit" }, "Add a passkey"));
  onSubmit(form, async () => {
    const { beginAddingPasskey } = await gql(Q.BEGIN_ADDING_PASSKEY);
    const publicKey = publicKeyOptions(JSON.parse(beginAddingPasskey), "parseCreationOptionsFromJSON");
    let credential;
    try {
      credential = /** @type {any} */ (await navigator.credentials.create({ publicKey }));
    } catch (error) {
      throw cancelled(error);
    }
    await gql(Q.ADD_PASSKEY, { name: name.value.trim(), response: JSON.stringify(credential.toJSON()) });
    announce("Passkey added.");
    await refresh();
  });
  return form;
}

/** The sign-in page's "Sign in with a passkey" (then the page the person came from). */
export function passkeySignIn() {
  if (!supported()) return null;
  const section = h("section", { "aria-labelledby": "passkey-signin-h" },
    h("h2", { id: "passkey-signin-h" }, "With a passkey"),
    formError());
  const button = h("button", { type: "button", class: "primary" }, "Sign in with a passkey");
  button.addEventListener("click", async () => {
    try {
      await signInWithPasskey();
      await session.refresh();
      announce("Signed in.");
      navigate(returnPath());
    } catch (error) {
      showError(section, error);
    }
  });
  section.append(button);
  return section;
}

/** The passkey ceremony: options, the browser's assertion, the session cookie. */
async function signInWithPasskey() {
  const options = await postJson("/auth/passkey/options", {});
  let credential;
  try {
    credential = /** @type {any} */ (await navigator.credentials.get({ publicKey: publicKeyOptions(options, "parseRequestOptionsFromJSON") }));
  } catch (error) {
    throw cancelled(error);
  }
  await postJson("/auth/passkey/sign-in", credential.toJSON());
}

/** POSTs JSON; resolves to the answer's JSON, rejects with its refusal (`{ error: { code, message } }`).
 * @param {string} path @param {unknown} body */
async function postJson(path, body) {
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError([{ message: "the server cannot be reached", extensions: { code: "NETWORK" } }]);
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw refusal(answer.error?.message ?? `the server answered ${response.status}`);
  return answer;
}

signInMethods.push(passkeySignIn);
