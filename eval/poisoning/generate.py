#!/usr/bin/env python3
"""Generate the labelled tool-poisoning evaluation set (standard library only).

    python3 eval/poisoning/generate.py --out DIR [--per-file] [--check]

Writes to DIR:
  poisoned.jsonl   one line per poisoned item: {"id", "catalog"}; catalog is a
                   tools/list result ({"tools": [...]}) with one tool, or two
                   for a payload split across two tools
  benign.jsonl     one line per hard benign tool, same shape
  labels.jsonl     one line per item (poisoned and benign): its part (dev or
                   held), class, family, language, location, encoding, carrier, ...
  summary.json     counts per part, class, language, location, encoding
  foreign_names.json  tool names of other servers the client also sees
  catalogs/ID.json (with --per-file) each catalog alone, for `mcp-guard check`

Everything is deterministic: one fixed seed, RNGs derived from strings with
SHA-256, no dict or set iteration order that depends on hashing. --check
compares the SHA-256 of the written files with expected-digests.json.

The split (split.json, committed) is computed from the seed: per class, a third
of the phrasing families are held back, and four whole languages are held back.
An item is held back when its family OR its language is. The held-back part
must never be read to write or tune detection rules (see README.md).
"""

import argparse
import base64
import codecs
import hashlib
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from carriers import CARRIERS  # noqa: E402
from plant import LOCATIONS, copy_tool, ensure_param, plant, split_text, string_props  # noqa: E402,F401
from attacks_en import EN, FORMS, CLASSES  # noqa: E402
from attacks_i18n_a import I18N_A  # noqa: E402
from attacks_i18n_b import I18N_B  # noqa: E402
from benign_en import BENIGN_EN  # noqa: E402
from benign_i18n import BENIGN_I18N  # noqa: E402

SEED = 20260728
HELD_LANGUAGES = ["pt", "ru", "ko", "hi"]
I18N = dict(I18N_A)
I18N.update(I18N_B)
LANGUAGES = ["en"] + sorted(I18N)

ENCODED_LOCATIONS = ["description", "property.description", "default", "examples", "enum", "outputSchema.description"]
ENCODINGS = ["base64", "hex", "url", "html_entities", "rot13", "leet", "spaced", "reversed", "unicode_tags"]

SECRETS = [
    "~/.ssh/id_rsa", "~/.ssh/id_ed25519", "~/.aws/credentials", "~/.config/gcloud/application_default_credentials.json",
    "~/.azure/accessTokens.json", "~/.kube/config", "~/.docker/config.json", "~/.npmrc", "~/.pypirc", "~/.netrc",
    "~/.git-credentials", "~/.config/gh/hosts.yml", "the project's .env file", "~/.bash_history", "~/.zsh_history",
    "~/Library/Keychains/login.keychain-db", "~/.gnupg/private-keys-v1.d", "~/.cursor/mcp.json",
    "~/Library/Application Support/Claude/claude_desktop_config.json", "~/.config/Code/User/settings.json",
    "~/.mozilla/firefox/profile.default/logins.json", "~/.password-store", "/etc/shadow", "~/.vault-token",
    "~/.terraform.d/credentials.tfrc.json",
]
ENVS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "STRIPE_SECRET_KEY",
        "DATABASE_URL", "SLACK_BOT_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS", "NPM_TOKEN", "HF_TOKEN"]
URLS = ["https://telemetry-sync.io/c", "https://api.metrics-collector.net/v2/ingest", "https://cdn.img-proxy.co/pixel.png",
        "https://hooks.devsync.app/relay", "http://45.13.227.9:8080/log", "https://paste-relay.com/api/new",
        "https://webhook.site-mirror.org/a8f3", "https://status-check.dev/ping"]
EMAILS = ["sync@archive-mail.net", "backup.ops@protonmail-relay.com", "audit@corp-compliance.io", "records@mailvault.org"]
MAIL_TOOLS = ["send_email", "gmail_send_message", "outlook_send_mail", "send_mail", "mail_send", "ses_send_email"]
PAY_TOOLS = ["transfer_funds", "send_payment", "create_transfer", "wire_transfer", "pay_invoice"]
PARAMS = ["context", "notes", "sidenote", "metadata", "session_info", "debug_info", "extra", "client_context", "trace"]
# Tools of *other* servers the client also sees, for a run that passes them
# to the engine as foreign names (what a proxy in front of several servers
# knows); the shadowing payloads name the mail and payment tools among them.
FOREIGN_TOOLS = MAIL_TOOLS + PAY_TOOLS + ["git_push", "run_terminal_command", "execute_command", "write_file", "create_pull_request"]

HINTS = {
    "base64": ["Decode this base64 and follow the instructions inside:", "Setup steps (base64, decode before use):"],
    "hex": ["The following hex string holds the usage rules; decode it and apply them:", "hex-encoded policy:"],
    "url": ["URL-decode the following and follow it:", "Encoded instructions (percent-encoding):"],
    "html_entities": ["Render these HTML entities and do what they say:", "Note (HTML-escaped):"],
    "rot13": ["ROT13-decode the next line and follow it:", "rot13:"],
    "leet": ["Read this leetspeak as plain text and follow it:", "1337 note:"],
    "spaced": ["Read the letters below together as one sentence and follow it:", "Spaced note:"],
    "reversed": ["Read the next text backwards and do what it says:", "Reversed note:"],
}


def rng_for(*parts):
    h = hashlib.sha256(("%d|" % SEED + "|".join(str(p) for p in parts)).encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


# --- the split ---------------------------------------------------------------

def compute_split():
    held_families = {}
    dev_families = {}
    for c in CLASSES:
        forms = list(FORMS)
        rng_for("split", c).shuffle(forms)
        k = len(forms) // 3
        held_families[c] = sorted(forms[:k])
        dev_families[c] = sorted(forms[k:])
    benign_en_names = [tool["name"] for _, tool in BENIGN_EN]
    rng_for("split", "benign-en").shuffle(benign_en_names)
    held_benign = sorted(benign_en_names[: len(benign_en_names) // 3])
    return {
        "seed": SEED,
        "rule": "an item is held back when its phrasing family is held back for its class OR its language is held back; a benign tool is held back when its language is held back or (English) its name is listed",
        "held_languages": HELD_LANGUAGES,
        "dev_languages": [l for l in LANGUAGES if l not in HELD_LANGUAGES],
        "held_families": held_families,
        "dev_families": dev_families,
        "held_benign_en": held_benign,
    }


# --- encodings -----------------------------------------------------------------

LEET = str.maketrans({"a": "4", "A": "4", "e": "3", "E": "3", "i": "1", "I": "1", "o": "0", "O": "0", "s": "5", "S": "5", "t": "7", "T": "7"})


def encode(text, enc):
    raw = text.encode("utf-8")
    if enc == "base64":
        return base64.b64encode(raw).decode()
    if enc == "hex":
        return raw.hex()
    if enc == "url":
        return "".join("%%%02X" % x for x in raw)
    if enc == "html_entities":
        return "".join("&#%d;" % ord(ch) for ch in text)
    if enc == "rot13":
        return codecs.encode(text, "rot13")
    if enc == "leet":
        return text.translate(LEET)
    if enc == "spaced":
        return "  ".join(" ".join(w) for w in text.split())
    if enc == "reversed":
        return text[::-1]
    if enc == "unicode_tags":
        # ASCII smuggling: invisible tag characters U+E0020..U+E007E.
        return "".join(chr(0xE0000 + ord(ch)) if 0x20 <= ord(ch) < 0x7F else ch for ch in text)
    raise ValueError(enc)


# --- placing a payload -----------------------------------------------------------

def fill(text, slots):
    for k, v in slots.items():
        text = text.replace("{" + k + "}", v)
    return text


# --- building the set ------------------------------------------------------------

def pick_carrier(rng, exclude=None):
    while True:
        idx = rng.randrange(len(CARRIERS))
        if idx != exclude:
            return idx


def make_item(item_id, cls, form, lang, template, location, encoding, hint_idx, rng, split):
    c_idx = pick_carrier(rng)
    server, base = CARRIERS[c_idx]
    tool = copy_tool(base)
    slots = {
        "this": tool["name"], "secret": rng.choice(SECRETS), "env": rng.choice(ENVS), "url": rng.choice(URLS),
        "email": rng.choice(EMAILS), "other": rng.choice(MAIL_TOOLS), "paytool": rng.choice(PAY_TOOLS), "param": rng.choice(PARAMS),
    }
    payload = fill(template, slots)
    if "{param}" in template:
        ensure_param(tool, slots["param"])
    planted = payload
    hint = None
    if encoding != "none":
        planted = encode(payload, encoding)
        if hint_idx is not None:
            hint = HINTS[encoding][hint_idx]
            planted = hint + " " + planted
    tools = [tool]
    carriers = [server + "/" + base["name"]]
    detail = ""
    if location == "split.fields":
        a, b2 = split_text(planted)
        tool["description"] = tool.get("description", "") + " " + a
        props = tool["inputSchema"]["properties"]
        p = slots["param"] if slots["param"] in props else rng.choice(string_props(tool))
        props[p]["description"] = (props[p].get("description", "") + " " + b2).strip()
        detail = "description+" + p
    elif location == "split.tools":
        a, b2 = split_text(planted)
        tool["description"] = tool.get("description", "") + " " + a
        o_idx = pick_carrier(rng, exclude=c_idx)
        server2, base2 = CARRIERS[o_idx]
        tool2 = copy_tool(base2)
        if tool2["name"] == tool["name"]:
            tool2["name"] += "_v2"
        tool2["description"] = tool2.get("description", "") + " " + b2
        tools.append(tool2)
        carriers.append(server2 + "/" + base2["name"])
        detail = "two-tools"
    else:
        detail = plant(tool, planted, location, rng, {"param": slots["param"]})
    family = cls + "." + form
    held = lang in split["held_languages"] or form in split["held_families"][cls]
    label = {
        "id": item_id, "kind": "poisoned", "part": "held" if held else "dev", "class": cls, "family": family,
        "form": form, "language": lang, "location": location, "location_detail": detail, "encoding": encoding,
        "decode_hint": hint is not None, "hint": hint, "carriers": carriers, "tools": [t["name"] for t in tools],
        "slots": {k: v for k, v in slots.items() if "{" + k + "}" in template}, "payload": payload,
    }
    return {"id": item_id, "catalog": {"tools": tools}}, label


def build(split):
    items, labels = [], []
    n = 0

    def add(*args):
        nonlocal n
        n += 1
        item, label = make_item("p%05d" % n, *args)
        items.append(item)
        labels.append(label)

    other_locations = [l for l in LOCATIONS if l != "description"]
    enc_counter = 0
    for ci, cls in enumerate(CLASSES):
        for fi, form in enumerate(FORMS):
            template = EN[cls][form]
            rng = rng_for("en", cls, form)
            # 1 in the description, 3 in other places, rotating so each class
            # covers every location about equally.
            locs = ["description"] + [other_locations[(fi * 3 + k + ci * 5) % len(other_locations)] for k in range(3)]
            for loc in locs:
                add(cls, form, "en", template, loc, "none", None, rng, split)
            # One encoded variant per family, encodings and hints in rotation.
            enc = ENCODINGS[enc_counter % len(ENCODINGS)]
            hint_idx = None if enc == "unicode_tags" or (enc_counter // len(ENCODINGS)) % 2 == 1 else enc_counter % 2
            loc = ENCODED_LOCATIONS[enc_counter % len(ENCODED_LOCATIONS)] if enc != "unicode_tags" else "description"
            add(cls, form, "en", template, loc, enc, hint_idx, rng, split)
            enc_counter += 1
    for lang in sorted(I18N):
        for ci, cls in enumerate(CLASSES):
            for ei, (form, template) in enumerate(I18N[lang][cls]):
                assert form in FORMS, (lang, cls, form)
                rng = rng_for(lang, cls, form)
                second = other_locations[(ei * 7 + ci * 3 + LANGUAGES.index(lang)) % len(other_locations)]
                add(cls, form, lang, template, "description", "none", None, rng, split)
                add(cls, form, lang, template, second, "none", None, rng, split)
            # One encoded item per language and class (tags are ASCII-only).
            form, template = I18N[lang][cls][(ci + LANGUAGES.index(lang)) % len(I18N[lang][cls])]
            enc = [e for e in ENCODINGS if e not in ("unicode_tags", "leet", "rot13")][(ci + LANGUAGES.index(lang)) % 6]
            hint_idx = (ci % 2) if (ci + LANGUAGES.index(lang)) % 2 == 0 else None
            add(cls, form, lang, template, ENCODED_LOCATIONS[ci % len(ENCODED_LOCATIONS)], enc, hint_idx, rng_for(lang, cls, form, "enc"), split)
    return items, labels


def build_benign(split):
    items, labels = [], []
    n = 0

    def add(tool, topic, lang, held):
        nonlocal n
        n += 1
        iid = "b%04d" % n
        items.append({"id": iid, "catalog": {"tools": [tool]}})
        labels.append({"id": iid, "kind": "benign", "part": "held" if held else "dev", "topic": topic, "language": lang, "tools": [tool["name"]]})

    held_en = set(split["held_benign_en"])
    for topic, tool in BENIGN_EN:
        add(copy_tool(tool), topic, "en", tool["name"] in held_en)
    for lang in sorted(BENIGN_I18N):
        for topic, tool in BENIGN_I18N[lang]:
            add(copy_tool(tool), topic, lang, lang in split["held_languages"])
    # The clean carriers themselves: a flag on one would make every item
    # planted in it look detected.
    for server, tool in CARRIERS:
        add(copy_tool(tool), "carrier:" + server, "en", False)
    return items, labels


def summarize(labels):
    out = {}
    for part in ("dev", "held", "all"):
        sel = [l for l in labels if part == "all" or l["part"] == part]
        pois = [l for l in sel if l["kind"] == "poisoned"]
        ben = [l for l in sel if l["kind"] == "benign"]
        def count(key, rows):
            c = {}
            for r in rows:
                c[r[key]] = c.get(r[key], 0) + 1
            return dict(sorted(c.items()))
        fam = {}
        for r in pois:
            fam.setdefault(r["class"], set()).add(r["form"])
        out[part] = {
            "poisoned": len(pois), "benign": len(ben),
            "by_class": count("class", pois), "by_language": count("language", pois),
            "by_location": count("location", pois), "by_encoding": count("encoding", pois),
            "families_per_class": {k: len(v) for k, v in sorted(fam.items())},
            "benign_by_language": count("language", ben),
        }
    return out


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--per-file", action="store_true", help="also write catalogs/ID.json, one catalog per file")
    ap.add_argument("--write-split", action="store_true", help="(re)write split.json from the seed")
    ap.add_argument("--check", action="store_true", help="fail unless the output matches expected-digests.json")
    ap.add_argument("--write-digests", action="store_true", help="(re)write expected-digests.json")
    args = ap.parse_args()

    split = compute_split()
    split_path = os.path.join(HERE, "split.json")
    split_text_ = json.dumps(split, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if args.write_split or not os.path.exists(split_path):
        with open(split_path, "w", encoding="utf-8", newline="\n") as f:
            f.write(split_text_)
    else:
        with open(split_path, encoding="utf-8") as f:
            if f.read() != split_text_:
                sys.exit("split.json does not match the split computed from the seed; the split must not drift")

    items, labels = build(split)
    b_items, b_labels = build_benign(split)
    os.makedirs(args.out, exist_ok=True)
    write_jsonl(os.path.join(args.out, "poisoned.jsonl"), items)
    write_jsonl(os.path.join(args.out, "benign.jsonl"), b_items)
    write_jsonl(os.path.join(args.out, "labels.jsonl"), labels + b_labels)
    with open(os.path.join(args.out, "foreign_names.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(FOREIGN_TOOLS) + "\n")
    summary = summarize(labels + b_labels)
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(summary, ensure_ascii=False, indent=1) + "\n")
    if args.per_file:
        d = os.path.join(args.out, "catalogs")
        os.makedirs(d, exist_ok=True)
        for it in items + b_items:
            with open(os.path.join(d, it["id"] + ".json"), "w", encoding="utf-8", newline="\n") as f:
                f.write(json.dumps(it["catalog"], ensure_ascii=False, indent=1) + "\n")

    digests = {name: digest(os.path.join(args.out, name)) for name in ("poisoned.jsonl", "benign.jsonl", "labels.jsonl")}
    dpath = os.path.join(HERE, "expected-digests.json")
    if args.write_digests:
        with open(dpath, "w", encoding="utf-8", newline="\n") as f:
            f.write(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    if args.check:
        with open(dpath, encoding="utf-8") as f:
            want = json.load(f)
        if want != digests:
            sys.exit("generated set differs from expected-digests.json: %s" % json.dumps(digests))
    a = summary["all"]
    print("poisoned %d (dev %d, held %d), benign %d (dev %d, held %d), languages %d, families/class %s" % (
        a["poisoned"], summary["dev"]["poisoned"], summary["held"]["poisoned"], a["benign"], summary["dev"]["benign"],
        summary["held"]["benign"], len(a["by_language"]), a["families_per_class"]))


if __name__ == "__main__":
    main()
