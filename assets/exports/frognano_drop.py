#!/usr/bin/env python3
"""Drops what a prediction may not change, before an exported task's tests run.

FrogNano's verifier grades only an agent's changes to source files
(src/verifier/changes.ts): changes to tests, hidden tests, runner and
interpreter configuration (conftest.py, pytest.ini, package.json, *.pth,
dotfiles...), dependency folders and symbolic links are dropped. SWE-bench's
and SWE-smith's harnesses apply a prediction whole (git apply, else GNU
patch), so the eval script runs this first: every such path that differs
from the base commit is put back as the base has it, or removed where the
base has none.

  frognano_drop.py record WORKTREE STATE
      At image build, after setup: WORKTREE's git directory is copied to
      STATE/git and the files it does not track (what setup made, the
      dependency layer among them) are listed in STATE/untracked.json.
  frognano_drop.py drop WORKTREE STATE BASE RULES
      Before the tests: the comparison with BASE (a commit, or HEAD: the
      work tree's own) is made with STATE/git, which no patch can reach (it
      lies outside the work tree), never with the work tree's .git. RULES is
      JSON: {"tests": [regex], "runner": [regex], "hidden": [path],
      "layer": [path]}. A changed file of the dependency layer cannot be put
      back: the run is refused (exit 3, no test runs).

Standard library only; run as python3 -I -S.
"""
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys

ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "LANG": "C.UTF-8"}


def git(state, *args):
    return subprocess.run(["git", f"--git-dir={os.path.join(state, 'git')}", *args], env=ENV, cwd=state, check=True, capture_output=True).stdout


def tree(state, commit):
    """path -> (mode, blob) of a commit, submodules left out."""
    out = {}
    for entry in git(state, "ls-tree", "-r", "-z", "--full-tree", commit).split(b"\0"):
        if entry:
            meta, path = entry.split(b"\t", 1)
            mode, kind, sha = meta.decode().split()
            if kind == "blob":
                out[path.decode("utf-8", "surrogateescape")] = (mode, sha)
    return out


def walk(root):
    """path -> lstat of everything under root but its own .git, without following a link."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        if not rel_dir and ".git" in dirnames:
            dirnames.remove(".git")
        for name in list(dirnames):
            st = os.lstat(os.path.join(dirpath, name))
            if stat.S_ISLNK(st.st_mode):
                out[rel_dir + name] = st  # a link to a folder: an entry of its own, not walked
                dirnames.remove(name)
        for name in filenames:
            out[rel_dir + name] = os.lstat(os.path.join(dirpath, name))
    return out


def signature(root, rel, st):
    """What a build-time file is, as a patch applied later could not keep it: kind, size and modification time."""
    if stat.S_ISLNK(st.st_mode):
        return ["link", os.readlink(os.path.join(root, rel))]
    if stat.S_ISREG(st.st_mode):
        return ["file", st.st_size, int(st.st_mtime)]
    return ["other"]


def record(root, state):
    os.makedirs(state, exist_ok=True)
    shutil.copytree(os.path.join(root, ".git"), os.path.join(state, "git"), symlinks=True)
    tracked = tree(state, "HEAD")
    untracked = {rel: signature(root, rel, st) for rel, st in walk(root).items() if rel not in tracked}
    with open(os.path.join(state, "untracked.json"), "w", encoding="utf-8") as f:
        json.dump(untracked, f)


def head(root, state):
    """The work tree's HEAD commit, read as files (no git runs on the work tree's repository)."""
    gitdir = os.path.join(root, ".git")
    with open(os.path.join(gitdir, "HEAD"), encoding="utf-8") as f:
        ref = f.read().strip()
    if ref.startswith("ref: "):
        name = ref[5:]
        path = os.path.join(gitdir, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                ref = f.read().strip()
        else:
            with open(os.path.join(gitdir, "packed-refs"), encoding="utf-8") as f:
                ref = next(line.split()[0] for line in f if line.rstrip().endswith(" " + name))
    if not re.fullmatch(r"[0-9a-f]{40,64}", ref):
        raise ValueError(f"HEAD names no commit: {ref[:80]}")
    return ref


def blob_sha(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def same_as_base(root, rel, st, mode, sha):
    if st is None:
        return False
    if mode == "120000":
        return stat.S_ISLNK(st.st_mode) and blob_sha(os.readlink(os.path.join(root, rel)).encode("utf-8", "surrogateescape")) == sha
    if not stat.S_ISREG(st.st_mode) or bool(st.st_mode & 0o100) != (mode == "100755"):
        return False
    with open(os.path.join(root, rel), "rb") as f:
        return blob_sha(f.read()) == sha


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


def drop(root, state, base, rules):
    tests = [re.compile(r) for r in rules["tests"]]
    runner = [re.compile(r) for r in rules["runner"]]
    hidden, layer = set(rules["hidden"]), rules["layer"]
    in_layer = lambda rel: any(rel == p or rel.startswith(p + "/") for p in layer)  # noqa: E731

    def reason(rel):
        if rel in hidden or any(p.fullmatch(rel) for p in tests):
            return "a test file"
        if any(p.fullmatch(rel) for p in runner):
            return "runner or interpreter configuration"
        return None

    commit = head(root, state) if base == "HEAD" else base
    try:
        base_tree = tree(state, commit)
    except subprocess.CalledProcessError:
        print(f"frognano: {commit} is not a commit of the image's repository: the run is refused")
        sys.exit(3)
    with open(os.path.join(state, "untracked.json"), encoding="utf-8") as f:
        built = json.load(f)
    now = walk(root)
    restore, delete, refused = [], [], []
    for rel in sorted(set(now) | set(base_tree) | set(built)):
        st = now.get(rel)
        kind = None if st is None else "link" if stat.S_ISLNK(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "other"
        why = reason(rel) or ("a symbolic link" if kind == "link" or base_tree.get(rel, ("",))[0] == "120000" else "not a regular file" if kind == "other" else None)
        if rel in base_tree:
            if why and not same_as_base(root, rel, st, *base_tree[rel]):
                restore.append((rel, why))
        elif rel in built:
            if st is None or signature(root, rel, st) != built[rel]:
                if in_layer(rel):
                    refused.append(rel)
                elif why and st is not None:
                    delete.append((rel, why))
        elif st is not None and (why or in_layer(rel)):
            if in_layer(rel):
                refused.append(rel)
            else:
                delete.append((rel, why))
    if refused:
        print(f"frognano: the prediction changed the dependency layer, which cannot be put back ({', '.join(refused[:3])}): the run is refused")
        sys.exit(3)
    for rel, why in delete:
        remove(os.path.join(root, rel))
        print(f"frognano: dropped {rel} ({why}): removed")
    for rel, why in restore:
        mode, sha = base_tree[rel]
        path = os.path.join(root, rel)
        remove(path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        content = git(state, "cat-file", "blob", sha)
        if mode == "120000":
            os.symlink(content.decode("utf-8", "surrogateescape"), path)
        else:
            with open(path, "wb") as f:
                f.write(content)
            os.chmod(path, 0o755 if mode == "100755" else 0o644)
        print(f"frognano: dropped the change to {rel} ({why}): put back as {commit[:12]} has it")


if __name__ == "__main__":
    if sys.argv[1] == "record":
        record(sys.argv[2], sys.argv[3])
    else:
        drop(sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5]))
