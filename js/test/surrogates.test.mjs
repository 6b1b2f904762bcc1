// Strings that cannot cross the boundary (README, "Strings that cannot
// cross"): the shared fixture parity/surrogates.json, read by every host's
// tests. A JS string with a lone UTF-16 surrogate is refused (jco's
// TextEncoder would put U+FFFD in its place; a long string is checked as it
// crosses and the call's answer discarded), as `invalid-json`
// naming the argument and the UTF-16 index; escaped lone surrogates in JSON
// text are the engine's to refuse, each argument under its own error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError, checkCall, coerceArguments, createGuard, estimateTokens, normalizeSchema, search, toolNameOk, toolSchema, validate } from "../index.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { guardClient } from "../mcp.js";
import { here, repoRoot } from "./helpers.mjs";
// The guest's memory, to see that refusals leak nothing (the package
// instantiates on its first call, after this module's wrapper is in place).
import { guestBytes } from "../scripts/guest-memory.mjs";

const fixture = JSON.parse(readFileSync(join(repoRoot, "parity/surrogates.json"), "utf8"));

const pagedServer = join(here, "servers/paged-server.mjs");
const CLEAN = '{"tools":[{"name":"echo","description":"Echoes the text back.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}';

/** `{U+D800}` in the fixture is that one UTF-16 code unit; keys and values, recursively. */
function expand(v, baseline = "") {
  if (typeof v === "string") {
    return v.replaceAll("{BASELINE}", baseline).replace(/\{U\+([0-9A-F]{4})\}/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  }
  if (Array.isArray(v)) return v.map((x) => expand(x, baseline));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [expand(k), expand(x, baseline)]));
  return v;
}

function rejects(f, kind, where) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof GuardError, `${where}: ${e}`);
    assert.equal(e.kind, kind, `${where}: ${e.message}`);
    return true;
  });
}

/** Every export that takes `argument`, called with `value` there (the rest valid). */
function callsWith(argument, value, guard, baseline) {
  const calls = {
    catalog: [
      ["sanitize", () => guard.sanitize(value)],
      ["pin", () => guard.pin(value)],
      ["compare", () => guard.compare(baseline, value)],
      ["estimateTokens", () => estimateTokens(value)],
    ],
    policy: [["createGuard", () => createGuard(value)]],
    baseline: [
      ["compare", () => guard.compare(value, CLEAN)],
      ["checkCall", () => checkCall(value, "echo", {})],
      ["search", () => search(value, "echo")],
      ["toolSchema", () => toolSchema(value, "echo")],
    ],
    name: [
      ["checkCall", () => checkCall(baseline, value, {})],
      ["toolSchema", () => toolSchema(baseline, value)],
      ["toolNameOk", () => toolNameOk(value, "none")],
    ],
    query: [["search", () => search(baseline, value)]],
    server: [
      ["sanitize", () => guard.sanitize(CLEAN, { server: value })],
      ["pin", () => guard.pin(CLEAN, { server: value })],
      ["compare", () => guard.compare(baseline, CLEAN, { server: value })],
    ],
    "foreign-names": [["sanitize", () => guard.sanitize(CLEAN, { foreignNames: ["ok", value] })]],
    arguments: [
      ["checkCall", () => checkCall(baseline, "echo", value)],
      ["coerceArguments", () => coerceArguments('{"type":"object"}', "none", value)],
    ],
    schema: [
      ["normalizeSchema", () => normalizeSchema(value, { target: "none" })],
      ["validate", () => validate(value, "{}")],
      ["coerceArguments", () => coerceArguments(value, "none", "{}")],
    ],
  }[argument];
  assert.ok(calls, `no calls for ${argument}`);
  return calls;
}

/** The JS API's name for an argument of `via` (the fixture uses the WIT names). */
function jsArgument(argument, via) {
  if (argument === "foreign-names") return "foreignNames[1]";
  if (argument === "schema" && via === "coerceArguments") return "originalSchema";
  return argument;
}

/**
 * Every refusing case of the fixture, its value followed by `pad`, through
 * every call that takes its argument: refused with the fixture's error naming the
 * argument, the UTF-16 index and the UTF-8 offset.
 */
function assertRefusals(guard, baseline, pad, label) {
  let n = 0;
  for (const c of fixture.host_strings) {
    if (c.expect.served_description !== undefined) continue;
    const value = expand(c.value, baseline) + pad;
    const index = c.expect.index === "len(baseline)" ? baseline.length : c.expect.index;
    for (const [via, f] of callsWith(c.argument, value, guard, baseline)) {
      const where = `${c.case}${label} via ${via}`;
      assert.throws(f, (e) => {
        assert.ok(e instanceof GuardError, `${where}: ${e}`);
        assert.equal(e.kind, c.expect.error, `${where}: ${e.message}`);
        assert.equal(e.details.argument, jsArgument(c.argument, via), where);
        assert.equal(e.details.index, index, where);
        assert.equal(e.details.offset, Buffer.byteLength(value.slice(0, index)), where);
        // Never replaced: the message names the code unit, nothing ran.
        assert.match(e.message, /lone UTF-16 surrogate U\+D[89A-F][0-9A-F]{2}/, where);
        return true;
      });
      n += 1;
    }
  }
  assert.ok(n >= 20, `${n} calls`);
}

test("host strings with a lone surrogate are refused before they cross, as invalid-json naming the argument and the UTF-16 index", () => {
  const guard = createGuard({});
  const { baseline } = guard.pin(CLEAN);
  for (const c of fixture.host_strings) {
    if (c.expect.served_description !== undefined) {
      const out = guard.sanitize(expand(c.value, baseline));
      assert.equal(out.catalog.tools[0].description, c.expect.served_description, c.case);
    }
  }
  assertRefusals(guard, baseline, "", "");
});

test("long host strings (64 Ki units and more: checked by the glue after encoding) are refused the same way; a real U+FFFD in one is not a lone surrogate", () => {
  // The package leaves strings this long to the glue's byte search for the
  // U+FFFD that encodeInto writes in a lone surrogate's place (README,
  // "Strings that cannot cross"). Padded after the fixture's value, every
  // refusal must name the same argument, index and offset as above; without
  // the glue's check the lone surrogate would cross as U+FFFD and its answer
  // would be returned.
  const guard = createGuard({});
  const { baseline } = guard.pin(CLEAN);
  const pad = " ".repeat(1 << 16);
  assertRefusals(guard, baseline, pad, " (long)");
  // U+FFFD written by the caller, a surrogate pair, then (second case) a
  // lone surrogate after them: the byte search finds the U+FFFD in both, the
  // exact check tells them apart.
  const catalog = (d) => CLEAN.replace("Echoes the text back.", d) + pad;
  const out = guard.sanitize(catalog("Echoes \uFFFD and \u{1F600} back."));
  assert.equal(out.catalog.tools[0].description, "Echoes \uFFFD and \u{1F600} back.");
  const bad = catalog("Echoes \uFFFD and \u{1F600} back \uDC00.");
  assert.throws(() => guard.sanitize(bad), (e) => e instanceof GuardError && e.details.argument === "catalog" && e.details.index === bad.indexOf("\uDC00"));
  // The refused string's bytes were already in the guest when the glue found
  // the lone surrogate; they must be freed, not left behind call after call
  // (a 2 Mi-unit string is a 6 MB block: 30 refusals would add 180 MB).
  const big = CLEAN.replace("Echoes the text back.", "\uDC00") + " ".repeat(1 << 21);
  assert.throws(() => guard.sanitize(big), GuardError);
  const before = guestBytes();
  for (let i = 0; i < 30; i++) assert.throws(() => guard.sanitize(big), (e) => e instanceof GuardError && e.kind === "invalid-json");
  assert.ok(guestBytes() - before < 8 << 20, `guest memory grew from ${before} to ${guestBytes()} bytes`);
  assert.equal(guard.sanitize(catalog("fine")).catalog.tools[0].description, "fine");
});

test("escaped lone surrogates in JSON text are refused by the engine, each argument under its own error; an escaped pair is one character", () => {
  const guard = createGuard({});
  const { baseline } = guard.pin(CLEAN);
  for (const c of fixture.json_text) {
    const e = c.expect;
    switch (c.argument) {
      case "catalog":
        if (e.served_description !== undefined) {
          assert.equal(guard.sanitize(c.text).catalog.tools[0].description, e.served_description, c.case);
          assert.equal(guard.pin(c.text).outcome.catalog.tools[0].description, e.served_description, c.case);
        } else {
          for (const f of [() => guard.sanitize(c.text), () => guard.pin(c.text), () => guard.compare(baseline, c.text)]) rejects(f, e.error, c.case);
        }
        break;
      case "policy":
        rejects(() => createGuard(c.text), e.error, c.case);
        break;
      case "baseline":
        rejects(() => guard.compare(c.text, CLEAN), e.error, c.case);
        rejects(() => checkCall(c.text, "echo", {}), e.error, c.case);
        break;
      case "schema":
        rejects(() => normalizeSchema(c.text, { target: "none" }), e.error, c.case);
        break;
      case "arguments": {
        const d = checkCall(baseline, "echo", c.text);
        assert.equal(d.action, "refuse", c.case);
        assert.equal(d.reason, e.refuse, c.case);
        break;
      }
      default:
        assert.fail(`no calls for ${c.argument}`);
    }
  }
});

test("objects holding a lone surrogate are serialized with it escaped and refused like JSON text", () => {
  const guard = createGuard({});
  const { baseline } = guard.pin(CLEAN);
  for (const c of fixture.host_values) {
    const value = expand(c.value);
    if (c.argument === "catalog") {
      for (const f of [() => guard.sanitize(value), () => guard.pin(value), () => guard.compare(baseline, value)]) rejects(f, c.expect.error, c.case);
    } else {
      const d = checkCall(baseline, "echo", value);
      assert.equal(d.action, "refuse", c.case);
      assert.equal(d.reason, c.expect.refuse, c.case);
    }
  }
  // The valid pair inside an object crosses as the one character it is.
  const emoji = JSON.parse(CLEAN);
  emoji.tools[0].description = "Echoes \u{1F600} back.";
  assert.equal(guard.sanitize(emoji).catalog.tools[0].description, "Echoes \u{1F600} back.");
});

test("guardClient over stdio: a server's lone surrogate escape fails the listing closed; a lone surrogate in a call never reaches the server", async () => {
  // On the wire the SDK server writes the lone surrogate as a `\ud800`
  // escape; the client's JSON.parse hands the wrapper a lone surrogate again.
  const transport = new StdioClientTransport({ command: process.execPath, args: [pagedServer, "surrogate"], stderr: "pipe" });
  const sent = []; // every tools/call the client transport sends, on the wire
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    if (msg.method === "tools/call") sent.push(msg.params.name);
    return send(msg, opts);
  };
  const client = new Client({ name: "mcp-guard-js-surrogates", version: "1.0.0" });
  await client.connect(transport);
  const guarded = guardClient(client, {});
  try {
    await assert.rejects(guarded.listTools(), (e) => e instanceof GuardError && e.kind === "invalid-json");
    assert.equal(await guarded.store.get(guarded.sessionKey), undefined, "nothing pinned");
    assert.deepEqual((await guarded.listTools()).tools.map((t) => t.description), ["Echoes"]);
    await assert.rejects(guarded.callTool({ name: "echo\udc00", arguments: {} }), (e) => e instanceof GuardError && e.kind === "invalid-json" && e.details.argument === "name");
    await assert.rejects(guarded.callTool({ name: "echo", arguments: { text: "\udc00" } }), (e) => e instanceof GuardError && e.kind === "invalid-arguments");
    assert.equal((await guarded.callTool({ name: "echo", arguments: {} })).content[0].text, "called echo");
    assert.deepEqual(sent, ["echo"], "only the clean call reached the server");
  } finally {
    await guarded.close();
  }
});
