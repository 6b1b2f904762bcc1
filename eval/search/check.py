#!/usr/bin/env python3
"""Lint the search query set: every expected tool exists in its catalog, every
line parses, and the held-back split is what split.txt says. Prints counts per
catalog, class, style and part, and (with --overlap) the queries that share the
most words with their expected tool's name + description, to catch phrasings
that leaked the tool's own vocabulary. Standard library only."""
import glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLASSES = {"vocab", "form", "sibling"}
STYLES = {"do", "ask", "want", "terse", "story"}
STOP = set("a an the of to in on for and or is are be by with my our me i we it its this that what which who how do does did at as from all any can into up out".split())

def words(s):
    return [w for w in re.findall(r"[a-z0-9]+", s.lower()) if w not in STOP]

def load_split():
    held_catalogs, held_styles = set(), set()
    for line in open(os.path.join(HERE, "split.txt")):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, value = line.split(None, 1)
        if key == "held-catalog":
            held_catalogs.add(value.strip())
        elif key == "held-style":
            held_styles.add(value.strip())
        else:
            sys.exit(f"split.txt: unknown key {key}")
    return held_catalogs, held_styles

def main():
    held_catalogs, held_styles = load_split()
    errors, rows = [], []
    for path in sorted(glob.glob(os.path.join(HERE, "queries", "*.txt"))):
        catalog = os.path.basename(path)[:-4]
        cat_path = os.path.join(ROOT, "testdata", "catalogs", catalog + ".json")
        tools = {t["name"]: t for t in json.load(open(cat_path))["tools"]}
        for n, line in enumerate(open(path), 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|", 2)]
            if len(parts) != 3:
                errors.append(f"{path}:{n}: not 'class style | tools | query'"); continue
            head, expect, query = parts
            try:
                cls, style = head.split()
            except ValueError:
                errors.append(f"{path}:{n}: head {head!r}"); continue
            if cls not in CLASSES: errors.append(f"{path}:{n}: class {cls}")
            if style not in STYLES: errors.append(f"{path}:{n}: style {style}")
            names = [e.strip() for e in expect.split(",")]
            for e in names:
                if e not in tools: errors.append(f"{path}:{n}: no tool {e} in {catalog}")
            part = "held" if catalog in held_catalogs or style in held_styles else "dev"
            rows.append((catalog, cls, style, part, names, query, tools))
    if errors:
        print("\n".join(errors)); sys.exit(1)
    seen = {}
    for r in rows:
        key = (r[0], r[5].lower())
        if key in seen: print("duplicate query:", r[0], r[5]); sys.exit(1)
        seen[key] = True
    def count(idx):
        c = {}
        for r in rows: c[r[idx]] = c.get(r[idx], 0) + 1
        return c
    print("queries:", len(rows))
    for label, idx in (("part", 3), ("class", 1), ("style", 2), ("catalog", 0)):
        print(label, dict(sorted(count(idx).items())))
    for part in ("dev", "held"):
        c = {}
        for r in rows:
            if r[3] == part: c[r[1]] = c.get(r[1], 0) + 1
        print(part, "by class", dict(sorted(c.items())))
    held_by_cat = {}
    for r in rows:
        if r[3] == "held":
            k = "held-catalog" if r[0] in held_catalogs else "held-style"
            held_by_cat[k] = held_by_cat.get(k, 0) + 1
    print("held-back made of", held_by_cat)
    if "--overlap" in sys.argv:
        scored = []
        for cat, cls, style, part, names, query, tools in rows:
            q = set(words(query))
            best = 0.0
            for name in names:
                t = tools[name]
                text = set(words(name.replace("_", " ").replace("-", " ") + " " + (t.get("title") or "") + " " + (t.get("description") or "")))
                if q: best = max(best, len(q & text) / len(q))
            scored.append((best, cat, names[0], query))
        scored.sort(reverse=True)
        print("mean share of query words found in the expected tool's text: %.2f" % (sum(s[0] for s in scored) / len(scored)))
        for s in scored[:40]:
            print("%.2f %s %s | %s" % s)

main()
