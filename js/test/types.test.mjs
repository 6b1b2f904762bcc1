// The .d.ts files against a TypeScript host's code (test/types/consumer.ts),
// compiled by tsc in strict mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { here } from "./helpers.mjs";

test("the TypeScript declarations type-check a host's use of the package (tsc --strict)", () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(here, "types/tsconfig.json")], { encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
