#!/usr/bin/env bash
# Repository hygiene that the tests cannot see, run first by test-all.sh:
#
# - Self-contained: no tracked file reads a folder beside the clone (the
#   test data was once read from ../shared/corpus; it lives in testdata/
#   now, and a clone on its own must pass every test). Only
#   testdata/README.md may name the old place, to say where the data came
#   from.
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
[ "$status" = 0 ] && echo "check-repo: self-contained"
exit "$status"
