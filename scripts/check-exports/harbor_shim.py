"""Shim to import Harbor's pydantic models (and the mini-swe-agent converter)
from a plain git-archive extract on Python 3.11 with only pydantic 2 installed.
Nothing from Harbor is copied here; modules are stubbed in sys.modules."""
import logging, os, sys, types, typing

HARBOR_SRC = os.path.join(os.environ["HARBOR_SRC"], "src")

def install(with_converter: bool = False):
    if HARBOR_SRC not in sys.path:
        sys.path.insert(0, HARBOR_SRC)
    # harbor/__init__.py calls importlib.metadata.version("harbor") -> PackageNotFoundError
    if "harbor" not in sys.modules:
        pkg = types.ModuleType("harbor"); pkg.__path__ = [HARBOR_SRC + "/harbor"]
        sys.modules["harbor"] = pkg
    # harbor/models/task/config.py does `import toml` (only used by model_dump_toml)
    sys.modules.setdefault("toml", types.ModuleType("toml"))
    if not with_converter:
        return
    # mini_swe_agent.py: `from typing import override` is 3.12+
    if not hasattr(typing, "override"):
        typing.override = lambda f: f
    def stub(name, **attrs):
        m = types.ModuleType(name); m.__dict__.update(attrs); sys.modules[name] = m
    class _Dummy:
        def __init__(self, *a, **k): pass
    stub("harbor.agents", __path__=[])
    stub("harbor.agents.installed", __path__=[HARBOR_SRC + "/harbor/agents/installed"])
    stub("harbor.agents.installed.base", BaseInstalledAgent=_Dummy, CliFlag=_Dummy,
         with_prompt_template=lambda f: f)
    stub("harbor.agents.utils", get_api_key_var_names_from_model_name=lambda m: [])
    stub("harbor.environments", __path__=[])
    stub("harbor.environments.base", BaseEnvironment=_Dummy)
    stub("harbor.models.agent", __path__=[])
    stub("harbor.models.agent.context", AgentContext=_Dummy)
    stub("harbor.models.agent.name", AgentName=types.SimpleNamespace(
        MINI_SWE_AGENT=types.SimpleNamespace(value="mini-swe-agent")))
    stub("harbor.utils.logger", logger=logging.getLogger("harbor"))
