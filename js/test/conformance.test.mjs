// The shared conformance suite (conformance/cases/*/) through the npm
// package: the same files the native engine (tests/conformance.rs) and the
// wasmtime host (host/tests/conformance.rs) run, compared the same way
// as the wasmtime host does: the error kind; else the sanitized catalog as
// JSON, and findings and hidden tools on the keys expected.json names
// (finding `detail` is not API and is not compared).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { GuardError, createGuard } from "../index.js";
import { repoRoot } from "./helpers.mjs";

const casesDir = join(repoRoot, "conformance/cases");
const cases = readdirSync(casesDir)
  .filter((d) => existsSync(join(casesDir, d, "input.json")))
  .sort();

const read = (dir, f) => readFileSync(join(casesDir, dir, f), "utf8");

/** Expected keys are snake_case (the suite's files); the package is camelCase. */
const FIELD = { tool_index: "toolIndex" };

function project(got, want) {
  if (want === null || typeof want !== "object") return got;
  return Object.fromEntries(Object.keys(want).map((k) => [k, got[FIELD[k] ?? k] ?? null]));
}

function compareList(what, want, got) {
  assert.equal(got.length, want.length, `${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  want.forEach((w, i) => assert.deepEqual(project(got[i], w), w, `${what}[${i}]`));
}

test("the suite has cases", () => {
  assert.ok(cases.length >= 20, `only ${cases.length} cases in ${casesDir}`);
});

for (const name of cases) {
  test(`conformance: ${name}`, () => {
    // Raw text: several inputs are malformed on purpose (duplicate keys,
    // trailing data) and must reach the engine byte for byte.
    const input = read(name, "input.json");
    const policy = existsSync(join(casesDir, name, "policy.json")) ? read(name, "policy.json") : "{}";
    const o = existsSync(join(casesDir, name, "options.json")) ? JSON.parse(read(name, "options.json")) : {};
    const opts = { server: o.server ?? undefined, foreignNames: o.foreign_names ?? [] };
    const expected = JSON.parse(read(name, "expected.json"));

    const guard = createGuard(policy);
    if (expected.error) {
      assert.throws(
        () => guard.sanitize(input, opts),
        (e) => e instanceof GuardError && e.kind === expected.error,
        `expected error ${expected.error}`,
      );
      return;
    }
    const out = guard.sanitize(input, opts);
    if ("catalog" in expected) assert.deepEqual(JSON.parse(out.catalogJson), expected.catalog, "catalog");
    if (expected.findings) compareList("findings", expected.findings, out.findings);
    if (expected.hidden) compareList("hidden", expected.hidden, out.hidden);
  });
}
