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
[ "$status" = 0 ] && echo "check-repo: self-contained, no seed references"
exit "$status"
