#!/usr/bin/env bash
# gpubench report end to end: a real `run --suite memory --quick` plus the GPU, network and
# allreduce fixtures into all four formats; the PDF's text and pages (poppler), the HTML in
# headless chromium (no console errors, a non-blank screenshot), and bad input (exit 2).
# Usage: report_formats.sh GPUBENCH FIXTURE_DIR
set -euo pipefail
gpubench=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$gpubench" run --suite memory --quick --quiet --out "$work/memory.json" >/dev/null
runs=("$work/memory.json" "$fixtures/gpu-h100.json" "$fixtures/network.json" "$fixtures/allreduce.json")
pdf=(--pdf "$work/r.pdf")
if "$gpubench" --version | grep -q "no-cairo"; then
  echo "SKIP PDF and charts: this gpubench was built without cairo + pango"
  pdf=()
fi
"$gpubench" report "${runs[@]}" --html "$work/r.html" "${pdf[@]}" --md "$work/r.md" \
  --csv "$work/r.csv" 2>/dev/null

# The median of the real run's last point, as the report writes it (3-4 significant digits).
median=$(python3 - "$work/memory.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["results"][0]["points"][-1]["stats"]["median"]
a = abs(p)
print(f"{p:.0f}" if a >= 1000 else f"{p:.1f}" if a >= 100 else f"{p:.2f}" if a >= 1 else f"{p:.3g}")
PY
)
for title in "The interconnect story" "Appendix A" "Host memory copy" "Host to GPU copies" "GPU to GPU bandwidth" \
  "Network latency: TCP and RDMA" "Allreduce across nodes" "Comparison across runs"; do
  grep -qF "$title" "$work/r.md" || fail "markdown lacks section '$title'"
  grep -qF "$title" "$work/r.html" || fail "HTML lacks section '$title'"
done
grep -qF "| $median |" "$work/r.md" || fail "markdown lacks the measured median $median"
if [[ ${#pdf[@]} -gt 0 ]]; then
  # Markdown charts: SVG files beside the report, each linked, each a well-formed SVG document.
  links=$(grep -oE '!\[[^]]*\]\(r-charts/chart-[0-9]+\.svg\)' "$work/r.md" | wc -l)
  files=$(find "$work/r-charts" -name 'chart-*.svg' | wc -l)
  [[ $links -ge 3 && $links -eq $files ]] || fail "markdown links $links charts, $files SVG files"
  python3 -c 'import sys, xml.etree.ElementTree as E; [E.parse(f) for f in sys.argv[1:]]' \
    "$work"/r-charts/*.svg || fail "a markdown chart is not well-formed SVG"
fi
grep -qF "memory.host.copy" "$work/r.csv" || fail "CSV lacks memory.host.copy rows"
points=$(python3 -c 'import json,sys; print(sum(max(1,len(c["points"])) for f in sys.argv[1:] for c in json.load(open(f))["results"]))' "${runs[@]}")
rows=$(($(wc -l <"$work/r.csv") - 1))
[[ $rows -eq $points ]] || fail "CSV has $rows rows, expected $points (one per point)"

if [[ ${#pdf[@]} -gt 0 ]] && ! command -v pdftotext >/dev/null; then
  echo "SKIP PDF checks: pdftotext (poppler-utils) not installed"
elif [[ ${#pdf[@]} -gt 0 ]]; then
  pdftotext -layout "$work/r.pdf" "$work/r.txt"
  for text in "gpubench report" "Host memory copy" "Scaling, backend=mpi, transport=tcp" \
    "Published reference figures" "$median"; do
    grep -qF -- "$text" "$work/r.txt" || fail "PDF text lacks '$text'"
  done
  pdftoppm -r 40 -png "$work/r.pdf" "$work/page"
  pages=$(ls "$work"/page-*.png | wc -l)
  [[ $pages -ge 5 ]] || fail "PDF rendered to only $pages page(s)"
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -n "$browser" ]]; then
  profile="$work/profile"
  flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
    --disable-component-update --disable-sync --user-data-dir="$profile"
    --enable-logging=stderr --v=0)
  timeout 120 "$browser" "${flags[@]}" --window-size=1200,1600 \
    --screenshot="$work/shot.png" "file://$work/r.html" 2>"$work/chromium.log" >/dev/null ||
    fail "chromium could not open the report: $(tail -3 "$work/chromium.log")"
  if grep -E "CONSOLE|Failed to load|Uncaught" "$work/chromium.log"; then
    fail "the browser reported errors on the HTML report"
  fi
  python3 - "$work/shot.png" <<'PY' || fail "the screenshot is blank"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
pixels = zlib.decompress(idat)
# A blank page is one colour; text, tables and charts give many distinct byte values.
distinct = len(set(pixels))
print(f"screenshot: {len(pixels)} bytes, {distinct} distinct values")
sys.exit(0 if distinct > 16 else 1)
PY
else
  echo "SKIP browser check: chromium not installed (scripts/setup.sh --tests installs it)"
fi

# Bad input: one line naming the file, exit 2.
: >"$work/empty.json"
set +e
msg=$("$gpubench" report "$work/empty.json" --md - 2>&1 >/dev/null)
code=$?
set -e
[[ $code -eq 2 ]] || fail "empty file: exit $code, expected 2"
[[ $(printf '%s\n' "$msg" | wc -l) -eq 1 && $msg == *empty.json* ]] ||
  fail "empty file: message '$msg' is not one line naming the file"
echo "report formats: OK"
