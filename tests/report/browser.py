#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""browser.py [--shot PNG] [--height H] PAGE.html STATS.json [PAGE STATS ...]

Opens each gbpdump --report page in headless Chromium (chromedriver,
python3-selenium) and checks the rendered DOM against gbpdump --stats --json
of the same capture and options:
  - every group (name and 0x ID) is in the page's text;
  - every matrix cell has a cell in the heat map whose tooltip names the
    pair with its frames and bytes and whose number is its frames, and the
    graph has an edge with the same tooltip;
  - the Content-Security-Policy meta tag is there, nothing was requested
    but the page itself (Chromium's network log), and the console has no
    message at all (a blocked request or a CSP violation would be one).
--shot saves a screenshot of the first page (window 1280 x H, default the
page's full height).  Exit 0, or 1 with one line per problem."""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ARROW = "\u2192"


def label(g, name):
    if g is None:
        return "plain VXLAN"
    return "%s (0x%04x)" % (name, g) if name else "0x%04x" % g


def dst_label(c):
    return "unknown" if c["dst"] is None else label(c["dst"], c.get("dst_name"))


def driver():
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--disable-dev-shm-usage", "--window-size=1280,1000",
              "--force-device-scale-factor=1"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def requests(d):
    urls = []
    for e in d.get_log("performance"):
        m = json.loads(e["message"])["message"]
        if m.get("method") == "Network.requestWillBeSent":
            urls.append(m["params"]["request"]["url"])
    return urls


def check(d, page, stats_file):
    bad = []
    stats = json.load(open(stats_file))["stats"]
    url = "file://" + page
    d.get_log("browser")
    d.get_log("performance")
    d.get(url)
    text = d.execute_script("return document.documentElement.textContent")
    csp = d.execute_script("var m = document.querySelector("
                           "'meta[http-equiv=\"Content-Security-Policy\"]');"
                           "return m ? m.content : null")
    if not csp or "default-src 'none'" not in csp:
        bad.append("no Content-Security-Policy default-src 'none'")
    for g in stats["groups"]:
        want = [label(g["group"], None)] if g["group"] is not None else ["plain VXLAN"]
        if g.get("group_name"):
            want.append(g["group_name"])
        for w in want:
            if w not in text:
                bad.append("group %s: %r not in the page" % (g["group"], w))
    cells = d.execute_script(
        "return Array.from(document.querySelectorAll('svg.matrix g.cell')).map("
        "g => [g.querySelector('title').textContent,"
        " g.querySelector('text.num') ? g.querySelector('text.num').textContent : ''])")
    cells = {t.split("; policy")[0]: n for t, n in cells}
    edges = d.execute_script(
        "return Array.from(document.querySelectorAll('svg.graph g.edge title'))"
        ".map(t => t.textContent.split('; policy')[0])")
    for c in stats["matrix"]:
        f = c["frames"]
        t = "%s %s %s: %d frame%s, %d bytes" % (label(c["src"], c.get("src_name")), ARROW,
                                              dst_label(c), f, "" if f == 1 else "s",
                                              c["bytes"])
        if t not in cells:
            bad.append("matrix: no cell %r" % t)
        elif cells[t] != str(f):
            bad.append("matrix: cell %r shows %r" % (t, cells[t]))
        if t not in edges:
            bad.append("graph: no edge %r" % t)
    for u in requests(d):
        if u != url:
            bad.append("request for %s" % u)
    for e in d.get_log("browser"):
        bad.append("console %s: %s" % (e["level"], e["message"]))
    return ["%s: %s" % (page, b) for b in bad]


def main(argv):
    shot, height = None, None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--shot":
            shot, argv = argv[1], argv[2:]
        elif argv[0] == "--height":
            height, argv = int(argv[1]), argv[2:]
        else:
            print("browser.py: unknown option " + argv[0])
            return 2
    d = driver()
    bad = []
    try:
        for i in range(0, len(argv), 2):
            bad += check(d, argv[i], argv[i + 1])
            if shot and i == 0:
                h = height or d.execute_script("return document.documentElement.scrollHeight")
                d.set_window_size(1280, h)
                d.save_screenshot(shot)
    finally:
        d.quit()
    for b in bad:
        print("browser: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
