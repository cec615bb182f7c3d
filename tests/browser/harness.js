// @ts-check
/** @file What every browser flow shares: a fresh database and server, browser contexts
 * whose pages are watched (console errors, requests off loopback, every GraphQL document
 * sent over HTTP and WebSocket), signing in with a token, and the closing checks. */

import { fileURLToPath } from "node:url";
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { freshDatabase, startServer } from "./server.js";
import { problems } from "./schema.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
/** The loopback host names pages may reach (`localhost` where passkeys need a domain name). */
const LOOPBACK = new Set(["127.0.0.1", "localhost"]);
const AXE = readFileSync(resolve(HERE, "node_modules/axe-core/axe.min.js"), "utf8");

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now
 * (rule id, impact and the first offending element of each), empty when there is none.
 * @param {import("@playwright/test").Page} page
 * @returns {Promise<string[]>}
 */
export async function accessibilityProblems(page) {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    // @ts-ignore: axe is the script just added to the page
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((/** @type {any} */ v) => v.impact === "serious" || v.impact === "critical")
      .map((/** @type {any} */ v) => `${v.impact} ${v.id}: ${v.nodes[0]?.target?.join(" ")} (${v.help})`);
  });
}

/**
 * How many pixels the page scrolls sideways at its current width (0 when it does not).
 * @param {import("@playwright/test").Page} page
 */
export async function sidewaysScroll(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * No serious or critical axe violation on the page, and (at 360 px) no sideways scroll; the
 * viewport is put back after.
 * @param {import("@playwright/test").Page} page
 */
export async function pageIsSound(page) {
  expect(await accessibilityProblems(page), page.url()).toEqual([]);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await sidewaysScroll(page), page.url()).toBeLessThanOrEqual(0);
  if (size) await page.setViewportSize(size);
}

/**
 * Opens the closed section `details#id` of a page (one step away from its top) if it is not
 * open already; true when it took a press.
 * @param {import("@playwright/test").Page} page @param {string} id
 */
export async function openSection(page, id) {
  const section = page.locator(`details#${id}`);
  if (await section.evaluate((/** @type {HTMLDetailsElement} */ d) => d.open)) return false;
  await section.locator("summary").click();
  return true;
}

/** A phone as the figures were measured on (390 px wide, touch). */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** A desktop browser. */
export const DESKTOP = { viewport: { width: 1280, height: 900 } };

/** @typedef {import("@playwright/test").Page} Page */
/** @typedef {import("@playwright/test").BrowserContext} BrowserContext */
/** @typedef {Awaited<ReturnType<typeof startServer>>} Server */

/**
 * A fresh database of the project's kind and `league serve` on it, the screenshot folder,
 * and watched browser contexts; `null` (the test skipped) when the project's database is
 * not available.
 * @param {import("@playwright/test").Browser} browser
 * @param {import("@playwright/test").TestInfo} info
 * @param {Record<string, string>} [env] more variables for the server
 */
export async function setUp(browser, info, env = {}) {
  const kind = /** @type {"sqlite"|"postgres"} */ (info.project.metadata.database);
  const db = freshDatabase(kind);
  test.skip(db === null, "no PostgreSQL (PGHOST unset): run scripts/test");
  if (!db) return null;
  const server = await startServer(db.url, env);
  const shots = resolve(HERE, "screenshots", kind);
  mkdirSync(shots, { recursive: true });

  /** @type {string[]} */
  const consoleErrors = [];
  /** @type {string[]} */
  const offLoopback = [];
  /** @type {Set<string>} */
  const documents = new Set();
  /** @type {BrowserContext[]} */
  const contexts = [];

  /** @param {Page} page */
  const watch = (page) => {
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
    page.on("websocket", (ws) => {
      if (!LOOPBACK.has(new URL(ws.url()).hostname)) offLoopback.push(ws.url());
      ws.on("framesent", (frame) => {
        try {
          const message = JSON.parse(String(frame.payload));
          if (message.type === "subscribe") documents.add(message.payload.query);
        } catch {
          // Not a JSON frame: nothing to check.
        }
      });
    });
  };

  return {
    server,
    shots,
    /** A fresh browser context (its own session storage) with every page watched. */
    async newContext(/** @type {Record<string, any>} */ options = {}) {
      const context = await browser.newContext({ baseURL: server.base, ...options });
      contexts.push(context);
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (!LOOPBACK.has(url.hostname)) {
          offLoopback.push(url.href);
          return route.abort();
        }
        if (url.pathname === "/graphql" && route.request().method() === "POST") {
          const body = route.request().postDataJSON();
          if (body?.query) documents.add(body.query);
        }
        return route.continue();
      });
      context.on("page", (page) => watch(page));
      return context;
    },
    /** Signs in with a token on a new page of `context`. @param {BrowserContext} context @param {string} token */
    async signIn(context, token) {
      const page = await context.newPage();
      await page.goto("/signin");
      await page.getByLabel("Token").fill(token);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
      return page;
    },
    /** No console error on any page, no request off loopback, more than `fewest`
     * documents sent and every one fits the schema. @param {number} fewest */
    verify(fewest) {
      expect(consoleErrors).toEqual([]);
      expect(offLoopback).toEqual([]);
      expect(documents.size).toBeGreaterThan(fewest);
      for (const document of documents) expect(problems(document), document).toEqual([]);
    },
    /** Closes every context, stops the server and drops the database. */
    async tearDown() {
      for (const context of contexts) await context.close();
      await server.stop();
      db.drop();
    },
  };
}

/** The operation a GraphQL POST names (`query League(…)` → "League"). @param {import("@playwright/test").Request} request */
function operation(request) {
  const query = String(request.postDataJSON()?.query ?? "");
  return query.match(/^\s*(?:query|mutation)\s+(\w+)/)?.[1] ?? "anonymous";
}

/**
 * Watches a page's GraphQL POSTs (operation and answer bytes as received) and WebSocket
 * messages received (bytes); `since(mark)` gives what came after a mark.
 * @param {import("@playwright/test").Page} page
 */
export function meter(page) {
  /** @type {{ at: number, operation: string, bytes: Promise<number> }[]} */
  const requests = [];
  /** @type {{ at: number, bytes: number }[]} */
  const pushes = [];
  let clock = 0;
  page.on("request", (request) => {
    if (request.method() !== "POST" || !request.url().endsWith("/graphql")) return;
    requests.push({
      at: ++clock,
      operation: operation(request),
      bytes: request.response().then(async () => (await request.sizes()).responseBodySize),
    });
  });
  page.on("websocket", (ws) => ws.on("framereceived", (frame) => {
    const text = String(frame.payload);
    if (text.startsWith('{"type":"next"')) pushes.push({ at: ++clock, bytes: text.length });
  }));
  return {
    mark: () => ++clock,
    /** @param {number} mark */
    async since(mark) {
      const asked = requests.filter((r) => r.at > mark);
      const answered = await Promise.all(asked.map((r) => r.bytes));
      return {
        operations: asked.map((r) => r.operation),
        bytes: answered.reduce((a, b) => a + b, 0) + pushes.filter((p) => p.at > mark).reduce((a, p) => a + p.bytes, 0),
      };
    },
  };
}
