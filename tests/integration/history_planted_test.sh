#!/usr/bin/env bash
# scripts/history-planted-change.sh short: 12 runs of one small network case over a tbf-shaped
# veth link between namespace hosts, the rate lowered 20 % before run 7; `history` must find the
# change at run 7 and `compare --history` fail run 7. About 25 s; root, or skipped (exit 77).
here=$(dirname "$0")
RUNS=12 exec bash "$here/../../scripts/history-planted-change.sh" "${GPUBENCH:?}"
