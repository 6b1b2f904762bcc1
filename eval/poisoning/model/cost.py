#!/usr/bin/env python3
"""Operation counts of the scorer on the real catalogs (standard library only).

    python3 eval/poisoning/model/cost.py

Counts, over every model-visible string of testdata/bench/shared-real-tools.json,
the bytes scanned, the variants produced, the n-gram hashes and weight lookups,
so that the cost per byte of a Rust port can be estimated from them (README).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scorer  # noqa: E402

REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def main():
    path = os.path.join(REPO, "testdata", "bench", "shared-real-tools.json")
    raw = open(path, "rb").read()
    tools = json.loads(raw)["tools"]
    cfg = {"words": True, "chars": True, "struct": True, "decode": True}
    n = {"json_bytes_compact": len(json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False).encode()),
         "strings": 0, "text_bytes": 0, "variant_bytes": 0, "segments": 0, "features": 0, "char_ngrams": 0,
         "word_feats": 0, "struct_feats": 0, "variants": {}}
    for t in tools:
        for field, text in scorer.strings_of_tool(t):
            n["strings"] += 1
            n["text_bytes"] += len(text.encode())
            for vkind, vt in scorer.variants(text):
                n["variants"][vkind] = n["variants"].get(vkind, 0) + 1
                n["variant_bytes"] += len(vt.encode())
                for s in scorer.segments(vt):
                    n["segments"] += 1
                    # features are hashes now: count them by kind from their sources
                    grams = len(scorer.gram_hashes(s))
                    words = len(scorer.words_of(s))
                    fs = scorer.segment_features(s, field, vkind, cfg)
                    n["features"] += len(fs)
                    n["char_ngrams"] += grams
                    n["word_feats"] += words + max(words - 1, 0)
                    n["struct_feats"] += len(fs) - grams - words - max(words - 1, 0)
    n["features_per_text_byte"] = round(n["features"] / n["text_bytes"], 2)
    n["variant_bytes_per_text_byte"] = round(n["variant_bytes"] / n["text_bytes"], 2)
    n["text_bytes_per_json_byte"] = round(n["text_bytes"] / n["json_bytes_compact"], 3)
    print(json.dumps(n, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
