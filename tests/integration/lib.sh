# Shared helpers of the integration tests: assertions that name what failed.
# Usage: source lib.sh; GPUBENCH is the binary under test.
set -u
: "${GPUBENCH:?GPUBENCH must point at the gpubench binary}"
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpubench-it.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# expect_exit CODE DESCRIPTION -- command...   (captures stdout/stderr in $out/$err)
expect_exit() {
  local want=$1 what=$2
  shift 3
  set +e
  "$@" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
  local got=$?
  set -e
  out=$(cat "$TEST_TMP/stdout")
  err=$(cat "$TEST_TMP/stderr")
  if [[ $got -ne $want ]]; then
    fail "$what: exit $got, expected $want; stderr: ${err:0:400}"
    return 1
  fi
  pass "$what (exit $got)"
}

expect_contains() {
  local haystack=$1 needle=$2 what=$3
  if [[ $haystack == *"$needle"* ]]; then pass "$what"; else fail "$what: '$needle' not in: ${haystack:0:400}"; fi
}

# The Python that validates: Debian's /usr/bin/python3 with python3-jsonschema, which
# scripts/setup.sh --tests installs (a user's tool), not whichever python3 comes first on PATH.
schema_python() {
  local p=/usr/bin/python3
  [[ -x $p ]] || p=$(command -v python3) || return 1
  "$p" -c 'import jsonschema' 2>/dev/null && echo "$p"
}

# validate FILE: the result file validates against the repository's JSON Schema.
validate() {
  local py
  py=$(schema_python) || { fail "no python3 with jsonschema to validate $1 (scripts/setup.sh --tests installs python3-jsonschema)"; return 1; }
  if "$py" "$(dirname "${BASH_SOURCE[0]}")/validate_result.py" "$SCHEMA" "$1" >"$TEST_TMP/validate" 2>&1; then
    pass "schema-valid: $(basename "$1")"
  else
    fail "schema validation of $1: $(cat "$TEST_TMP/validate")"
  fi
}

finish() {
  if [[ $failures -gt 0 ]]; then echo "$failures check(s) failed" >&2; exit 1; fi
  echo "all checks passed"
}
