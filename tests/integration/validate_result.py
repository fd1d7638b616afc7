"""Validates a gpubench result file against the JSON Schema; prints the first error."""
import json
import sys

import jsonschema

schema_path, result_path = sys.argv[1], sys.argv[2]
with open(schema_path) as f:
    schema = json.load(f)
with open(result_path) as f:
    result = json.load(f)
validator = jsonschema.Draft202012Validator(schema)
errors = sorted(validator.iter_errors(result), key=lambda e: list(e.path))
for e in errors[:5]:
    print("/".join(str(p) for p in e.path), ":", e.message)
sys.exit(1 if errors else 0)
