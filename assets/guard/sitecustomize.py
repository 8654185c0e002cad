"""FrogNano's guard for graded test runs (Python): loaded at interpreter start,
before any code of the change, through PYTHONPATH.

It adds an audit hook, which nothing in the process can remove, and records
the test framework's entry points (every function and class of pytest,
pluggy and unittest, and their classes' methods) once the framework is
imported, which it does now. During the run the hook ends the process, after
one line `FROGNANO-GUARD <cause>: <detail>` on the stderr it had at start, when:
- a tracing or profiling hook is set (sys.settrace, sys.setprofile): tracing-hook;
- frames or the garbage collector's object lists are read from a line the
  change added (sys._getframe, sys._current_frames, gc.get_objects,
  gc.get_referrers, gc.get_referents; through inspect or traceback too):
  introspection;
- a framework function's code or a framework class is rewritten (audited
  special attributes), or, checked whenever a file is opened for writing,
  any recorded entry point differs: framework-changed;
- the report file is opened for writing from a line the change added: report-written.
Settings come from the environment the verifier sets: FROGNANO_GUARD_ROOT (the
workspace as the run sees it), FROGNANO_GUARD_LINES (JSON: file -> [[first,
last], ...] of the lines the change added) and FROGNANO_GUARD_REPORT.
"""


def _frognano_guard():
    import json
    import os
    import sys
    import sysconfig

    try:
        out = os.dup(2)
    except OSError:
        out = None
    root = os.environ.get("FROGNANO_GUARD_ROOT", "")
    report = os.environ.get("FROGNANO_GUARD_REPORT", "")
    try:
        spans = json.loads(os.environ.get("FROGNANO_GUARD_LINES") or "{}")
    except ValueError:
        spans = {}
    # Spans, searched by bisection: a file may stand whole as one span of any length.
    import bisect

    added = {}
    for rel, ranges in spans.items() if isinstance(spans, dict) else []:
        try:
            pairs = sorted((int(first), int(last)) for first, last in ranges)
        except (TypeError, ValueError):
            continue
        added[os.path.normpath(os.path.join(root, rel))] = ([p[0] for p in pairs], [p[1] for p in pairs])

    def is_added(path, line):
        spans_of = added.get(os.path.normpath(path))
        if not spans_of:
            return False
        k = bisect.bisect_right(spans_of[0], line) - 1
        return k >= 0 and line <= spans_of[1][k]

    paths = sysconfig.get_paths()
    stdlib = tuple({os.path.join(os.path.realpath(paths[k]), "") for k in ("stdlib", "platstdlib")})
    installed = tuple({os.path.join(os.path.realpath(paths[k]), "") for k in ("purelib", "platlib")})

    def in_stdlib(path):
        return path.startswith(stdlib) and not path.startswith(installed)

    here = os.path.join(os.path.dirname(os.path.realpath(__file__)), "")
    frames_only = tuple(os.path.join(p, m) for p in stdlib for m in ("inspect.py", "traceback.py"))
    framework = ("_pytest", "pytest", "pluggy", "unittest", "builtins")

    argv = " ".join(getattr(sys, "orig_argv", []))
    if "pytest" in argv:
        try:
            import pkgutil

            import _pytest
            import pluggy  # noqa: F401
            import pytest  # noqa: F401

            for info in pkgutil.walk_packages(_pytest.__path__, "_pytest."):
                try:
                    __import__(info.name)
                except Exception:
                    pass
        except Exception:
            pass
    if "unittest" in argv:
        import unittest  # noqa: F401

    def ours(name):
        return isinstance(name, str) and (name in framework or name.split(".")[0] in framework)

    # Where the framework's code lies: its own later changes to itself (pytest patches a few of its classes as it configures) come from there.
    homes = {here}
    for name in ("_pytest", "pytest", "pluggy", "unittest"):
        mod = sys.modules.get(name)
        if mod is not None and getattr(mod, "__file__", None):
            homes.add(os.path.join(os.path.dirname(os.path.realpath(mod.__file__)), ""))
    homes = tuple(homes)

    def framework_code(value):
        for inner in (value, getattr(value, "__func__", None), getattr(value, "fget", None)):
            code = getattr(inner, "__code__", None)
            if code is not None:
                return os.path.realpath(code.co_filename).startswith(homes)
        return False

    entries = []
    for name, mod in list(sys.modules.items()):
        if not ours(name) or mod is None:
            continue
        space = vars(mod)
        for key, value in list(space.items()):
            if callable(value) or isinstance(value, (classmethod, staticmethod, property)):
                entries.append((space, key, value, name))
            if isinstance(value, type) and value.__module__ == name:
                for k, v in list(vars(value).items()):
                    if callable(v) or isinstance(v, (classmethod, staticmethod, property)):
                        entries.append((vars(value), k, v, f"{name}.{value.__qualname__}"))

    # Processes the run starts inherit the guard through the environment, and learn from it that they are not the runner.
    child = os.environ.get("FROGNANO_GUARD_CHILD") == "1"
    os.environ["FROGNANO_GUARD_CHILD"] = "1"
    REWRITES = {"__code__", "__defaults__", "__kwdefaults__", "__bases__", "__class__"}
    busy = [False]

    def alarm(cause, detail):
        line = f"\nFROGNANO-GUARD {cause}: {detail}\n".encode("utf-8", "replace")
        for fd in (out, 2):
            try:
                if fd is not None:
                    os.write(fd, line)
                    break
            except OSError:
                pass
        os._exit(86)

    def written_by_change(transparent):
        """The line the change added that led here, skipping frames of `transparent` files and of code run from strings."""
        frame = sys._getframe(2)
        while frame is not None:
            path = frame.f_code.co_filename
            if not path.startswith("<") and not transparent(path):
                return f"{os.path.relpath(path, root or '/')}:{frame.f_lineno}" if is_added(path, frame.f_lineno) else None
            frame = frame.f_back
        return None

    def caller():
        """The innermost frames that led to an event, for the alarm's detail."""
        frame, seen = sys._getframe(2), []
        while frame is not None and len(seen) < 4:
            seen.append(f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}")
            frame = frame.f_back
        return "from " + " < ".join(seen)

    def changed_entry():
        for space, key, value, where in entries:
            now = space.get(key, None)
            if now is not value and not framework_code(now):
                return f"{where}.{key}"
        return None

    def writing(args):
        mode, flags = (args[1] if len(args) > 1 else "r"), (args[2] if len(args) > 2 else 0)
        return (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT))

    def hook(event, args):
        if busy[0]:
            return
        busy[0] = True
        try:
            if event in ("sys.settrace", "sys.setprofile"):
                alarm("tracing-hook", event)
            elif event in ("sys._getframe", "sys._current_frames", "gc.get_objects", "gc.get_referrers", "gc.get_referents"):
                at = written_by_change(lambda p: p.startswith(frames_only))
                if at:
                    alarm("introspection", f"{event} from {at}")
            elif event in ("compile", "code.__new__") and len(args) > 1 and isinstance(args[1], (str, bytes)):
                # Code that claims to be the framework's, made after the framework loaded.
                if os.path.realpath(os.fsdecode(args[1])).startswith(homes):
                    alarm("framework-changed", f"code made under the framework's file name {os.fsdecode(args[1])} ({caller()})")
            elif event in ("object.__setattr__", "object.__delattr__") and len(args) > 1 and args[1] in REWRITES:
                target = args[0]
                if (isinstance(target, type) or callable(target)) and ours(getattr(target, "__module__", None)):
                    alarm("framework-changed", f"{getattr(target, '__qualname__', target)!s}.{args[1]} rewritten")
            elif event == "open" and args and writing(args):
                path = args[0]
                if report and isinstance(path, (str, bytes, os.PathLike)) and os.fsdecode(path) == report:
                    # Only the runner's own process writes the report, and not from a line the change added.
                    if child:
                        alarm("report-written", "the report opened for writing by a process the run started")
                    at = written_by_change(lambda p: in_stdlib(p) or p.startswith(here))
                    if at:
                        alarm("report-written", f"the report opened for writing from {at}")
                entry = changed_entry()
                if entry:
                    alarm("framework-changed", f"{entry} was replaced")
        finally:
            busy[0] = False

    sys.addaudithook(hook)


_frognano_guard()
del _frognano_guard
