// `npm run build`: the component → JS with jco, into gen/ (not committed).
//
// 1. ../dist/mcp-guard.wasm, built by ../scripts/build-component.sh when it
//    is missing (that needs Rust; a published tarball already holds gen/).
// 2. `jco transpile --instantiation sync`: index.js instantiates the
//    component itself, so it can start a fresh instance after a trap (a
//    trapped instance refuses every later call).
// 3. The component imports nothing, so the generated code must import
//    nothing either (no @bytecodealliance/preview2-shim at run time): checked.
// 4. Strings leave the component keeping a leading U+FEFF (jco's decoder
//    would drop it): patched and checked.
// 4b. Strings enter it sized by Node's native UTF-8 count, not jco's
//    character loop: patched and checked.
// 4c. Long strings leave it decoded a slice at a time: patched and checked.
// 4d. Long strings entering it are checked for lone surrogates after
//    encoding, by a byte search: patched and checked.
// 4e. Long ASCII strings leave it as one Latin-1 copy of their bytes, when
//    the package hands in an ASCII test: patched and checked.
// 5. gen/SOURCE.json records the component's SHA-256, the version of this
//    post-processing and jco's; an unchanged component is not transpiled again.
//
// Steps 4–4e patch jco's output by pattern. They were written against the
// jco of JCO_PATCHED and are refused with any other: a new jco may emit code
// that still matches a pattern but means something else, and each step's
// own check only proves that its pattern was found.
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

/** Stops the build: `what` went wrong. */
function fail(what) {
  console.error(`build: ${what}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.status !== 0) fail(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal})`);
}

if (!existsSync(wasm)) {
  const script = join(root, "scripts/build-component.sh");
  if (!existsSync(script)) {
    // Installed from a tarball: gen/ ships in the package, nothing to build.
    if (existsSync(join(gen, "mcp-guard.js"))) process.exit(0);
    fail(`${wasm} is missing and there is no ${script} to build it`);
  }
  console.error(`build: ${wasm} missing; running scripts/build-component.sh`);
  run("bash", [script], { cwd: root });
}

// Version of the post-processing below: a gen/ made by an older build
// script is made again.
const GLUE = 8;
// The jco version whose output the patches below were written for (and
// package.json pins). To move to another: install it, read the new output
// around each patch, adjust the patches, then change this.
const JCO_PATCHED = "1.35.0";

const bytes = readFileSync(wasm);
const sha256 = createHash("sha256").update(bytes).digest("hex");
const sourceFile = join(gen, "SOURCE.json");
if (existsSync(sourceFile) && existsSync(join(gen, "mcp-guard.js"))) {
  try {
    const source = JSON.parse(readFileSync(sourceFile, "utf8"));
    if (source.sha256 === sha256 && source.glue === GLUE) {
      console.error(`build: gen/ is up to date with ${wasm} (sha256 ${sha256.slice(0, 12)})`);
      process.exit(0);
    }
  } catch {
    // unreadable: rebuild
  }
}

const require = createRequire(import.meta.url);
// jco's exports map hides package.json: find it from the main entry (dist/api.js).
const jcoRoot = dirname(dirname(require.resolve("@bytecodealliance/jco")));
const jcoPkg = JSON.parse(readFileSync(join(jcoRoot, "package.json"), "utf8"));
if (jcoPkg.version !== JCO_PATCHED) {
  fail(
    `@bytecodealliance/jco ${jcoPkg.version} is installed, but scripts/build.mjs patches the output of jco ${JCO_PATCHED}: ` +
      `install ${JCO_PATCHED} (package.json pins it; npm install), or review the patches against the new output and update JCO_PATCHED`,
  );
}
const jcoBin = join(jcoRoot, jcoPkg.bin.jco);
// Only now, with a jco that can rebuild it, the old gen/ goes.
rmSync(gen, { recursive: true, force: true });
run(process.execPath, [jcoBin, "transpile", wasm, "-o", gen, "--name", "mcp-guard", "--instantiation", "sync", "--quiet"]);

// jco lifts every string with `new TextDecoder()`, which drops a leading
// U+FEFF: a tool named "\uFEFFdelete_file" would be reported (findings,
// hidden tools, name map) as "delete_file", the very look-alike the engine
// flags. Decode as the other hosts do, keeping it (scripts/parity.sh found it;
// test/api.test.mjs has the regression test).
// Each patch below edits `js` in memory; it is written once, after the
// checks at the end.
const genJs = join(gen, "mcp-guard.js");
let js = readFileSync(genJs, "utf8");
if (!js.includes("new TextDecoder()")) {
  fail("no `new TextDecoder()` in the transpiled code: check how this jco version decodes strings");
}
js = js.split("new TextDecoder()").join('new TextDecoder("utf-8", { ignoreBOM: true })');

// jco sizes every string it passes in with a loop over its UTF-16 units in
// JS, before `encodeInto` writes it: for the 1.7 MB corpus that loop took
// 3.7 ms of a 42 ms call, `Buffer.byteLength` takes 1.0 ms. Not sizing it
// at all is cheaper still: in Node, a string of up to 4 Mi units is
// written into a block of 3 bytes per unit (UTF-8 never needs more: a
// surrogate pair is 2 units for 4 bytes, a lone surrogate becomes the
// 3-byte U+FFFD), which the component's `realloc` then shrinks to what was
// written (without a copy: the arena takes back the top of its newest
// block, dlmalloc splits the block). Longer strings are sized by
// `Buffer.byteLength`, so the transient block stays under 12 MiB. The bytes
// are the same either way (a lone surrogate becomes U+FFFD in both; the
// package refuses such strings, see 4d). Outside Node (no `Buffer`), jco's
// loop stays.
const sizing = /( +)let len = 0;\n\s*let codepoints = 0;\n\s*for \(let i = 0; i < s\.length; i\+\+\) \{[\s\S]*?\n\1\}\n/;
if (!sizing.test(js)) {
  fail("jco's UTF-8 sizing loop in _utf8AllocateAndEncode not found: check how this jco version encodes strings");
}
js = js
  .replace(sizing, (loop, indent) =>
      `${indent}if (typeof Buffer === "function" && s.length <= 1 << 22) {\n` +
        `${indent}  const cap = s.length * 3;\n` +
        `${indent}  let ptr = realloc(0, 0, 1, cap);\n` +
        `${indent}  const { read, written } = TEXT_ENCODER_UTF8.encodeInto(s, new Uint8Array(memory.buffer, ptr, cap));\n` +
        `${indent}  if (read !== s.length) throw new Error("failed to encode whole string");\n` +
        `${indent}  if (written !== cap) ptr = realloc(ptr, cap, 1, written);\n` +
        `${indent}  return { ptr, len: written };\n` +
        `${indent}}\n` +
        `${indent}const len = typeof Buffer === "function" ? Buffer.byteLength(s, "utf8") : ((s) => {\n${loop.replace("let codepoints = 0;", "").replace("codepoints++;", "")}${indent}return len;\n${indent}})(s);\n`,
  )
  .replace("const res = { ptr, len, codepoints };", "const res = { ptr, len };");

// jco decodes every string leaving the component with one `decode` call.
// For the sanitized catalog (1.7 MB for the corpus) that is ~3.5 ms: a
// catalog is nearly all ASCII, but a few hundred other characters anywhere
// make V8 decode all of it on its slow path into a two-byte string. Decoded
// 4 KiB at a time (cut before a byte that starts a character), the ASCII
// slices take the fast path and only the slices holding other characters
// take the slow one; joining them is one copy: ~2.1 ms. The result is the
// same string (each slice is whole characters; `ignoreBOM` keeps a U+FEFF
// anywhere). Strings under 64 KiB are decoded at once, as before.
const decodeCall = "TEXT_DECODER_UTF8.decode(";
const decoderDecl = 'const TEXT_DECODER_UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });';
const sliced = `function _utf8Decode(bytes) {
    if (bytes.length < 65536) return TEXT_DECODER_UTF8.decode(bytes);
    const parts = [];
    for (let i = 0; i < bytes.length; ) {
      let j = Math.min(i + 4096, bytes.length);
      while (j < bytes.length && (bytes[j] & 0xc0) === 0x80) j++;
      parts.push(TEXT_DECODER_UTF8.decode(bytes.subarray(i, j)));
      i = j;
    }
    return parts.join("");
  }`;
if (!js.includes(decoderDecl) || !js.includes(decodeCall)) {
  fail("jco's string decoder (TEXT_DECODER_UTF8) not found: check how this jco version decodes strings");
}
js = js.split(decodeCall).join("_utf8Decode(").replace(decoderDecl, `${decoderDecl}\n  ${sliced}`);

// The package refuses a string holding a lone UTF-16 surrogate (index.js,
// `unicodeText`). `isWellFormed` reads every unit of the string: ~0.9 ms for
// the corpus, which is a two-byte string in V8 (it has a few hundred
// non-Latin-1 characters). For a string of 64 Ki units or more the package
// leaves the check to this wrapper, which looks at the bytes `encodeInto`
// wrote instead: it writes U+FFFD (EF BF BD) for each lone surrogate, so
// bytes without that sequence prove there is none. Node's `Buffer#indexOf`
// finds it in ~0.02 ms (`Uint8Array#indexOf` takes ~0.5 ms); only bytes that
// hold it (a real U+FFFD writes it too), or a runtime without `Buffer`,
// need index.js's exact check, which is the package's one test.
//
// Nothing is thrown here: the string's bytes are in a block of the guest's
// memory by now, which only the call that takes them frees (the canonical
// ABI has no other way to give a block back; a block left behind would hold
// the guest's arena from ever starting over). So the call goes on, on the
// replaced text, and such strings wait in `_maybeLoneSurrogates`; index.js
// takes them after the call (`_takeMaybeLoneSurrogates`) and, for the first
// that is not well-formed, discards the engine's answer, whatever it was,
// and throws its `invalid-json` GuardError naming the argument. The engine
// is pure: the discarded run leaves nothing behind.
const encodeDecl = "function _utf8AllocateAndEncode(s, realloc, memory) {";
const checked = `const _FFFD = typeof Buffer === "function" ? Buffer.from([0xef, 0xbf, 0xbd]) : null;
  function _utf8AllocateAndEncode(s, realloc, memory) {
    const r = _utf8AllocateAndEncodeUnchecked(s, realloc, memory);
    if (s.length >= 65536 && (_FFFD === null || Buffer.from(memory.buffer, r.ptr, r.len).indexOf(_FFFD) !== -1)) {
      _maybeLoneSurrogates.push(s);
    }
    return r;
  }
  function _utf8AllocateAndEncodeUnchecked(s, realloc, memory) {`;
if (js.split(encodeDecl).length !== 2) {
  fail("jco's _utf8AllocateAndEncode not found once: check how this jco version encodes strings");
}
js = js.replace(encodeDecl, checked);

// Every catalog the component serves is ASCII (README, "The served catalog
// is ASCII"), and ASCII bytes are their own Latin-1: `Buffer#toString
// ("latin1")` makes the one-byte string with a copy (~0.1 ms for the 1.7 MB
// corpus), where `TextDecoder` takes ~0.9 ms validating UTF-8 (sliced, ~1.3
// ms with the join). Node's `buffer.isAscii` tells which strings qualify in
// ~0.02 ms; the generated code may import nothing, so index.js hands it in
// through `_setAsciiTest`. Without it (or outside Node) nothing changes.
const decodeHead = "function _utf8Decode(bytes) {\n    if (bytes.length < 65536) return TEXT_DECODER_UTF8.decode(bytes);";
const instantiateDecl = "export function instantiate(";
if (!js.includes(decodeHead) || js.split(instantiateDecl).length !== 2) {
  fail("the sliced decoder or jco's instantiate not found: check the patches above");
}
js = js
  .replace(
    decodeHead,
    `${decodeHead}\n    if (_asciiTest !== null && _asciiTest(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");`,
  )
  .replace(
    instantiateDecl,
    `let _asciiTest = null;\n/** A test that \`bytes\` are all ASCII (Node's \`buffer.isAscii\`), for \`_utf8Decode\`. */\nexport function _setAsciiTest(f) {\n  _asciiTest = typeof f === "function" && typeof Buffer === "function" ? f : null;\n}\n` +
      `let _maybeLoneSurrogates = [];\n/** The long strings passed since the last take whose bytes hold U+FFFD (as a lone surrogate is written), in order; cleared. */\nexport function _takeMaybeLoneSurrogates() {\n  const v = _maybeLoneSurrogates;\n  _maybeLoneSurrogates = [];\n  return v;\n}\n${instantiateDecl}`,
  );

if (!js.includes("export function _setAsciiTest(f)") || !js.includes('if (_asciiTest !== null && _asciiTest(bytes)) return Buffer.from(')) {
  fail("the ASCII decoding patch did not apply cleanly");
}
if (js.split("_utf8AllocateAndEncodeUnchecked(").length !== 3 || !js.includes("_maybeLoneSurrogates.push(s);") || !js.includes("export function _takeMaybeLoneSurrogates()")) {
  fail("the lone-surrogate check patch did not apply cleanly");
}
// The only decode calls left are the helper's own two.
if (js.split(decodeCall).length !== 3 || !js.includes("function _utf8Decode(")) {
  fail("the slice-wise decoding patch did not apply cleanly");
}
if (!js.includes('Buffer.byteLength(s, "utf8")') || !js.includes("const cap = s.length * 3;") || js.includes("codepoints")) {
  fail("the UTF-8 sizing patch did not apply cleanly");
}
if (/new TextDecoder\((?!"utf-8", \{ ignoreBOM: true \}\))/.test(js)) {
  fail("the transpiled code has a TextDecoder that drops a leading U+FEFF");
}
const imports = js.match(/^\s*import\s.*$/gm) ?? [];
if (imports.length > 0) fail(`the transpiled component imports something; refusing:\n${imports.join("\n")}`);
writeFileSync(genJs, js);
const cores = readdirSync(gen).filter((f) => f.endsWith(".wasm")).sort();
writeFileSync(sourceFile, JSON.stringify({ component: "mcp-guard.wasm", bytes: bytes.length, sha256, glue: GLUE, jco: jcoPkg.version, cores }, null, 2) + "\n");
console.error(`build: gen/ from ${wasm} (${bytes.length} B, sha256 ${sha256.slice(0, 12)}): ${cores.join(", ")}`);
