#!/usr/bin/env bash
# The launch secret end to end, over loopback (2 ranks with test-only node names, no root):
# the pair's two ends agree on the secret (its pair is measured, no failure), nothing that
# looks like it reaches the console or the result file, and --token-file is refused in a
# cluster launch (exit 2 with the reason). About 10 s: two short mpirun launches.
set -euo pipefail
gpubench=$1
source "$(dirname "$0")/loopback_ranks_lib.sh"
launch() {
  loopback_mpirun 2 60 "$gpubench" run --suite network --filter 'net.tcp.latency' --pair-sizes 8 \
    --cluster-timeout 20 --quiet "$@"
}

# 1. Both ends hold the same secret: the pair is measured (a client without it would be
#    refused by the pair server, and the pair would be a failure).
launch --out "$tmp/cluster.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
python3 - "$tmp/cluster.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cluster"]
if c["failures"]:
    sys.exit("FAIL: pair failures with the launch secret: %s" % c["failures"])
measured = [p for p in c["pairs"] if p["benchmark"] == "net.tcp.latency" and p["median"][0]]
if not measured:
    sys.exit("FAIL: the pair v0-v1 has no net.tcp.latency figure")
print("pair v0-v1 measured: net.tcp.latency 8 B median %.1f us" % measured[0]["median"][0])
PY
# The secret is 64 hex digits; nothing of that shape belongs in the console or the file.
if grep -Eq '[0-9a-f]{64}' "$tmp/out.txt" "$tmp/cluster.json"; then
  echo "FAIL: a 64-hex-digit string (the shape of the launch secret) was written out"; exit 1
fi

# 2. --token-file in a cluster launch: refused on every rank with exit 2 and the reason.
echo "some-token" >"$tmp/token"
set +e
launch --token-file "$tmp/token" --out "$tmp/refused.json" >"$tmp/refused.txt" 2>&1
rc=$?
set -e
if [[ $rc -ne 2 ]] || ! grep -q -- '--token-file is not used in cluster mode' "$tmp/refused.txt"; then
  cat "$tmp/refused.txt"; echo "FAIL: --token-file in cluster mode gave exit $rc"; exit 1
fi
[[ ! -e "$tmp/refused.json" ]] || { echo "FAIL: a refused launch wrote a result file"; exit 1; }
echo "PASS: pair measured with the launch secret; --token-file refused (exit 2)"
