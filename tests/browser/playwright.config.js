// @ts-check
// Browser tests of the web app: Debian's Chromium (no browser download), the real
// `league serve` on a loopback port, once on SQLite and once on PostgreSQL.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  testMatch: /.*\.spec\.js$/,
  // Two cores: one browser flow at a time; the flows share nothing but the binary.
  workers: 1,
  fullyParallel: false,
  // A test that fails once and passes on its retry is reported as flaky (the run still
  // passes; scripts/test repeats the flaky tests' names at its end): the shared CI machine
  // sometimes stalls a flow past a timeout.
  retries: 1,
  timeout: 240_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    },
    actionTimeout: 20_000,
    trace: "retain-on-failure",
  },
  projects: [
    { name: "schema", testMatch: /documents\.spec\.js$/ },
    { name: "sqlite", testMatch: /(league|shapes|tournament|organiser|embed|sign-in|registration|operations|passkeys|oidc|walk-ins|signup|progress|times|results|routes|match-day|live|series|awards|tiebreak|teams|powers|pools|rulings|director-forms|tournament-practice|keep-apart)\.spec\.js$/, metadata: { database: "sqlite" } },
    { name: "postgres", testMatch: /(league|shapes|tournament|organiser|embed|sign-in|registration|operations|passkeys|oidc|walk-ins|signup|progress|times|results|routes|match-day|live|series|awards|tiebreak|teams|powers|pools|rulings|director-forms|tournament-practice|keep-apart)\.spec\.js$/, metadata: { database: "postgres" } },
  ],
});
