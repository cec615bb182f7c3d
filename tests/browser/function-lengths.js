// @ts-check
/** @file The web app's function lengths: every function of web/js (declarations, methods,
 * function expressions and arrows, nested ones included) by the lines it spans, longest
 * first. `node function-lengths.js [limit]` prints those over `limit` (default 80), how many
 * there are and the longest, using the TypeScript parser the type check installs. */

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import ts from "typescript";

const WEB = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../web/js");
const limit = Number(process.argv[2] ?? 80);

/** @type {{ where: string, name: string, lines: number }[]} */
const functions = [];
for (const file of readdirSync(WEB).filter((f) => f.endsWith(".js")).sort()) {
  const text = readFileSync(join(WEB, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      functions.push({ where: `${file}:${start}`, name: nameOf(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** A function's name, or the name it is bound to. @param {ts.Node} node */
function nameOf(node) {
  const named = /** @type {{ name?: ts.Node }} */ (node).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return "(anonymous)";
}

functions.sort((a, b) => b.lines - a.lines);
const over = functions.filter((f) => f.lines > limit);
for (const f of over) console.log(`${String(f.lines).padStart(4)}  ${f.where}  ${f.name}`);
console.log(`${functions.length} functions; ${over.length} over ${limit} lines; longest ${functions[0]?.lines ?? 0} (${functions[0]?.where ?? "-"} ${functions[0]?.name ?? ""})`);
