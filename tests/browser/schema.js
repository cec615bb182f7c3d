// @ts-check
/** @file `schema.graphql` and a check that a GraphQL document fits it. */

import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildSchema, parse, validate } from "graphql";

const HERE = fileURLToPath(new URL(".", import.meta.url));

export const schema = buildSchema(readFileSync(resolve(HERE, "../../schema.graphql"), "utf8"));

/** The validation errors of a document against the schema (empty when it fits). @param {string} document */
export function problems(document) {
  try {
    return validate(schema, parse(document)).map((e) => e.message);
  } catch (error) {
    return [String(error)];
  }
}
