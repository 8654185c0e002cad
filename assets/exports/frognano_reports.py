#!/usr/bin/env python3
"""Test reports (JUnit XML, TAP, Jest/Vitest JSON) read into FrogNano's test ids.

Shipped with exported tasks: Harbor's grader imports it; a SWE-bench eval script
runs it to print one "[PASSED] id" or "[FAILED] id" line per test (the line
shape SWE-bench's parse_log_jest_json reads), so ids match the task's lists.
Usage: frognano_reports.py FORMAT REPORT_FILE [WORKSPACE]
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET


DURATION = r"\d+(?:\.\d+)?\s*(?:ms|s|sec|\u00b5s|us|ns)"
RUN_VARYING = re.compile(rf"(?:\s+#\s*time={DURATION}|\s*\({DURATION}\)|\s*\[{DURATION}\])\s*$", re.I)


def stable(name):
    """A test's name without run-varying timing at its end (as src/report/types.ts stableTestName)."""
    out, prev = name, None
    while prev != out:
        prev, out = out, RUN_VARYING.sub("", out)
    return out or name


def unescape(name):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), name)


def junit_id(tc):
    name, cls, f = stable(tc.get("name") or "(unnamed)"), tc.get("classname", ""), tc.get("file")
    if f and f.endswith(".py"):
        mod = f[:-3].replace("/", ".")
        if cls == mod or cls.startswith(mod + ".") or not cls:
            rest = cls[len(mod) :].lstrip(".")
            return "::".join([f] + (rest.split(".") if rest else []) + [name])
        parts = cls.split(".")  # a test inherited from a base elsewhere: the classname names the collecting module
        i = next((k for k, p in enumerate(parts) if p[:1].isupper()), len(parts)) or len(parts)
        return "::".join(["/".join(parts[:i]) + ".py"] + parts[i:] + [name])
    if f and re.search(r"\.[cm]?[jt]sx?$", f):
        return " > ".join([f] + ([cls] if cls else []) + [name])
    return f"{cls}::{name}" if cls else name


def parse(fmt, text, workspace="/workspace"):
    """(test id, status) pairs with the ids FrogNano gives (src/report/): passed, failed, error or skipped."""
    found = []
    if fmt == "junit":
        for tc in ET.fromstring(text).iter("testcase"):
            kids = [c.tag for c in tc]
            found.append((junit_id(tc), next(({"failure": "failed", "error": "error", "skipped": "skipped"}[k] for k in kids if k in ("failure", "error", "skipped")), "passed")))
    elif fmt == "tap":
        path = []  # ids are the path of "# Subtest:" headers down to each test point
        for line in text.splitlines():
            m = re.match(r"^( *)# Subtest: (.*)$", line)
            if m and len(m.group(1)) % 4 == 0:
                path = path[: len(m.group(1)) // 4] + [stable(unescape(m.group(2)))]
            m = re.match(r"^( *)(not )?ok \d+ - (.*?)(?: # (SKIP|TODO).*)?$", line)
            if m and len(m.group(1)) % 4 == 0:
                depth = len(m.group(1)) // 4
                if len(path) <= depth or path[depth] != stable(unescape(m.group(3))):
                    path = path[:depth] + [stable(unescape(m.group(3)))]
                found.append((" > ".join(path[: depth + 1]), "skipped" if m.group(4) else ("failed" if m.group(2) else "passed")))
        # A suite's own point comes after its tests: keep only the leaves.
        found = [(t, s) for t, s in found if not any(o.startswith(t + " > ") for o, _ in found)]
    else:
        data = json.loads(text[text.index("{") : text.rindex("}") + 1])
        for f in data.get("testResults", []):
            rel = os.path.relpath(f["name"], workspace) if os.path.isabs(f["name"]) else f["name"]
            for a in f.get("assertionResults", []):
                tid = " > ".join([rel] + [stable(x) for x in a.get("ancestorTitles", []) + [a["title"]]])
                found.append((tid, {"passed": "passed", "failed": "failed"}.get(a["status"], "skipped")))
    out, seen = {}, {}
    for tid, status in found:  # same-named tests stay distinct: " [2]", " [3]"...
        seen[tid] = seen.get(tid, 0) + 1
        out[tid if seen[tid] == 1 else f"{tid} [{seen[tid]}]"] = status
    return out

if __name__ == "__main__":
    try:
        with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
            results = parse(sys.argv[1], f.read(), *sys.argv[3:4])
    except (OSError, ValueError, ET.ParseError) as e:
        print(f"frognano: no usable {sys.argv[1]} report: {e}")
        results = {}
    for tid, status in results.items():
        if status != "skipped":  # a skipped test is absent: it counts as failed where it is required
            print(f"[{'PASSED' if status == 'passed' else 'FAILED'}] {tid}")
