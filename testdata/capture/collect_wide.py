#!/usr/bin/env python3
"""Collect captured catalogs of servers-wide.json into ../catalogs-wide/ (compact JSON) with INDEX.md.

Usage:
  python3 collect_wide.py [--srv-root DIR] [--keep-existing] OUT_DIR [OUT_DIR ...]

Each OUT_DIR is a `run_all.py --out` folder (catalogs/, meta/runs.json). When a server was
captured in more than one, the last folder named wins (a re-run after a fix). Writes
../catalogs-wide/<slug>@<version>.json as one line of compact JSON (node's JSON.stringify of the
captured result, so numbers keep the capture's JavaScript form), and ../catalogs-wide/INDEX.md.

With --keep-existing, the catalogs already in ../catalogs-wide/ stay, as if they came from an OUT_DIR
named before the others (their server column, and the servers tried but not captured, are read back from
the current INDEX.md): a later capture session adds servers without the run_all.py folders of the
earlier ones, which a new machine no longer has. Run on its own (no OUT_DIR), it rewrites INDEX.md as it is.

With --srv-root (install.py's folder), also saves the dependency trees of the captured servers
where install.py looks for them: locks/npm/<slug>.package-lock.json (npm) and locks/pypi/<pkg>.txt
(`uv pip freeze` of the venv), so `install.py --config servers-wide.json` reproduces them.

Refuses any package of reserved.json (exact name, or the same name under another scope) and any
package already in servers.json (the ../catalogs/ corpus), so the wide corpus stays disjoint from
both.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEST = os.path.join(HERE, "..", "catalogs-wide")
GENERIC = {"mcp", "mcp-server", "server"}  # base names too generic to mean "the same package"


def base(pkg):
    return pkg.split("/")[-1].lower()


def clashes(pkg, others):
    return [o for o in others if pkg.lower() == o.lower() or (base(pkg) == base(o) and base(pkg) not in GENERIC)]


def schemas_of(tool):
    for k in ("inputSchema", "outputSchema"):
        if isinstance(tool.get(k), dict):
            yield tool[k]


def walk(node, depth, acc):
    """Keyword-aware-enough walk: counts schema keywords in every nested object."""
    if isinstance(node, dict):
        acc["depth"] = max(acc["depth"], depth)
        for kw in ("anyOf", "oneOf", "allOf", "$ref", "enum", "format"):
            if kw in node:
                acc[kw] += 1
        if "enum" in node and isinstance(node["enum"], list):
            acc["enum_values"] += len(node["enum"])
        for kw in ("$defs", "definitions"):
            if isinstance(node.get(kw), dict):
                acc["defs"] += len(node[kw])
        if isinstance(node.get("description"), str):
            acc["desc"] += len(node["description"])
        for k, v in node.items():
            if k in ("properties", "$defs", "definitions", "patternProperties") and isinstance(v, dict):
                for sub in v.values():
                    walk(sub, depth + 1, acc)
            elif k in ("enum", "const", "default", "examples", "required"):
                continue
            elif isinstance(v, (dict, list)):
                walk(v, depth + 1, acc)
    elif isinstance(node, list):
        for x in node:
            walk(x, depth, acc)


SCRIPTS = (("Chinese/Japanese (Han, kana)", ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF))),
           ("Korean (Hangul)", ((0xAC00, 0xD7AF),)), ("Cyrillic", ((0x0400, 0x04FF),)))


def scripts(result):
    """Share of description letters in each non-Latin script, over tool and property descriptions."""
    text = []

    def grab(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "description" and isinstance(v, str):
                    text.append(v)
                else:
                    grab(v)
        elif isinstance(node, list):
            for v in node:
                grab(v)
    grab(result.get("tools", []))
    letters = [ord(c) for t in text for c in t if c.isalpha()]
    out = {}
    for name, ranges in SCRIPTS:
        n = sum(1 for c in letters if any(a <= c <= b for a, b in ranges))
        if letters and n / len(letters) >= 0.2:
            out[name] = n / len(letters)
    return out


def stats(result):
    tools = result.get("tools", [])
    acc = dict(anyOf=0, oneOf=0, allOf=0, **{"$ref": 0}, enum=0, enum_values=0, format=0, defs=0, depth=0, desc=0)
    tamoi = [0, 0, 0, 0, 0]
    for t in tools:
        if isinstance(t.get("description"), str):
            acc["desc"] += len(t["description"])
        for s in schemas_of(t):
            walk(s, 1, acc)
        for i, k in enumerate(("title", "annotations", "outputSchema", "_meta", "icons")):
            tamoi[i] += k in t
    text = json.dumps(result, ensure_ascii=False)
    acc["non_ascii"] = sum(1 for ch in text if ord(ch) > 0x7F)
    acc["tamoi"] = "/".join(map(str, tamoi))
    return len(tools), acc


def save_lock(srv_root, e):
    if e["eco"] == "npm":
        src = os.path.join(srv_root, "npm", e["pkg"].lstrip("@").replace("/", "__"), "package-lock.json")
        dst = os.path.join(HERE, "locks", "npm", e["pkg"].lstrip("@").replace("/", "__") + ".package-lock.json")
        if os.path.exists(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(src, dst)
        return
    py = os.path.join(srv_root, "py", e["pkg"], "bin", "python")
    uv = shutil.which("uv") or os.path.join(srv_root, "_uv", "bin", "uv")
    r = subprocess.run([uv, "pip", "freeze", "-p", py], capture_output=True, text=True)
    if r.returncode == 0 and r.stdout.strip():
        dst = os.path.join(HERE, "locks", "pypi", e["pkg"] + ".txt")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w") as f:
            f.write(r.stdout)


def seed_from_dest(entries, tmp):
    """A run_all.py-like folder holding the catalogs now in DEST, with INDEX.md's server column and failures."""
    sys.path.insert(0, HERE)
    from run_all import portable_command
    for d in ("catalogs", "meta"):
        os.makedirs(os.path.join(tmp, d), exist_ok=True)
    server, failed = {}, {}
    index = os.path.join(DEST, "INDEX.md")
    section = ""
    if os.path.exists(index):
        with open(index, encoding="utf-8") as f:
            for line in f:
                if line.startswith("## "):
                    section = line[3:].strip()
                m = re.match(r"\| \d+ \| `([^`]+)\.json` \| `[^`]+` \| (.*?) \| [^|]* \| (?:npm|pypi) \| `(.*?)` \| \d+ \| ", line)
                if m and not section:  # server column; the command as captured (env included)
                    server[m.group(1)] = (m.group(2), m.group(3).replace("\\|", "|"))
                m = re.match(r"- `(.+?)@([^@`]+)` \((npm|pypi)\): (.*)$", line)
                if m and section == "Tried, not captured":
                    pkg, slug = (m.group(1).split("` as `") + [None])[:2]
                    failed[slug or pkg.lstrip("@").replace("/", "__")] = (m.group(2), m.group(4))
    slug_of = {e["pkg"].lstrip("@").replace("/", "__"): s for s, e in entries.items()}
    runs = {}
    for fn in sorted(os.listdir(DEST)):
        if not fn.endswith(".json"):
            continue
        name = fn[:-5]
        base_slug, version = name.rsplit("@", 1)
        slug = base_slug if base_slug in entries else slug_of.get(base_slug, base_slug)
        if slug not in entries:
            sys.exit(f"--keep-existing: {fn} is in no servers-wide.json entry")
        e = entries[slug]
        shutil.copy(os.path.join(DEST, fn), os.path.join(tmp, "catalogs", fn))
        with open(os.path.join(tmp, "meta", name + ".meta.json"), "w") as f:
            json.dump({"serverInfo": {"name": server[name][0] if name in server else "?", "version": ""}}, f)
        runs[slug] = {"pkg": e["pkg"], "eco": e["eco"], "version": version, "name": name, "status": "ok"}
        if name in server:  # as INDEX.md has it, even where servers-wide.json spells the arguments otherwise now
            runs[slug].update(env_template={}, portable_command=server[name][1])
        else:
            runs[slug].update(env_template=dict(e.get("env", {})), portable_command=portable_command(e, version))
    for slug, (version, why) in failed.items():
        if slug in entries and slug not in runs:
            runs[slug] = {"pkg": entries[slug]["pkg"], "version": version, "status": "failed", "error": why}
    with open(os.path.join(tmp, "meta", "runs.json"), "w") as f:
        json.dump(runs, f)


def main():
    args = sys.argv[1:]
    srv_root, keep = None, False
    while args[:1] in (["--srv-root"], ["--keep-existing"]):
        if args[0] == "--srv-root":
            srv_root, args = args[1], args[2:]
        else:
            keep, args = True, args[1:]
    outs = args
    if not outs and not keep:
        sys.exit(__doc__)
    with open(os.path.join(HERE, "servers-wide.json")) as f:
        wide = json.load(f)
        entries = {}
        not_installable = wide.get("not_installable", [])
        for e in wide["servers"]:
            entries[e.get("slug") or e["pkg"].lstrip("@").replace("/", "__")] = e
    with open(os.path.join(HERE, "reserved.json")) as f:
        reserved = json.load(f)
    with open(os.path.join(HERE, "servers.json")) as f:
        narrow = [e["pkg"] for e in json.load(f)["servers"]]

    tmp = None
    if keep:
        tmp = tempfile.mkdtemp(prefix="collect-wide-")
        seed_from_dest(entries, tmp)
        outs = [tmp] + outs
    runs, where = {}, {}
    for out in outs:
        rp = os.path.join(out, "meta", "runs.json")
        if not os.path.exists(rp):
            continue
        with open(rp) as f:
            for slug, r in json.load(f).items():
                if slug not in entries:
                    continue
                if r.get("status") == "ok" or slug not in runs or runs[slug].get("status") != "ok":
                    runs[slug], where[slug] = r, out
    os.makedirs(DEST, exist_ok=True)
    for old in os.listdir(DEST):
        if old.endswith(".json"):
            os.remove(os.path.join(DEST, old))

    rows, failed = [], []
    for slug in sorted(runs):
        r, e = runs[slug], entries[slug]
        bad = clashes(e["pkg"], reserved) + clashes(e["pkg"], narrow)
        if bad:
            sys.exit(f"{e['pkg']}: clashes with {bad} (reserved.json or servers.json)")
        if r.get("status") != "ok" or e.get("skip"):  # skip: listed by servers-wide.json as not to be used
            failed.append((slug, r))
            continue
        src = os.path.join(where[slug], "catalogs", r["name"] + ".json")
        with open(src, encoding="utf-8") as f:
            if not json.load(f).get("tools"):  # an empty catalog adds nothing to measure on
                failed.append((slug, dict(r, reason="listed no tools")))
                continue
        dst = os.path.join(DEST, r["name"] + ".json")
        subprocess.run(["node", "-e", "const fs=require('fs');fs.writeFileSync(process.argv[2], JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1],'utf8')))+'\\n')", src, dst], check=True)
        with open(dst, encoding="utf-8") as f:
            result = json.load(f)
        meta = {}
        mp = os.path.join(where[slug], "meta", r["name"] + ".meta.json")
        if os.path.exists(mp):
            with open(mp) as f:
                meta = json.load(f)
        si = meta.get("serverInfo") or {}
        if srv_root and where[slug] != tmp:
            save_lock(srv_root, e)
        n, acc = stats(result)
        notes = e.get("notes", "")
        if re.search(r'/[^\s"]*/' + re.escape(slug) + r'(?![\w-])', json.dumps(result, ensure_ascii=False)):
            notes = (notes + "; " if notes else "") + "a description embeds the server's working directory (the capture's scratch folder): real behaviour, kept as captured"
        rows.append(dict(name=r["name"], pkg=e["pkg"], eco=e["eco"], version=r["version"], tools=n, bytes=os.path.getsize(dst),
                         server=f"{si.get('name', '?')} {si.get('version', '')}".strip(), protocol=meta.get("protocolVersion", ""),
                         started=r["portable_command"], env=r.get("env_template", {}), notes=notes,
                         extra=[k for k in result if k != "tools"], acc=acc, scripts=scripts(result)))
    write_index(rows, failed, entries, not_installable)
    if tmp:
        shutil.rmtree(tmp)
    total = sum(x["tools"] for x in rows)
    print(f"{len(rows)} catalogs, {total} tools, {sum(x['bytes'] for x in rows)} bytes; {len(failed)} failed")


def write_index(rows, failed, entries, not_installable):
    total = sum(x["tools"] for x in rows)
    L = []
    L.append("# Real MCP tool catalogs, wide set — index\n")
    L.append(f"{len(rows)} catalogs, {total:,} tools, from published servers that are neither in `../catalogs/` "
             "nor in `../capture/reserved.json` (checked by name and by the same name under another scope). "
             "Each `<server>@<version>.json` is the `result` of `tools/list`, one line of compact JSON, captured like "
             "`../catalogs/` (see its INDEX.md): installed pinned by `capture/install.py --config capture/servers-wide.json`, "
             "started by `capture/run_all.py --config capture/servers-wide.json` through `capture-tools.mjs --no-network` "
             "(network + PID namespaces, loopback only), official TypeScript SDK client 1.32.2 offering protocol 2025-11-25, "
             "client capabilities roots+sampling+elicitation declared. Credentials are dummies (`dummy`, `AKIADUMMY…`, ...). "
             "Written by `capture/collect_wide.py`; not read by the tests that iterate `../catalogs/`.\n")
    L.append("**Columns.** *tools*; *bytes*: compact file size; *anyOf/oneOf/allOf/$ref/enum/format*: schema objects using the "
             "keyword (input and output schemas); *$defs*: definitions declared; *depth*: deepest nesting; *enum (values)*; "
             "*desc chars*: tool descriptions + schema descriptions, in code points; *non-ASCII*: code points > U+007F; "
             "*T/A/O/M/I*: tools with title / annotations / outputSchema / _meta / icons.\n")
    L.append("| # | catalog | package | server (serverInfo) | version | ecosystem | started with (env + command) | tools | bytes | anyOf | oneOf | allOf | $ref | $defs | depth | enum (values) | format | desc chars | non-ASCII | T/A/O/M/I |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i, x in enumerate(rows, 1):
        a = x["acc"]
        env = " ".join(f"{k}={v}" for k, v in x["env"].items()).replace("{work}", "$WORK")
        cmd = (env + " " + x["started"]).strip().replace("|", "\\|")
        L.append(f"| {i} | `{x['name']}.json` | `{x['pkg']}` | {x['server'].replace('|', '/')} | {x['version']} | {x['eco']} | `{cmd}` | {x['tools']} | "
                 f"{x['bytes']:,} | {a['anyOf']} | {a['oneOf']} | {a['allOf']} | {a['$ref']} | {a['defs']} | {a['depth']} | "
                 f"{a['enum']} ({a['enum_values']}) | {a['format']} | {a['desc']:,} | {a['non_ascii']:,} | {a['tamoi']} |")
    L.append("")
    eco = {}
    for x in rows:
        eco.setdefault(x["eco"], [0, 0])
        eco[x["eco"]][0] += 1
        eco[x["eco"]][1] += x["tools"]
    L.append("## By ecosystem\n")
    for k, (n, t) in sorted(eco.items()):
        L.append(f"- {k}: {n} servers, {t:,} tools")
    big = max(rows, key=lambda x: x["tools"]) if rows else None
    if big:
        L.append(f"\nLargest catalog: `{big['name']}` with {big['tools']} tools ({100 * big['tools'] / total:.1f}% of the set).")
    other = [x for x in rows if x["scripts"]]
    if other:
        L.append("\n## Tool text not in the Latin script\n")
        L.append("Catalogs where at least a fifth of the letters of the descriptions are in another script "
                 "(the rest is English or identifiers):\n")
        for x in other:
            share = ", ".join(f"{k} {100 * v:.0f}%" for k, v in x["scripts"].items())
            L.append(f"- `{x['name']}` ({x['tools']} tools): {share}")
    notes = [x for x in rows if x["notes"] or x["extra"]]
    if notes:
        L.append("\n## Notes\n")
        for x in notes:
            s = x["notes"]
            if x["extra"]:
                s = (s + "; " if s else "") + f"result has extra top-level keys {x['extra']} besides `tools`"
            L.append(f"- `{x['name']}`: {s}")
    if failed:
        L.append("\n## Tried, not captured\n")
        for slug, r in failed:
            e = entries[slug]
            why = e.get("skip_reason") or r.get("reason") or (r.get("error") or r.get("status", "")).strip().splitlines()[-1][:200]
            which = e["pkg"] if slug == e["pkg"].lstrip("@").replace("/", "__") else f"{e['pkg']}` as `{slug}"
            L.append(f"- `{which}@{e.get('version')}` ({e['eco']}): {why}")
    if not_installable:
        L.append("\n## Not installable here\n")
        for e in not_installable:
            L.append(f"- `{e['pkg']}@{e['version']}` ({e['eco']}): {e['reason']}")
    with open(os.path.join(DEST, "INDEX.md"), "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
