// @ts-check
/** @file Starts the real `league serve` binary on 127.0.0.1:0 over a fresh SQLite file or a
 * fresh PostgreSQL database (from the `PG*` variables `pg_virtualenv` exports), and a
 * GraphQL client for test set-up. */

import { fileURLToPath } from "node:url";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

const HERE = fileURLToPath(new URL(".", import.meta.url));

export const ADMIN = "browser-tests-admin-token";
const ROOT = resolve(HERE, "../..");

/** The `league` binary: `LEAGUE_BIN`, else the debug build in the cargo target directory. */
function binary() {
  if (process.env.LEAGUE_BIN) return process.env.LEAGUE_BIN;
  const target = process.env.CARGO_TARGET_DIR ? resolve(ROOT, process.env.CARGO_TARGET_DIR) : join(ROOT, "target");
  return join(target, "debug", "league");
}

/**
 * A fresh database URL, and how to drop it; `null` when PostgreSQL is not available
 * (a failure when `LEAGUE_REQUIRE_PG=1`).
 * @param {"sqlite"|"postgres"} kind
 * @returns {{ url: string, drop: () => void } | null}
 */
export function freshDatabase(kind) {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "league-browser-"));
    return { url: `sqlite://${join(dir, "league.db")}?mode=rwc`, drop: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const host = process.env.PGHOST;
  if (!host) {
    if (process.env.LEAGUE_REQUIRE_PG === "1") throw new Error("LEAGUE_REQUIRE_PG=1 but no PGHOST: run scripts/test");
    return null;
  }
  const name = `league_browser_${process.pid}_${Date.now()}`;
  execFileSync("createdb", [name], { stdio: "inherit" });
  const user = encodeURIComponent(process.env.PGUSER ?? "postgres");
  const password = encodeURIComponent(process.env.PGPASSWORD ?? "");
  const port = process.env.PGPORT ?? "5432";
  return {
    url: `postgres://${user}:${password}@${host}:${port}/${name}`,
    drop: () => {
      try {
        execFileSync("dropdb", ["--force", name], { stdio: "ignore" });
      } catch {
        // The throwaway cluster goes away with pg_virtualenv anyway.
      }
    },
  };
}

/**
 * Starts `league serve` on `databaseUrl`; resolves once it prints its address.
 * @param {string} databaseUrl
 * @param {Record<string, string>} [env] more `LEAGUE_*` settings, e.g. `{ LEAGUE_SIGN_UP: "invite" }`
 */
export async function startServer(databaseUrl, env = {}) {
  const child = spawn(binary(), ["serve", "--database", databaseUrl, "--listen", "127.0.0.1:0"], {
    env: { ...process.env, LEAGUE_ADMIN_TOKEN: ADMIN, RUST_LOG: "error", LEAGUE_CORS_ORIGINS: "", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: /** @type {import("node:stream").Readable} */ (child.stdout) });
  const base = await new Promise((resolveBase, reject) => {
    const timer = setTimeout(() => reject(new Error("league serve did not listen within 60 s")), 60_000);
    child.once("exit", (code) => reject(new Error(`league serve exited (${code}) before listening`)));
    lines.on("line", (line) => {
      if (line.startsWith("listening on ")) {
        clearTimeout(timer);
        resolveBase(line.slice("listening on ".length).trim());
      }
    });
  });
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) throw new Error(`not loopback: ${base}`);
  return {
    base,
    /** Stops the server (SIGTERM, then SIGKILL after 10 s). */
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
    /**
     * A GraphQL request for test set-up; returns `data`, throws on errors.
     * @param {string} query @param {Record<string, unknown>} [variables] @param {string|null} [token]
     */
    async gql(query, variables = {}, token = ADMIN) {
      /** @type {Record<string, string>} */
      const headers = { "content-type": "application/json" };
      if (token) headers.authorization = `Bearer ${token}`;
      const response = await fetch(`${base}/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
      const body = await response.json();
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    },
    /** The log's head position (`/healthz`). */
    async head() {
      const body = await (await fetch(`${base}/healthz`)).json();
      return /** @type {number} */ (body.position);
    },
  };
}
