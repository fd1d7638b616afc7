#!/usr/bin/env bash
# The report's layout: no element of the HTML report wider than a 1000 px page (headless
# chromium measures a test-only copy with a small script added; the report itself has none),
# and one run's PDF has at most 12 pages before the appendix (pdftotext per page).
# Inputs: the golden fixtures and a real memory run of this machine, together in one HTML
# report and one by one as PDFs.
# About 5 to 20 s: one chromium start (a few seconds on an idle machine), four PDFs.
# Usage: report_layout.sh GPUBENCH FIXTURE_DIR
set -euo pipefail
gpubench=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then
  echo "SKIP: chromium not installed (scripts/setup.sh --tests installs it), the layout needs a browser"
  exit 77
fi

"$gpubench" run --suite memory --quick --quiet --out "$work/memory.json" >/dev/null
pdf_ok=1
if "$gpubench" --version | grep -q "no-cairo" || ! command -v pdftotext >/dev/null; then
  echo "SKIP PDF page counts: no cairo in this build or no pdftotext (poppler-utils)"
  pdf_ok=0
fi

names=(memory gpu-h100 network allreduce)
inputs=("$work/memory.json" "$fixtures/gpu-h100.json" "$fixtures/network.json"
  "$fixtures/allreduce.json")
if [[ $pdf_ok -eq 1 ]]; then
  for i in "${!names[@]}"; do
    "$gpubench" report "${inputs[$i]}" --pdf "$work/${names[$i]}.pdf" 2>/dev/null
  done
fi
# One HTML report of all four files: every view, a page one per system and the side-by-side
# table (labels carry the run names there, the widest case), so one browser start checks all.
"$gpubench" report "${inputs[@]}" --html "$work/all.html" 2>/dev/null

# The check: every element's right edge within the viewport, written into the title.
probe='<script>window.addEventListener("load",function(){var w=document.documentElement.clientWidth,bad=[];document.querySelectorAll("body *").forEach(function(e){var r=e.getBoundingClientRect();if(r.width>0&&r.right>w+1&&bad.length<5)bad.push(e.tagName+":"+Math.round(r.right)+":"+(e.textContent||"").slice(0,40).split("\n").join(" "))});document.title="LAYOUT "+w+" "+document.documentElement.scrollWidth+" "+bad.length+" "+bad.join(" | ")})</script>'
for name in all; do
  PROBE=$probe python3 -c 'import os, sys; t = open(sys.argv[1]).read(); open(sys.argv[2], "w").write(t.replace("</body>", os.environ["PROBE"] + "</body>"))' \
    "$work/$name.html" "$work/$name.probe.html"
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --window-size=1000,900 --virtual-time-budget=3000 \
    --dump-dom "file://$work/$name.probe.html" 2>/dev/null >"$work/$name.dom" ||
    fail "$name: chromium could not open the report"
  title=$(grep -o '<title>LAYOUT[^<]*</title>' "$work/$name.dom" || true)
  [[ -n "$title" ]] || fail "$name: the layout probe did not run"
  read -r _ width scroll count rest <<<"${title#<title>}"
  echo "$name.html at 1000 px: viewport $width, document width $scroll, too wide: $count"
  [[ $count -eq 0 && $scroll -le $width ]] || fail "$name.html is wider than the page: ${rest%</title>}"
done

if [[ $pdf_ok -eq 1 ]]; then
  for name in memory gpu-h100 network allreduce; do
    pages=$(pdfinfo "$work/$name.pdf" | awk '/^Pages:/ {print $2}')
    before=0
    for ((p = 2; p <= pages; p++)); do
      if pdftotext -f "$p" -l "$p" "$work/$name.pdf" - | grep -q "^Appendix A"; then
        before=$((p - 1))
        break
      fi
    done
    echo "$name.pdf: $pages pages, $before before the appendix"
    [[ $before -ge 2 ]] || fail "$name.pdf: no appendix found"
    [[ $before -le 12 ]] || fail "$name.pdf: $before pages before the appendix (at most 12)"
  done
fi
echo "report layout: OK"
