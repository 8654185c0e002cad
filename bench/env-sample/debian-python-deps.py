#!/usr/bin/env python3
"""Lists the Debian python3-* packages that provide the declared Python
dependencies of the sampled repositories, for `apt-get install` on a machine
that cannot reach PyPI (FrogNano's Python layers then take them from the
system's packages when pip fails; docs/environments.md).

Usage: python3 bench/env-sample/debian-python-deps.py LIST... | xargs apt-get install -y
LIST: scan lists (`<mirror git dir> <commit> <name>` lines, as scratch/sample-local.txt).
It reads the files FrogNano reads (requirements files, pyproject.toml's
dependencies, test extras, dependency groups and poetry tables, setup.cfg's
and setup.py's requirement lists) at each pinned commit, and
prints each dependency's Debian package where `apt-cache show` knows one.
"""
import re
import subprocess
import sys
import tomllib

REQUIREMENT_FILES = ["requirements.txt", "requirements-dev.txt", "requirements-test.txt", "requirements_test.txt",
                     "test-requirements.txt", "requirements/test.txt", "requirements/dev.txt", "requirements/tests.txt"]
TEST_EXTRAS = ["test", "tests", "testing", "dev"]


def show(git_dir, commit, path):
    r = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def names(git_dir, commit):
    reqs = []
    for f in REQUIREMENT_FILES:
        text = show(git_dir, commit, f)
        if text:
            reqs += [l.split("#")[0].strip() for l in text.splitlines() if l.strip() and not l.strip().startswith(("-", "#"))]
    text = show(git_dir, commit, "pyproject.toml")
    if text:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            doc = {}
        reqs += doc.get("project", {}).get("dependencies", []) or []
        for table in (doc.get("project", {}).get("optional-dependencies", {}), doc.get("dependency-groups", {})):
            for key in TEST_EXTRAS:
                reqs += [x for x in (table or {}).get(key, []) if isinstance(x, str)]
        poetry = doc.get("tool", {}).get("poetry", {})
        for table in [poetry.get("dependencies", {}), poetry.get("dev-dependencies", {})] + [
                poetry.get("group", {}).get(g, {}).get("dependencies", {}) for g in TEST_EXTRAS]:
            reqs += [n for n, v in (table or {}).items() if n.lower() != "python" and not (isinstance(v, dict) and v.get("optional"))]
    cfg = show(git_dir, commit, "setup.cfg") or ""
    for key in ("install_requires", "tests_require") + tuple(TEST_EXTRAS):
        m = re.search(rf"^{key}\s*[=:]\s*(.*(?:\n[ \t]+\S.*)*)", cfg, re.M)
        if m:
            reqs += [l.strip() for l in m.group(1).splitlines() if l.strip() and not l.strip().startswith(("#", ";"))]
    setup_py = show(git_dir, commit, "setup.py") or ""
    for key in ("install_requires", "tests_require"):
        m = re.search(rf"\b{key}\s*=\s*\[([^\]]*)\]", setup_py)
        if m:
            reqs += re.findall(r"['\"]([^'\"]+)['\"]", m.group(1))
    out = set()
    for r in reqs:
        m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", r)
        if m:
            out.add(re.sub(r"[-_.]+", "-", m.group(1)).lower())
    return out


def debian(name):
    for cand in dict.fromkeys([name, name.removeprefix("python-")]):
        r = subprocess.run(["apt-cache", "show", f"python3-{cand}"], capture_output=True, text=True)
        if r.returncode == 0 and "\nVersion:" in f"\n{r.stdout}":  # a purely virtual package has no version to install
            return f"python3-{cand}"
    return None


wanted = set()
for list_file in sys.argv[1:]:
    for line in open(list_file):
        parts = line.split()
        if len(parts) >= 3 and parts[2].startswith("pypi-"):
            wanted |= names(parts[0], parts[1])
found = sorted({d for d in map(debian, sorted(wanted)) if d})
print("\n".join(found))
print(f"{len(found)} of {len(wanted)} declared dependencies have a Debian package", file=sys.stderr)
