// `npm run build`: the component → JS with jco, into gen/ (not committed).
//
// 1. ../dist/mcp-guard.wasm, built by ../scripts/build-component.sh when it
//    is missing (that needs Rust; a published tarball already holds gen/).
// 2. `jco transpile --instantiation sync`: index.js instantiates the
//    component itself, so it can start a fresh instance after a trap (a
//    trapped instance refuses every later call).
// 3. The component imports nothing, so the generated code must import
//    nothing either (no @bytecodealliance/preview2-shim at run time): checked.
// 4. gen/SOURCE.json records the component's SHA-256; an unchanged component
//    is not transpiled again.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(pkg, "..");
const gen = join(pkg, "gen");
const wasm = process.env.MCP_GUARD_WASM ? resolve(process.env.MCP_GUARD_WASM) : join(root, "dist/mcp-guard.wasm");

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.status !== 0) {
    console.error(`build: ${cmd} ${args.join(" ")} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
}

if (!existsSync(wasm)) {
  const script = join(root, "scripts/build-component.sh");
  if (!existsSync(script)) {
    // Installed from a tarball: gen/ ships in the package, nothing to build.
    if (existsSync(join(gen, "mcp-guard.js"))) process.exit(0);
    console.error(`build: ${wasm} is missing and there is no ${script} to build it`);
    process.exit(1);
  }
  console.error(`build: ${wasm} missing; running scripts/build-component.sh`);
  run("bash", [script], { cwd: root });
}

const bytes = readFileSync(wasm);
const sha256 = createHash("sha256").update(bytes).digest("hex");
const sourceFile = join(gen, "SOURCE.json");
if (existsSync(sourceFile) && existsSync(join(gen, "mcp-guard.js"))) {
  try {
    if (JSON.parse(readFileSync(sourceFile, "utf8")).sha256 === sha256) {
      console.error(`build: gen/ is up to date with ${wasm} (sha256 ${sha256.slice(0, 12)})`);
      process.exit(0);
    }
  } catch {
    // unreadable: rebuild
  }
}

rmSync(gen, { recursive: true, force: true });
const require = createRequire(import.meta.url);
// jco's exports map hides package.json: find it from the main entry (dist/api.js).
const jcoRoot = dirname(dirname(require.resolve("@bytecodealliance/jco")));
const jcoBin = join(jcoRoot, JSON.parse(readFileSync(join(jcoRoot, "package.json"), "utf8")).bin.jco);
run(process.execPath, [jcoBin, "transpile", wasm, "-o", gen, "--name", "mcp-guard", "--instantiation", "sync", "--quiet"]);

const js = readFileSync(join(gen, "mcp-guard.js"), "utf8");
const imports = js.match(/^\s*import\s.*$/gm) ?? [];
if (imports.length > 0) {
  console.error(`build: the transpiled component imports something; refusing:\n${imports.join("\n")}`);
  process.exit(1);
}
const cores = readdirSync(gen).filter((f) => f.endsWith(".wasm")).sort();
writeFileSync(sourceFile, JSON.stringify({ component: "mcp-guard.wasm", bytes: bytes.length, sha256, cores }, null, 2) + "\n");
console.error(`build: gen/ from ${wasm} (${bytes.length} B, sha256 ${sha256.slice(0, 12)}): ${cores.join(", ")}`);
