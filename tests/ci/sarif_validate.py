#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Validate SARIF logs against the OASIS SARIF 2.1.0 JSON schema.

sarif_validate.py SCHEMA FILE...: every FILE must be JSON that the schema
(draft-07, jsonschema's Draft7Validator) accepts.  Exit 0 when all do, 1
with one line per error (file, JSON path, message) otherwise.
"""
import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        print("usage: sarif_validate.py SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    if schema.get("$schema") != "http://json-schema.org/draft-07/schema#":
        print("%s: not a draft-07 schema" % sys.argv[1], file=sys.stderr)
        return 2
    jsonschema.Draft7Validator.check_schema(schema)
    val = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    bad = 0
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            bad += 1
            continue
        for err in val.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path)
            print("%s: /%s: %s" % (path, where, err.message), file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
