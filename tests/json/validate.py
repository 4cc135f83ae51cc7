#!/usr/bin/python3
"""Validate gbpdump's JSON against docs/gbpdump.schema.json.

    validate.py GBPDUMP SOURCE_DIR

Checks, each a failure of its own:
  - the schema is a valid Draft 2020-12 schema;
  - every line of every JSON golden file (a file under tests/**/expected/
    whose name contains "json"; an "EXIT n" line is the runner's, not
    gbpdump's), and every line starting with "{" in any other golden file,
    is a JSON value the schema accepts;
  - gbpdump --json (with the fixtures' group names), --check --json and
    --stats --json over every capture below fixtures/ (found by a glob, so
    a new fixture is covered) print only lines the schema accepts;
  - across all of those lines, each key (by its path, array indices left
    out) has one JSON type besides null;
  - every key the schema names is described in docs/json.md;
  - the schema rejects what it must: a frame with a key it does not know,
    a protocol given by name in "proto", a GBP field in a GPE header.
Runs with /usr/bin/python3: Debian's python3-jsonschema (4.10) is only
importable there.
"""
import copy
import glob
import json
import os
import re
import subprocess
import sys

from jsonschema import Draft202012Validator, FormatChecker

failures = []


def fail(where, what):
    failures.append(f"{where}: {what}")


def load_schema(src):
    path = os.path.join(src, "docs", "gbpdump.schema.json")
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return schema, Draft202012Validator(schema, format_checker=FormatChecker())


def errors(validator, obj):
    """The schema's complaints about obj, most specific first, in one line."""
    out = []
    for e in sorted(validator.iter_errors(obj), key=lambda e: -len(e.absolute_path)):
        leaves = e.context or [e]
        best = max(leaves, key=lambda c: len(c.absolute_path))
        out.append(f"{'/'.join(str(p) for p in best.absolute_path)}: {best.message[:200]}")
    return out


class Corpus:
    """Every JSON value seen, and the types of every key path."""

    def __init__(self, validator):
        self.validator = validator
        self.lines = 0
        self.types = {}
        self.sample = {}

    def line(self, where, text):
        try:
            obj = json.loads(text)
        except ValueError as e:
            fail(where, f"not JSON ({e}): {text[:120]}")
            return
        self.lines += 1
        for msg in errors(self.validator, obj):
            fail(where, msg)
        self.walk(where, obj, "")
        kind = next(iter(obj)) if isinstance(obj, dict) and obj else "?"
        self.sample.setdefault("frame" if kind == "frame" else kind, obj)

    def walk(self, where, v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                self.walk(where, x, f"{path}.{k}")
        elif isinstance(v, list):
            for x in v:
                self.walk(where, x, path + "[]")
        if v is None or not path:
            return
        t = {bool: "boolean", int: "number", float: "number", str: "string",
             list: "array", dict: "object"}[type(v)]
        seen = self.types.setdefault(path, {})
        seen.setdefault(t, where)


# Golden documents of other formats, each held to its own schema elsewhere
# (SARIF and JUnit: tests/ci; the HTML report and DOT: tests/report).
OTHER_FORMATS = (".sarif", ".xml", ".html", ".dot", ".svg")


def golden_files(src):
    pats = ["tests/*/expected/*", "tests/*/*/expected/*"]
    return sorted({p for pat in pats for p in glob.glob(os.path.join(src, pat))
                   if os.path.isfile(p) and not p.endswith(OTHER_FORMATS)})


def check_goldens(src, corpus):
    n = 0
    for path in golden_files(src):
        rel = os.path.relpath(path, src)
        is_json = "json" in os.path.basename(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if is_json and re.fullmatch(r"EXIT [0-9]+", line):
                    continue
                if is_json or line.startswith("{"):
                    corpus.line(f"{rel}:{i}", line)
                    n += 1
    if n == 0:
        fail("goldens", "no JSON golden line found")
    return n


def captures(src):
    found = []
    for ext in ("pcap", "pcapng"):
        found += glob.glob(os.path.join(src, "fixtures", "**", "*." + ext), recursive=True)
    return sorted(found)


def check_fixtures(gbpdump, src, corpus):
    groups = os.path.join(src, "fixtures", "groups.txt")
    runs = [["--json", "--groups", groups], ["--check", "--json"], ["--stats", "--json"]]
    caps = captures(src)
    if not caps:
        fail("fixtures", "no capture found")
    for cap in caps:
        rel = os.path.relpath(cap, src)
        for opts in runs:
            r = subprocess.run([gbpdump, "-r", cap] + opts, capture_output=True, text=True,
                               env=dict(os.environ, TZ="UTC", LC_ALL="C"))
            where = f"gbpdump -r {rel} {' '.join(opts[:2])}"
            # 0 read, 1 a data problem (what came before it is printed),
            # 3/4 --check's warn/fail; 2 is a usage or I/O error
            if r.returncode not in (0, 1, 3, 4):
                fail(where, f"exit {r.returncode}: {r.stderr.strip()[:200]}")
            for i, line in enumerate(r.stdout.splitlines(), 1):
                corpus.line(f"{where} line {i}", line)
    return len(caps)


def check_types(corpus):
    for path, seen in sorted(corpus.types.items()):
        if len(seen) > 1:
            fail("one type per key", f"{path} is " +
                 ", ".join(f"{t} (first at {w})" for t, w in sorted(seen.items())))


def schema_keys(node, keys):
    if isinstance(node, dict):
        for k in ("properties",):
            if isinstance(node.get(k), dict):
                keys.update(node[k].keys())
        for k, v in node.items():
            if k in ("required", "dependentRequired", "enum", "const"):
                continue
            schema_keys(v, keys)
    elif isinstance(node, list):
        for v in node:
            schema_keys(v, keys)
    return keys


def check_doc(src, schema):
    try:
        with open(os.path.join(src, "docs", "json.md"), encoding="utf-8") as f:
            doc = f.read()
    except OSError as e:
        fail("docs/json.md", str(e))
        return
    for k in sorted(schema_keys(schema, set())):
        if f'"{k}"' not in doc and f"`{k}`" not in doc:
            fail("docs/json.md", f"key {k!r} of the schema is not described")


def check_rejects(validator, corpus):
    """The schema must reject these; a schema that accepts anything fails."""
    frame = corpus.sample.get("frame")
    if not frame:
        fail("self-test", "no frame object seen")
        return
    bad = []
    o = copy.deepcopy(frame)
    o["bogus"] = 1
    bad.append(("an unknown key in a frame", o))
    o = copy.deepcopy(frame)
    if o.get("outer") and "proto" in o["outer"]:
        o["outer"]["proto"] = o["outer"].get("proto_name", "udp")
        bad.append(('"proto" as a name', o))
    o = copy.deepcopy(frame)
    o["vxlan"] = {"kind": "gpe", "flags": 3072, "vni": 1, "version": 0,
                  "next_proto_present": True, "bum": False, "oam": False,
                  "next_proto": 3, "reserved_byte2": 0, "reserved": 0,
                  "gbp": {"id": 3, "dont_learn": False, "policy_applied": False}}
    bad.append(('"gbp" in a GPE header', o))
    o = copy.deepcopy(frame)
    o["finding_layers"] = [{"id": "gbp.zero-id", "layer": "somewhere"}]
    bad.append(("a finding in an unknown layer", o))
    for c in ("check", "stats"):
        if c in corpus.sample:
            o = copy.deepcopy(corpus.sample[c])
            o[c]["extra"] = 0
            bad.append((f"an unknown key in --{c}", o))
    for what, obj in bad:
        if validator.is_valid(obj):
            fail("self-test", f"the schema accepts {what}")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    gbpdump, src = sys.argv[1], sys.argv[2]
    schema, validator = load_schema(src)
    corpus = Corpus(validator)
    n_gold = check_goldens(src, corpus)
    n_caps = check_fixtures(gbpdump, src, corpus)
    check_types(corpus)
    check_doc(src, schema)
    check_rejects(validator, corpus)
    for f in failures[:60]:
        print("FAIL", f)
    if len(failures) > 60:
        print(f"... and {len(failures) - 60} more")
    print(f"json.schema: {n_gold} golden lines, {n_caps} captures x 3 runs, "
          f"{corpus.lines} JSON values, {len(corpus.types)} key paths: "
          f"{'FAIL' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
