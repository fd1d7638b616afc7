#!/usr/bin/env bash
# Cluster mode's options of issue 35 (--pairs, --pair-seed, --topology): a bad value is exit 2
# with a message that says what is wrong, before anything is measured, launch or not.
set -euo pipefail
gpubench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
# expect_usage "WHAT IT SAYS" ARGS...: exit 2 and the words on stderr.
expect_usage() {
  local want=$1 rc=0
  shift
  "$gpubench" run --suite network --out "$tmp/never.json" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [[ $rc != 2 ]] || ! grep -qF -- "$want" "$tmp/err"; then
    echo "FAIL: $* -> exit $rc, stderr: $(cat "$tmp/err")"
    failed=1
  elif [[ -e $tmp/never.json ]]; then
    echo "FAIL: $* wrote a result file"
    failed=1
  else
    echo "ok: $* -> exit 2: $(head -1 "$tmp/err")"
  fi
}
expect_usage "expected all, matchings or matchings:K" --pairs some
expect_usage "K must be 2 to" --pairs matchings:1
expect_usage "is not a whole number" --pairs matchings:four
expect_usage "--pair-seed 'x': expected a whole number" --pairs matchings --pair-seed x
expect_usage "--pair-seed '9007199254740992'" --pair-seed 9007199254740992
expect_usage "--pairs all measures every pair" --pairs all --pair-seed 3
expect_usage "cannot read the file" --topology "$tmp/missing.conf"
printf 'SwitchName=leaf1 Nodes=n[1-4]\nSwitchName=leaf2 Nodes=n[4-6]\n' >"$tmp/twice.conf"
expect_usage "line 2: node 'n4' is already under switch 'leaf1'" --topology "$tmp/twice.conf"
printf 'SwitchName=spine Switches=leaf[1-2]\nSwitchName=leaf1 Nodes=n1\n' >"$tmp/dangling.conf"
expect_usage "line 1: switch 'spine' lists 'leaf2' in Switches=" --topology "$tmp/dangling.conf"
[[ $failed == 0 ]] || exit 1
