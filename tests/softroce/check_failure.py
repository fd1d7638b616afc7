"""Checks a soft-RoCE result file whose one case must have failed for a known reason
(tests/softroce: eth0 taken down in the middle of a point fails it with the port's
asynchronous event).

usage: check_failure.py FILE LABEL TEXT   (TEXT: what the case's reason must hold)"""
import json
import sys

path, label, text = sys.argv[1:4]
cases = json.load(open(path))["results"]
failed = [c for c in cases if c["status"] == "failed" and text in c.get("reason", "")]
for c in cases:
    print(f"{label}: {c['benchmark']} {c['params'].get('op')}: {c['status']}: "
          f"{c.get('reason', '')}")
if len(cases) != 1 or not failed:
    print(f"FAIL: {label}: expected one case, failed with {text} in its reason")
    sys.exit(1)
print(f"{label}: failed naming {text}, as it should")
