"""Load SWE-bench harness pieces (v5.0.2, an extract at $SWEBENCH_SRC) without
docker/datasets/modal/tqdm/dotenv/unidiff/yaml installed.

Approach A (preferred): register `swebench.harness` (and `swebench.image_builder`)
as bare namespace packages so their heavy __init__.py files never run, and stub
only the few third-party names the leaf modules import.
"""
import sys, types, importlib, importlib.util, os

SRC = os.environ["SWEBENCH_SRC"]
if SRC not in sys.path:
    sys.path.insert(0, SRC)


def _stub(name, **attrs):
    if name in sys.modules:
        return sys.modules[name]
    try:  # real package wins when installed
        return importlib.import_module(name)
    except ImportError:
        pass
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def _bare_package(name):
    """Register package `name` without executing its __init__.py."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    pkg = types.ModuleType(name)
    pkg.__path__ = list(spec.submodule_search_locations)
    pkg.__file__ = spec.origin
    sys.modules[name] = pkg


# third-party names imported at module level by the leaf modules
class _PatchSetStub(list):
    def __init__(self, *a, **k):
        raise ImportError("unidiff not installed: swebench.utils.get_modified_files unavailable")

_stub("unidiff", PatchSet=_PatchSetStub)                 # swebench/utils.py
_stub("dotenv", load_dotenv=lambda *a, **k: None)       # swebench/harness/utils.py
_stub("tqdm", tqdm=lambda *a, **k: None)                # swebench/harness/utils.py (run_threadpool only)
def _no_hf(*a, **k):
    raise ImportError("datasets not installed: only .json/.jsonl dataset paths work")
_stub("datasets", Dataset=list, load_dataset=_no_hf, load_from_disk=_no_hf)

import swebench  # noqa: E402  (v5 __init__ is lazy, stdlib only)
_bare_package("swebench.harness")
_bare_package("swebench.image_builder")


def enable_run_evaluation():
    """Extra stubs so `swebench.harness.run_evaluation` imports (for load_instances,
    get_dataset_from_preds, etc.). Needs the real `docker` package (pip `docker`)
    only if you actually run containers; a stub is installed when it is absent."""
    if "swebench.harness.modal_eval" not in sys.modules:
        m = types.ModuleType("swebench.harness.modal_eval")
        def _no_modal(*a, **k):
            raise RuntimeError("modal not available in this shim")
        m.run_instances_modal = _no_modal
        m.validate_modal_credentials = _no_modal
        sys.modules["swebench.harness.modal_eval"] = m
    try:
        import docker  # noqa
    except ImportError:
        d = _stub("docker", DockerClient=object, from_env=lambda *a, **k: None)
        errs = _stub("docker.errors", ImageNotFound=type("ImageNotFound", (Exception,), {}),
                     NotFound=type("NotFound", (Exception,), {}),
                     APIError=type("APIError", (Exception,), {}))
        d.errors = errs
        models = _stub("docker.models"); cont = _stub("docker.models.containers", Container=object)
        models.containers = cont; d.models = models
    try:
        import yaml  # noqa
    except ImportError:
        import json as _json
        y = types.ModuleType("yaml")
        class SafeDumper:
            @classmethod
            def add_representer(cls, *a):
                pass
        y.SafeDumper, y.YAMLError = SafeDumper, ValueError
        y.safe_load = _json.loads          # only JSON-syntax YAML files can be read
        y.dump = lambda data, **k: _json.dumps(data, indent=2, sort_keys=True)
        sys.modules["yaml"] = y
