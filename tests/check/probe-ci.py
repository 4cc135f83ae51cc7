#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""probe-ci.py JUNIT SARIF EXIT "id=verdict ..." - validate gbpprobe's
--junit and --sarif files of one run against the verdicts the test expects
(not against gbpprobe's own report): the XML parses and its counts add up,
each probe's test case has the outcome of its verdict (fail: <failure>,
n/a: <skipped>, pass/info: neither); the SARIF log has the fields SARIF
2.1.0 requires (version, runs, tool.driver.name, rule ids, each result's
message.text) and one result per probe whose kind is its verdict's, level
"error" only on a failure; the exit status is in both."""
import json
import sys
import xml.etree.ElementTree as ET

KIND = {"pass": "pass", "fail": "fail", "info": "informational", "n/a": "notApplicable"}


def fail(msg):
    print("probe-ci.py: " + msg, file=sys.stderr)
    sys.exit(1)


def junit(path, want, code):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites" or len(root) != 1 or root[0].tag != "testsuite":
        fail("%s: not one <testsuite> in <testsuites>" % path)
    suite = root[0]
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    if props.get("exit") != str(code):
        fail("%s: exit property %s, expected %d" % (path, props.get("exit"), code))
    cases = [c for c in suite.findall("testcase") if c.get("name") != "vtep.answer"]
    got = {}
    for c in cases:
        kids = {k.tag for k in c}
        got[c.get("name")] = "fail" if "failure" in kids else "n/a" if "skipped" in kids \
            else (c.findtext("system-out") or "").split(":")[0]
        if not c.get("classname", "").startswith("vxgbp.probe."):
            fail("%s: %s: classname %s" % (path, c.get("name"), c.get("classname")))
    if list(got) != list(want):
        fail("%s: test cases %s, expected %s" % (path, list(got), list(want)))
    for k, v in want.items():
        if got[k] != v:
            fail("%s: %s is %s, expected %s" % (path, k, got[k], v))
    errors = len(suite.findall("testcase/error"))
    if errors != (code == 1):
        fail("%s: %d error test cases with exit %d" % (path, errors, code))
    n = len(cases) + errors
    nf = sum(v == "fail" for v in want.values())
    ns = sum(v == "n/a" for v in want.values())
    for el in (root, suite):
        if (el.get("tests"), el.get("failures"), el.get("errors")) != (str(n), str(nf), str(errors)):
            fail("%s: <%s> counts %s" % (path, el.tag, el.attrib))
    if suite.get("skipped") != str(ns):
        fail("%s: skipped=%s, expected %d" % (path, suite.get("skipped"), ns))


def sarif(path, want, code):
    log = json.load(open(path, encoding="utf-8"))
    if log.get("version") != "2.1.0" or "sarif-schema-2.1.0" not in log.get("$schema", ""):
        fail("%s: not SARIF 2.1.0" % path)
    if len(log.get("runs", [])) != 1:
        fail("%s: not one run" % path)
    run = log["runs"][0]
    drv = run["tool"]["driver"]
    if drv.get("name") != "gbpprobe":
        fail("%s: driver %s" % (path, drv.get("name")))
    rules = [r["id"] for r in drv["rules"]]
    if rules != list(want):
        fail("%s: rules %s, expected %s" % (path, rules, list(want)))
    inv = run["invocations"][0]
    if not isinstance(inv.get("executionSuccessful"), bool) or inv.get("exitCode") != code:
        fail("%s: invocation %s, expected exit %d" % (path, inv, code))
    res = run["results"]
    if [r["ruleId"] for r in res] != rules:
        fail("%s: results for %s" % (path, [r["ruleId"] for r in res]))
    for i, r in enumerate(res):
        v = want[r["ruleId"]]
        if r.get("ruleIndex") != i or not isinstance(r["message"].get("text"), str):
            fail("%s: result %d: ruleIndex or message.text" % (path, i))
        if r.get("kind") != KIND[v] or r.get("level") != ("error" if v == "fail" else "none"):
            fail("%s: %s: kind %s level %s, expected the verdict %s" %
                 (path, r["ruleId"], r.get("kind"), r.get("level"), v))
        if r["properties"]["verdict"] != v:
            fail("%s: %s: verdict property %s" % (path, r["ruleId"], r["properties"]["verdict"]))


def main():
    jpath, spath, code, expected = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    want = dict(kv.split("=", 1) for kv in expected.split())
    junit(jpath, want, code)
    sarif(spath, want, code)


main()
