#!/usr/bin/env python3
"""FrogNano's verifier inside a Harbor container (tests/test.sh runs it as root).

It grades the way `frognano` grades on its own machines, in a container the
agent had root in, so it trusts nothing the agent could have left:

1. every process but this one and its ancestors is ended (a forger left
   running cannot act after this point);
2. /logs/verifier is emptied (no reward.json or reward.txt the agent wrote);
3. every file under /tests is checked against manifest.json, whose SHA-256
   test.sh carries: a file planted there before Harbor's upload, or one
   changed after it, refuses the grading (reward 0, verdict "tampering"). The
   report reader and config.json are run and read from the checked bytes;
   nothing is imported from /tests;
4. /workspace is rebuilt from the task's broken state (/tests/repo) plus only
   the agent's changes to source files (tests, hidden tests, runner and
   interpreter configuration and symbolic links are dropped); the lines the
   change adds are searched for known ways to forge results; the task's
   honeypot tests, copy groups and generated checks are laid out;
5. the test command runs as an unprivileged user (when this runs as root),
   with a clean environment and a time limit, and /tests closed to it; where
   the task's layout says so, it loads FrogNano's guard (tests/guard/, copied
   where that user can read it but not change it) watching the lines the
   change adds;
6. every process but this one and its ancestors is ended again; a guard
   alarm in the run's output or report is tampering; then the
   report is read; FAIL_TO_PASS, PASS_TO_PASS and the generated checks are
   graded strictly (a missing or skipped test fails, a report that
   disagrees with the exit code is not believed), and a honeypot reported
   passed beside the test it contradicts is tampering;
7. /logs/verifier/frognano.json (the verdict and why) is written, then
   /logs/verifier/reward.txt (1 or 0), last, with no other process left to
   change it.

Every rule and pattern comes from /tests/config.json, which `frognano task
export --format harbor` writes from the verifier's own.
"""
import os
import sys

# Only the interpreter's own library: -I -S already leave out this file's
# folder, the user site and site-packages; a path entry that is no folder
# (a planted python3XX.zip) goes too.
sys.path[:] = [p for p in sys.path if p.startswith(sys.base_prefix + os.sep) and os.path.isdir(p)]
sys.dont_write_bytecode = True

import difflib  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import posixpath  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import types  # noqa: E402

TESTS, WORKSPACE, LOGS = "/tests", "/workspace", "/logs/verifier"
REPO = os.path.join(TESTS, "repo")
MANIFEST = "manifest.json"
# Under /tests but not in the manifest: test.sh carries the manifest's hash, so neither can be listed in it.
UNLISTED = {"test.sh", MANIFEST}
# The graded run's user when the grader is root: it can neither signal the grader nor write its logs or /tests.
TEST_UID = TEST_GID = 65534
RANDOM = random.SystemRandom()
STATE = {"instance_id": None, "stdout": None, "guard": {}, "guard_dir": None, "guard_lines": None}
# What is read from the checked bytes: the config, the report reader and the guard (src/grading/guard.ts).
KEPT = {"config.json", "frognano_reports.py", "guard/sitecustomize.py", "guard/guard.cjs"}
CFG = {}


class Refused(Exception):
    """The change is refused as a whole (too large, binary): reward 0."""


def matcher(sources):
    patterns = [re.compile(s) for s in sources]
    return lambda path: any(p.fullmatch(path) for p in patterns)


# --- processes -----------------------------------------------------------


PF_KTHREAD = 0x00200000


def proc_stat(pid):
    """(state, parent pid, is a kernel thread) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    rest = data[data.rindex(b")") + 2 :].split()
    return rest[0].decode(), int(rest[1]), bool(int(rest[6]) & PF_KTHREAD)


def ancestry():
    """This process and every process above it: the harness that started the grading."""
    keep, pid = {os.getpid()}, os.getpid()
    while pid > 1:
        info = proc_stat(pid)
        if info is None:
            break
        pid = info[1]
        keep.add(pid)
    return keep


def end_others(limit=10.0):
    """Ends every process but this one, its ancestors and the namespace's init; returns those that would not end."""
    keep = ancestry() | {0, 1}
    deadline = time.monotonic() + limit
    while True:
        alive = {}
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) not in keep:
                info = proc_stat(int(name))
                # Zombies run nothing; kernel threads (in a VM) ignore signals and run nothing of the agent's.
                if info and info[0] not in ("Z", "X", "x") and not info[2]:
                    alive[int(name)] = info[0]
        if not alive:
            return []
        # Stopped processes cannot fork: once every one is stopped at the same time, killing them all leaves none.
        everyone_stopped = all(s in ("T", "t") for s in alive.values())
        late = time.monotonic() > deadline
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL if everyone_stopped or late else signal.SIGSTOP)
            except OSError:
                pass
        if late and time.monotonic() > deadline + 2:
            return sorted(alive)
        time.sleep(0.002)


# --- /logs/verifier ------------------------------------------------------


def real_dir(path):
    """`path` as a folder of its own: a link or file the agent put there is removed first."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISDIR(st.st_mode):
        os.unlink(path)
        st = None
    if st is None:
        os.mkdir(path, 0o755)


def clear_logs():
    """Empties /logs/verifier but for the grader's own output; the first call opens that output."""
    real_dir("/logs")
    real_dir(LOGS)
    for name in os.listdir(LOGS):
        p = os.path.join(LOGS, name)
        st = os.lstat(p)
        if STATE["stdout"] == (st.st_dev, st.st_ino):
            continue
        shutil.rmtree(p) if stat.S_ISDIR(st.st_mode) else os.unlink(p)
    if STATE["stdout"] is None:
        # Harbor sends test.sh's output to test-stdout.txt, which went with the rest: a new one, for the grader's.
        sys.stdout.flush()
        fd = os.open(os.path.join(LOGS, "test-stdout.txt"), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        st = os.fstat(1)
        STATE["stdout"] = (st.st_dev, st.st_ino)


def write_new(name, text):
    fd = os.open(os.path.join(LOGS, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def finish(reward, verdict, reason, **extra):
    # Nothing but the grader runs from here on, and the reward is its last write.
    end_others()
    clear_logs()
    print(f"{verdict}: {reason}", flush=True)
    write_new("frognano.json", json.dumps({"instance_id": STATE["instance_id"], "reward": reward, "verdict": verdict, "reason": reason, **extra}, indent=1))
    write_new("reward.txt", str(reward))
    os._exit(0)


# --- /tests --------------------------------------------------------------


def read_regular(path, limit):
    """A regular file's bytes, opened without following a link or blocking on a pipe; None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        return f.read(limit + 1)


def checked_tests(expected):
    """The bytes of config.json and frognano_reports.py, once everything under /tests is what the task shipped."""
    if not re.fullmatch(r"[0-9a-f]{64}", expected or ""):
        finish(0, "tampering", "test.sh names no manifest hash", cause="tests-tampered")
    st = os.lstat(TESTS)
    if not stat.S_ISDIR(st.st_mode):
        finish(0, "tampering", "/tests is not a folder", cause="tests-tampered")
    data = read_regular(os.path.join(TESTS, MANIFEST), 64 * 1024 * 1024)
    if data is None or hashlib.sha256(data).hexdigest() != expected:
        finish(0, "tampering", "/tests/manifest.json is not the one test.sh names", cause="tests-tampered")
    manifest = json.loads(data)
    STATE["instance_id"] = manifest["instance_id"]
    files, links, dirs = manifest["files"], manifest["links"], set(manifest["dirs"])
    problems, kept, seen = [], {}, set()
    for dirpath, dirnames, filenames in os.walk(TESTS):
        rel_dir = os.path.relpath(dirpath, TESTS)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        for name in list(dirnames) + filenames:
            rel = rel_dir + name
            seen.add(rel)
            st = os.lstat(os.path.join(dirpath, name))
            if stat.S_ISDIR(st.st_mode):
                if rel not in dirs:
                    problems.append(f"{rel}/ was not shipped")
                    dirnames.remove(name)  # what lies below it was not shipped either
            elif stat.S_ISLNK(st.st_mode):
                if links.get(rel) != os.readlink(os.path.join(dirpath, name)):
                    problems.append(f"{rel} is a link the task did not ship")
                if name in dirnames:
                    dirnames.remove(name)
            elif rel in UNLISTED and not rel_dir and stat.S_ISREG(st.st_mode):
                continue
            elif rel not in files:
                problems.append(f"{rel} was not shipped")
            else:
                want = files[rel]
                content = read_regular(os.path.join(dirpath, name), want["size"]) if st.st_size == want["size"] else None
                if content is None or len(content) != want["size"] or hashlib.sha256(content).hexdigest() != want["sha256"]:
                    problems.append(f"{rel} differs from the shipped file")
                elif rel in KEPT:
                    kept[rel] = content
            if len(problems) >= 20:
                break
        if len(problems) >= 20:
            break
    problems += [f"{rel} is missing" for rel in sorted((set(files) | set(links) | dirs) - seen)][: max(0, 20 - len(problems))]
    if problems:
        # Harbor uploads exactly what the task shipped: anything else under /tests came from inside the container.
        finish(0, "tampering", "files under /tests differ from those the task shipped: " + "; ".join(problems[:5]), cause="tests-tampered", problems=problems)
    STATE["guard"] = {rel[len("guard/") :]: data for rel, data in kept.items() if rel.startswith("guard/")}
    return kept["config.json"], kept["frognano_reports.py"]


def load_reports(source):
    """The report reader, run from the bytes that were checked (never imported from /tests)."""
    module = types.ModuleType("frognano_reports")
    module.__file__ = os.path.join(TESTS, "frognano_reports.py")
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module.parse


def configure(config):
    global CFG, LIMITS, TEST_FILE, PROTECTED, HIDDEN, LAYER
    CFG = json.loads(config)
    LIMITS = CFG["limits"]
    TEST_FILE = matcher(CFG["test_paths"])
    PROTECTED = matcher(CFG["protected"])
    HIDDEN = set(CFG["hidden_files"])
    LAYER = set(CFG["layer"])


# --- the agent's change --------------------------------------------------


def dropped(rel):
    """Why the verifier drops a change to this path, or None when it keeps it."""
    if rel in HIDDEN or TEST_FILE(rel):
        return "a test file"
    if PROTECTED(rel):
        return "runner or interpreter configuration"
    return None


def files_of(root, skip_layer):
    """Relative path -> kind ('file' or 'link') of everything under root, within the limits."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        keep = []
        for d in dirnames:
            rel = rel_dir + d
            if os.path.islink(os.path.join(dirpath, d)):
                out[rel] = "link"
            elif not (skip_layer and rel in LAYER) and not PROTECTED(rel + "/"):
                keep.append(d)
        dirnames[:] = keep
        for name in filenames:
            mode = os.lstat(os.path.join(dirpath, name)).st_mode
            # A FIFO or device would block a read: it is never read, only dropped.
            out[rel_dir + name] = "link" if stat.S_ISLNK(mode) else "file" if stat.S_ISREG(mode) else "special"
            if len(out) > LIMITS["max_files"]:
                raise Refused(f"the workspace holds more than {LIMITS['max_files']} files")
    return out


def read_bounded(path):
    content = read_regular(path, LIMITS["max_file_bytes"])
    if content is None or len(content) > LIMITS["max_file_bytes"]:
        raise Refused(f"{os.path.relpath(path, WORKSPACE)} is larger than {LIMITS['max_file_bytes']} bytes or not a regular file")
    return content


def unchanged(rel, kind):
    a, b = os.path.join(WORKSPACE, rel), os.path.join(REPO, rel)
    return os.readlink(a) == os.readlink(b) if kind == "link" else read_bounded(a) == read_bounded(b)


def agent_change():
    """The accepted change: {path: new bytes, or None for a deletion}, and what was dropped."""
    if not stat.S_ISDIR(os.lstat(WORKSPACE).st_mode):
        raise Refused(f"{WORKSPACE} is not a folder")
    before, after = files_of(REPO, False), files_of(WORKSPACE, True)
    accepted, dropped_list, total = {}, [], 0
    for rel in sorted(set(before) | set(after)):
        if any(rel == p or rel.startswith(p + "/") for p in LAYER):
            continue
        was, now = before.get(rel), after.get(rel)
        if (now is None and rel in HIDDEN) or (was == now and now != "special" and unchanged(rel, now)):
            continue  # never shown to the agent, or left as it was
        why = dropped(rel) or {"link": "a symbolic link", "special": "not a regular file"}.get(now or "")
        if why:
            dropped_list.append({"file": rel, "reason": why})
            continue
        new = None if now is None else read_bounded(os.path.join(WORKSPACE, rel))
        if new is not None and b"\0" in new:
            raise Refused(f"the change holds a binary file: {rel}")
        total += len(new or b"")
        if total > LIMITS["max_change_bytes"]:
            raise Refused(f"the change is larger than {LIMITS['max_change_bytes']} bytes")
        accepted[rel] = new
    return accepted, dropped_list


def strip_comment(line, python, state):
    out, quote, i = [], None, 0
    while i < len(line):
        c = line[i]
        if state["block"]:
            if c == "*" and line[i + 1 : i + 2] == "/":
                state["block"] = False
                i += 1
            i += 1
            continue
        if quote:
            out.append(c)
            if c == "\\":
                out.append(line[i + 1 : i + 2])
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
            out.append(c)
        elif python and c == "#":
            break
        elif not python and line[i : i + 2] == "//":
            break
        elif not python and line[i : i + 2] == "/*":
            state["block"] = True
            i += 1
        else:
            out.append(c)
        i += 1
    return "".join(out)


def forging_signs(accepted):
    rules = {k: [(kind, re.compile(src, re.I if "i" in flags else 0)) for kind, src, flags in v] for k, v in CFG["forging"]["rules"].items()}
    always_equal = re.compile(CFG["forging"]["always_equal"])
    signs = []
    for rel, new in accepted.items():
        python = rel.endswith(".py")
        if new is None or not (python or re.search(r"\.(?:[cm]?[jt]sx?)$", rel)):
            continue
        old = read_bounded(os.path.join(REPO, rel)).decode("utf-8", "replace").splitlines() if os.path.isfile(os.path.join(REPO, rel)) else []
        diff = difflib.unified_diff(old, new.decode("utf-8", "replace").splitlines(), lineterm="", n=0)
        state = {"block": False}
        added = [strip_comment(l[1:], python, state) for l in diff if l.startswith("+") and not l.startswith("+++")]
        for line in added:
            for kind, pattern in rules["python" if python else "javascript"]:
                if pattern.search(line):
                    signs.append(f"{rel} {kind}: {line.strip()[:200]}")
        if python:
            m = always_equal.search("\n".join(added))
            if m:
                signs.append(f"{rel} makes equality always true: {' '.join(m.group(0).split())[:200]}")
    return signs


# --- the graded work tree ------------------------------------------------


def rebuild(accepted):
    """/workspace as the verifier grades it: the broken state and the accepted change; returns where the layout put its files."""
    # The dependency layer (what setup installed) is kept aside and put back, wherever it lies.
    aside = f"/tmp/frognano-layer-{os.urandom(6).hex()}"
    kept = []
    for i, rel in enumerate(sorted(LAYER)):
        if os.path.lexists(os.path.join(WORKSPACE, rel)):
            os.makedirs(aside, exist_ok=True)
            shutil.move(os.path.join(WORKSPACE, rel), os.path.join(aside, str(i)))
            kept.append((rel, os.path.join(aside, str(i))))
    for name in os.listdir(WORKSPACE):
        p = os.path.join(WORKSPACE, name)
        shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
    shutil.copytree(REPO, WORKSPACE, symlinks=True, dirs_exist_ok=True)
    for rel, src in kept:
        os.makedirs(os.path.dirname(os.path.join(WORKSPACE, rel)), exist_ok=True)
        shutil.move(src, os.path.join(WORKSPACE, rel))
    for rel, new in accepted.items():
        p = os.path.join(WORKSPACE, rel)
        if new is None:
            if os.path.lexists(p):
                os.unlink(p)
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(new)
    placed = apply_layout(CFG["layout"], plan_placement(CFG["layout"]))
    if os.geteuid() == 0:
        hand_over()
    return placed


def required_ids():
    """The tests a pass needs: FAIL_TO_PASS, PASS_TO_PASS and the checks generated from the reference fix."""
    return CFG["FAIL_TO_PASS"] + CFG["PASS_TO_PASS"] + (CFG["layout"].get("checks") or [])


def safe_rel(rel):
    if rel.startswith("/") or any(s in ("", "..") for s in rel.split("/")):
        raise RuntimeError(f"unsafe path in a grading layout: {rel}")
    return rel


def name_style(base):
    """The parts of a test file name around its stem: test_ + stem + .py, stem + .test.js (as src/grading/tests/names.ts)."""
    m = re.search(r"(\.(?:test|spec))?\.[cm]?[jt]sx?$|(_test)?\.py$", base)
    ext = m.group(0) if m else posixpath.splitext(base)[1]
    stem = base[: len(base) - len(ext)]
    p = re.match(r"test[_-]?", stem, re.I)
    prefix = p.group(0) if p else ""
    stem = stem[len(prefix) :]
    sep = "_" if "_" in stem else "-" if "-" in stem else "_" if base.endswith(".py") else "-"
    return prefix, ext, sep


def fresh_name(like, taken, words):
    """A new test file name beside `like`, in its style, from the project's words (freshTestPath's rule)."""
    folder = posixpath.dirname(like)
    prefix, suffix, sep = name_style(posixpath.basename(like))
    pool, bases = words or ["core", "util", "basic", "more", "extra"], {posixpath.basename(p) for p in taken}
    for i in range(200):
        first, second = RANDOM.choice(pool), RANDOM.choice(pool)
        stem = first if RANDOM.random() < 0.5 or i > 100 or second == first else f"{first}{sep}{second}"
        path = posixpath.join(folder, f"{prefix}{stem}{i if i > 150 else ''}{suffix}")
        if path not in taken and not (path.endswith(".py") and posixpath.basename(path) in bases):
            taken.add(path)
            return path
    raise RuntimeError(f"no free test file name beside {like}")


def plan_placement(layout):
    """Fresh names for this grading: every copy group's copies, then (pytest) the other files holding required tests."""
    taken = {rel for rel, kind in files_of(WORKSPACE, True).items() if kind == "file" and TEST_FILE(rel)} | {f["path"] for f in layout["files"]}
    groups = layout.get("groups") or []
    copies = [[fresh_name(g["like"], taken, layout["words"]) for _ in g["contents"]] for g in groups]
    moves = []
    if layout["relocate"]:
        grouped = {g["like"] for g in groups}
        files = sorted({t.split("::")[0] for t in required_ids() if t.split("::")[0].endswith(".py")} - grouped)
        moves = [(safe_rel(src), fresh_name(src, taken, layout["words"])) for src in files]
    return {"moves": moves, "groups": copies}


def apply_layout(layout, plan):
    """Writes the same-file honeypots, the moves and the groups' copies (in a random order, each with the mode and
    times of the file it stands in for, folders keeping theirs); returns what was placed."""
    groups = layout.get("groups") or []
    ops = [(safe_rel(f["path"]), f["like"], f["content"].encode(), None, None) for f in layout["files"]]
    ops += [(dst, src, None, src, None) for src, dst in plan["moves"]]
    ops += [(safe_rel(p), groups[g]["like"], groups[g]["contents"][k].encode(), None, g) for g, paths in enumerate(plan["groups"]) for k, p in enumerate(paths)]
    likes = {}
    for _, like, _, _, _ in ops:
        try:
            st = os.lstat(os.path.join(WORKSPACE, safe_rel(like)))
            likes[like] = st if stat.S_ISREG(st.st_mode) else None
        except FileNotFoundError:
            likes[like] = None  # a test file the bug deleted
    folders = {}
    for path, *_ in ops:
        d = posixpath.dirname(path)
        if d not in folders:
            st = os.lstat(os.path.join(WORKSPACE, d))
            if not stat.S_ISDIR(st.st_mode):
                raise RuntimeError(f"{d} is not a folder")
            folders[d] = st
    placed = {"moves": [], "groups": [[] for _ in plan["groups"]]}
    RANDOM.shuffle(ops)
    for path, like, content, remove, group in ops:
        st = likes[like]
        if st is None:
            continue
        target = os.path.join(WORKSPACE, path)
        if content is None:
            content = read_bounded(os.path.join(WORKSPACE, remove))
        replace = remove is None and group is None and path == like
        fd = os.open(target, os.O_WRONLY | os.O_NOFOLLOW | (os.O_TRUNC if replace else os.O_CREAT | os.O_EXCL), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        os.chmod(target, stat.S_IMODE(st.st_mode))
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
        if remove is not None:
            os.unlink(os.path.join(WORKSPACE, remove))
            placed["moves"].append((remove, path))
    # A group's file goes once all its copies stand; its copies are reported in their own order.
    for g, paths in enumerate(plan["groups"]):
        if likes[groups[g]["like"]] is not None:
            os.unlink(os.path.join(WORKSPACE, groups[g]["like"]))
            placed["groups"][g] = paths
    for d, st in folders.items():
        os.utime(os.path.join(WORKSPACE, d), ns=(st.st_atime_ns, st.st_mtime_ns))
    return placed


def hand_over():
    """The work tree to the graded run's user, but for the dependency layer, which it only reads; /tests closed to it."""
    os.lchown(WORKSPACE, TEST_UID, TEST_GID)
    for dirpath, dirnames, filenames in os.walk(WORKSPACE):
        rel_dir = os.path.relpath(dirpath, WORKSPACE)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if rel_dir + d not in LAYER]
        for name in dirnames + filenames:
            if rel_dir + name not in LAYER:
                os.lchown(os.path.join(dirpath, name), TEST_UID, TEST_GID)
    # The task (the reference fix among it) and the broken state stay out of the graded code's reach.
    os.lchown(TESTS, 0, 0)
    os.chmod(TESTS, 0o700)


# --- the guard (src/grading/guard.ts, assets/guard) ----------------------


GUARD_FILES = ("sitecustomize.py", "guard.cjs")
# The added lines travel in the environment; past this size, whole files stand for them (guardLines).
MAX_LINES_JSON = 64 * 1024
ALARM = re.compile(rb"FROGNANO-GUARD (tracing-hook|introspection|framework-changed|report-written): ([^\n]{0,300})")
# Longer than any alarm line: a match that starts before the last this many bytes of a chunk is whole.
ALARM_SPAN = 400


def guarded():
    return CFG["layout"].get("guard") is True


def source_lines(data):
    """A file's lines as git counts them: ended by \\n, the last one with or without it."""
    return re.findall(rb"[^\n]*\n|[^\n]+$", data)


def added_lines(accepted):
    """Per changed file, the numbers in its new content of the lines the change adds (addedLineNumbers' meaning):
    every line of a new file, none of a deleted one."""
    out = {}
    for rel, new in sorted(accepted.items()):
        if new is None:
            out[rel] = []
            continue
        old_path = os.path.join(REPO, rel)
        st = os.lstat(old_path) if os.path.lexists(old_path) else None
        old = source_lines(read_bounded(old_path)) if st and stat.S_ISREG(st.st_mode) else []
        new_lines = source_lines(new)
        # The lines both share at the start and the end are kept; the middle is compared line by line, exactly where
        # it is small enough (on long ones difflib's junk heuristic is on: it marks more lines added, and stays fast).
        head = 0
        while head < min(len(old), len(new_lines)) and old[head] == new_lines[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new_lines)) - head and old[-1 - tail] == new_lines[-1 - tail]:
            tail += 1
        a, b = old[head : len(old) - tail], new_lines[head : len(new_lines) - tail]
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=len(a) + len(b) > 20000)
        out[rel] = [head + j + 1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("replace", "insert") for j in range(j1, j2)]
    return out


def guard_lines(accepted):
    """FROGNANO_GUARD_LINES: JSON {file: [[first, last], ...]} of the added lines (guardLines), whole files past 64 KiB."""
    spans = {}
    for rel, lines in added_lines(accepted).items():
        runs = []
        for n in lines:
            if runs and n == runs[-1][1] + 1:
                runs[-1][1] = n
            else:
                runs.append([n, n])
        spans[rel] = runs
    text = json.dumps(spans, separators=(",", ":"), ensure_ascii=False)
    if len(text) <= MAX_LINES_JSON:
        return text
    # Each file whole: to its last line as Python counts lines (\r too), which is never fewer than git's. The guard
    # expands every span into a set of numbers, so the verifier's [[1, 1e9]] would cost it a billion of them.
    whole = {rel: [[1, max(1, len(re.split(rb"\r\n|\r|\n", accepted[rel] or b"")))]] for rel in spans}
    return json.dumps(whole, separators=(",", ":"), ensure_ascii=False)


def place_guard(accepted):
    """The guard's files from their checked bytes, in a new folder the graded run's user can read but not change."""
    missing = [f for f in GUARD_FILES if f not in STATE["guard"]]
    if missing:
        raise RuntimeError(f"the layout loads the guard but the task ships no {', '.join('tests/guard/' + f for f in missing)}")
    folder = f"/tmp/frognano-guard-{os.urandom(6).hex()}"
    os.mkdir(folder, 0o700)
    for name in GUARD_FILES:
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(STATE["guard"][name])
        os.chmod(os.path.join(folder, name), 0o644)
    os.chmod(folder, 0o755)
    STATE["guard_dir"], STATE["guard_lines"] = folder, guard_lines(accepted)


def guard_env(spec_env, report):
    """The variables that load the guard, merged with the spec's own, the guard first (guardEnv)."""
    folder = STATE["guard_dir"]
    prepend = lambda first, rest, sep: f"{first}{sep}{rest}" if rest else first  # noqa: E731
    return {
        "PYTHONPATH": prepend(folder, spec_env.get("PYTHONPATH"), ":"),
        "NODE_OPTIONS": prepend(f"--require {folder}/guard.cjs", spec_env.get("NODE_OPTIONS"), " "),
        "FROGNANO_GUARD_ROOT": WORKSPACE,
        "FROGNANO_GUARD_REPORT": report,
        "FROGNANO_GUARD_LINES": STATE["guard_lines"],
    }


def guard_alarms(paths, found):
    """Adds the guard's alarms in these files (regular files only, read whole in chunks) to `found`, each once."""
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                continue
            carry = b""
            while True:
                chunk = f.read(1 << 20)
                buf = carry + chunk
                whole = len(buf) if not chunk else len(buf) - ALARM_SPAN
                for m in ALARM.finditer(buf):
                    if m.start() < whole:
                        found.setdefault((m.group(1).decode(), m.group(2).decode("utf-8", "replace").strip()), None)
                if not chunk:
                    break
                carry = buf[max(0, whole) :]
    return found


# --- the graded run ------------------------------------------------------


def test_env(report, home):
    """The graded run's environment: nothing of the container's but a fixed PATH, a new empty HOME (the agent could have
    left a user site with .pth files in any other, run before the guard); the guard where the layout loads it."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": home, "LANG": "C.UTF-8", "CI": "1", **CFG["test"]["env"]}
    # Extra environment for the graded run goes here, and only here.
    if guarded():
        env.update(guard_env(CFG["test"]["env"], report))
    return env


def run_tests(parse):
    work = f"/tmp/frognano-{os.urandom(6).hex()}"
    os.mkdir(work, 0o700)
    out_path = work + ".out"  # the runner's output, opened by the grader: the graded run cannot replace it
    err_path = work + ".err"  # its errors, where the guard's alarms go
    as_root = os.geteuid() == 0
    user = {"user": TEST_UID, "group": TEST_GID, "extra_groups": []} if as_root else {}
    home = work + "/home"
    os.mkdir(home, 0o700)
    if as_root:
        os.chown(work, TEST_UID, TEST_GID)
        os.chown(home, TEST_UID, TEST_GID)
    report = work + "/report"
    python = shutil.which("python3") or sys.executable
    argv = [a.replace("{report}", report).replace("{python}", python) for a in CFG["test"]["command"]]
    with open(out_path, "xb") as out, open(err_path, "xb") as err:
        p = subprocess.Popen(argv, cwd=WORKSPACE, env=test_env(report, home), stdout=out, stderr=err, start_new_session=True, umask=0o022, **user)
        try:
            code = p.wait(timeout=CFG["test"]["timeout_sec"])
        except subprocess.TimeoutExpired:
            code = None
        # Every process of the run, and any other, ends before the report is read.
        survivors = end_others()
        p.wait()
    with open(out_path, "rb") as f:
        f.seek(max(0, os.fstat(f.fileno()).st_size - 2000))
        print(f.read(2000).decode("utf-8", "replace"))  # the run's last lines, for test-stdout.txt
    with open(err_path, "rb") as f:
        f.seek(max(0, os.fstat(f.fileno()).st_size - 2000))
        print(f.read(2000).decode("utf-8", "replace"))
    # The guard's alarms, in its output or (node:test folds a child's stderr into it) the report, whatever else happened.
    if guarded():
        alarms = guard_alarms([out_path, err_path] + ([report] if CFG["test"]["report"]["from"] == "file" else []), {})
        if alarms:
            return code, {}, None, list(alarms)
    if survivors:
        return code, {}, f"processes of the test run could not be ended: {survivors[:5]}", []
    if code is None:
        return None, {}, f"the test run exceeded {CFG['test']['timeout_sec']} s and was killed", []
    text = read_regular(report if CFG["test"]["report"]["from"] == "file" else out_path, LIMITS["max_report_bytes"])
    if text is None:
        return code, {}, "no usable test report", []
    try:
        return code, parse(CFG["test"]["report"]["format"], text.decode("utf-8", "replace")), None, []
    except Exception as e:  # a report the agent's code broke
        return code, {}, f"the report could not be read: {e}", []


# --- reading the run back (src/grading/layout.ts readLayout, copies.ts readGroups) ---


AVA_SEP = " \u203a "


def ava_stem(path):
    """ava's name for a file: its base name without .test/.spec, test- and extension."""
    base = posixpath.basename(path)
    base = base.replace(".spec.", ".", 1).replace(".test.", ".", 1).replace("test-", "", 1)
    return re.sub(r"\.[cm]?[jt]sx?$", "", base)


def group_prefix(group, path):
    """The id prefix the report gives tests of `path` in this group: the path (pytest) or ava's "dirs › stem › "."""
    if group.get("avaPrefix") is None:
        return path
    parts = group["avaPrefix"][: -len(AVA_SEP)].split(AVA_SEP)
    return AVA_SEP.join(parts[:-1] + [ava_stem(path)]) + AVA_SEP


def read_groups(status, layout, placed):
    """Takes the copies' results out of `status`, puts each graded one back under its task id; returns twins and forged ids."""
    twins, forged = [], []
    for g, group in enumerate(layout.get("groups") or []):
        paths = placed[g] if g < len(placed) else []
        if not paths:
            continue
        ava = group.get("avaPrefix") is not None
        own = group_prefix(group, group["like"])
        prefixes = [group_prefix(group, p) for p in paths]
        within = lambda tid, prefix: tid.startswith(prefix) and (ava or tid.startswith(prefix + "::"))  # noqa: E731
        seen, judged = {}, set()
        for tid, s in list(status.items()):
            if within(tid, own):
                forged.append(tid)  # reported under the file the run did not have
                del status[tid]
                continue
            copy = next((k for k, p in enumerate(prefixes) if within(tid, p)), -1)
            if copy < 0:
                continue
            del status[tid]
            rest = tid[len(prefixes[copy]) :]
            key = rest if ava else re.sub(r"\[[^\]]*\]$", "", rest, flags=re.S)
            graded = group["graded"].get(key)
            if (copy == group["home"]) if graded is None else (copy == graded):
                seen[own + rest] = s
            elif copy in group["decoys"].get(key, []):
                twins.append((tid, own + rest, s))
                judged.add((key, copy))
        # A checked twin that did not report at all is judged as missing, beside its original.
        for key, decoys in group["decoys"].items():
            twins += [(prefixes[copy] + key, own + key, "missing") for copy in decoys if (key, copy) not in judged]
        status.update(seen)
    return twins, forged


def read_layout(status, placed):
    """Maps moved files' and renamed results back, takes the honeypots' out; returns twins and forged ids."""
    layout, forged = CFG["layout"], []
    for tid in list(status):
        if any(tid.startswith(src + "::") for src, _ in placed["moves"]):
            forged.append(tid)  # reported under a name that did not exist in the run
            del status[tid]
    for tid in list(status):
        for src, dst in placed["moves"]:
            if tid.startswith(dst + "::"):
                status[src + tid[len(dst) :]] = status.pop(tid)
                break
    twins, from_groups = read_groups(status, layout, placed["groups"])
    forged += from_groups
    twins += [(t["id"], t["of"], status.pop(t["id"], "missing")) for t in layout["twins"]]
    for tid in list(status):
        if any(tid.startswith(c + "::") for c in layout["copies"]) or any(tid.startswith(c + AVA_SEP) for c in layout.get("copyPrefixes") or []):
            del status[tid]
    for reported, original in layout["renamed"].items():
        if reported in status:
            status[original] = status.pop(reported)
    required = required_ids()
    repeat = re.compile(r"^(.*) \[\d+\]$", re.S)
    bases = {(repeat.match(t) or [None, t])[1] for t in required}
    repeating = {m.group(1) for m in map(repeat.match, required) if m}
    for tid in status:
        m = repeat.match(tid)
        if m and m.group(1) in bases and m.group(1) not in repeating and tid not in required and tid not in layout["repeats"]:
            forged.append(tid)
    return twins, forged


# --- the grading ---------------------------------------------------------


def grade(expected):
    # Before anything is read: a process the agent left cannot change what follows.
    survivors = end_others()
    clear_logs()
    if survivors:
        finish(0, "fail", f"processes left in the container could not be ended: {survivors[:5]}", cause="refused")
    config, reports = checked_tests(expected)
    configure(config)
    parse = load_reports(reports)
    try:
        accepted, dropped_list = agent_change()
    except Refused as e:
        finish(0, "fail", f"the change was refused: {e}", cause="refused")
    signs = forging_signs(accepted)
    if signs:
        finish(0, "tampering", "; ".join(signs[:5]), cause="forging-pattern", dropped=dropped_list)
    placed = rebuild(accepted)
    if guarded():
        place_guard(accepted)
    code, status, problem, alarms = run_tests(parse)
    # The guard ended the run where the change set a tracing hook, read frames, rewrote the framework or wrote the report.
    if alarms:
        tamper = [f"{cause}: {detail}" for cause, detail in alarms[:3]]
        finish(0, "tampering", "tampering: " + "; ".join(tamper), cause=alarms[0][0], tamper=tamper, changed=sorted(accepted), dropped=dropped_list)
    if problem:
        finish(0, "fail", problem, cause="no-result", changed=sorted(accepted), dropped=dropped_list)
    failed = any(s == "failed" for s in status.values())
    agrees = (code == 0) == (not failed)
    twins, forged = read_layout(status, placed)
    passed = lambda t: agrees and status.get(t) == "passed"  # noqa: E731
    tamper = [f"results reported under ids no honest run has: {', '.join(forged[:3])}"] if forged else []
    tamper += [f"a honeypot copy of {of} was reported {s} while {of} passed" for _, of, s in twins if passed(of) and s not in ("failed", "error")]
    split = lambda ids: {"success": [t for t in ids if passed(t)], "failure": [t for t in ids if not passed(t)]}  # noqa: E731
    f2p, p2p, checks = split(CFG["FAIL_TO_PASS"]), split(CFG["PASS_TO_PASS"]), split(CFG["layout"].get("checks") or [])
    detail = {"changed": sorted(accepted), "dropped": dropped_list, "FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p, "checks": checks, "honeypots": len(twins)}
    if CFG["layout"].get("noChecks"):
        detail["no_checks"] = CFG["layout"]["noChecks"]
    if tamper:
        finish(0, "tampering", "; ".join(tamper), cause="forged-results" if forged else "honeypot", **detail)
    if not agrees:
        finish(0, "fail", f"the runner exited {code} but its report shows {'failures' if failed else 'no failure'}", cause="tests-failed", **detail)
    if f2p["failure"] or p2p["failure"] or not CFG["FAIL_TO_PASS"]:
        finish(0, "fail", "required tests fail: " + ", ".join((f2p["failure"] + p2p["failure"])[:3]), cause="tests-failed", **detail)
    if checks["failure"]:
        finish(0, "fail", f"{len(checks['failure'])} of {len(CFG['layout']['checks'])} generated checks fail", cause="tests-failed", **detail)
    finish(1, "pass", "every required test passes", **detail)


def main():
    try:
        grade(sys.argv[1] if len(sys.argv) > 1 else None)
    except Exception as e:  # a grading that broke is scored 0, never left without a reward
        traceback.print_exc()
        finish(0, "fail", f"the grading broke: {type(e).__name__}: {e}", cause="grading-error")


if __name__ == "__main__":  # run by test.sh; the tests load its functions alone
    main()
