// @ts-check
/** @file The accessibility check of a page: axe-core (from npm, injected into the page)
 * run over the whole document; its serious and critical violations, each with its rule and
 * the elements it names, so a failing test says what to fix. */

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The serious and critical axe violations of `page` as it is now (empty when none).
 * @param {import("@playwright/test").Page} page
 * @returns {Promise<string[]>}
 */
export async function seriousViolations(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    // @ts-ignore: injected above
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.map((/** @type {any} */ n) => n.target.join(" ")).slice(0, 5),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(", ")}`);
}
