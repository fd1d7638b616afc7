#!/usr/bin/env bash
# Two processes adding 100 runs each to one SQLite store at the same time lose nothing
# (docs/history.md "Many writers"). About 10 s.
set -euo pipefail
here=$(dirname "$0")
source "$here/lib.sh"
source "$here/history_lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 writes the synthetic runs (scripts/setup.sh --tests)"; exit 77; }
two_writers "$TEST_TMP/results/gpubench.db" "$TEST_TMP"
finish
