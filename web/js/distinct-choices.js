// @ts-check
/** @file Choices a director makes once each (a board's powers, places in a top board's
 * order): a repeat is refused before anything is sent, shown next to the repeated control the
 * way the server's own refusal would be (`BAD_USER_INPUT` naming the field), so the form reads
 * the same whichever side caught it. */

import { ApiError } from "./api.js";

/**
 * Throws an {@link ApiError} naming each select whose value an earlier one already holds
 * (empty values are no choice and never repeat); `says` words the refusal for the repeated
 * option's text. `onSubmit` (forms.js) shows it next to the select.
 * @param {HTMLSelectElement[]} selects @param {(text: string) => string} says
 */
export function refuseRepeats(selects, says) {
  const seen = new Set();
  /** @type {import("./api.js").GraphQLErrorEntry[]} */
  const errors = [];
  for (const select of selects) {
    if (select.value === "") continue;
    if (seen.has(select.value)) {
      errors.push({ message: says(select.selectedOptions[0]?.text ?? select.value), extensions: { code: "BAD_USER_INPUT", field: select.dataset.field } });
    }
    seen.add(select.value);
  }
  if (errors.length > 0) throw new ApiError(errors);
}

/** A refusal before anything is sent, shown at the form's top. @param {string} message */
export function refusal(message) {
  return new ApiError([{ message, extensions: { code: "BAD_USER_INPUT" } }]);
}
