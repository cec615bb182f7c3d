// @ts-check
// Every GraphQL document the app can send (web/js/queries.js) fits schema.graphql. The
// browser flows also check every document actually sent over HTTP and WebSocket.
import { fileURLToPath } from "node:url";
import { test, expect } from "@playwright/test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { problems } from "./schema.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

test("every document in web/js/queries.js fits schema.graphql", async () => {
  const source = readFileSync(resolve(HERE, "../../web/js/queries.js"), "utf8");
  const queries = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
  const names = Object.keys(queries);
  expect(names.length).toBeGreaterThan(10);
  for (const name of names) {
    expect(problems(queries[name]), name).toEqual([]);
  }
});

test("the check catches a document that does not fit", () => {
  expect(problems("{ league(id: 1) { nope } }").length).toBeGreaterThan(0);
  expect(problems("mutation { reportGameResult(gameId: \"g\", result: {placement: [], teams: {sides: []}}) { id } }").length).toBeGreaterThan(0);
});
