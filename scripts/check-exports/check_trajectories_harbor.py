"""By hand (docs/exports.md): python3 check_trajectories_harbor.py FILE.atif.json FILE.traj.json ..., with HARBOR_SRC set:
Harbor's TrajectoryValidator on ATIF files, its mini-swe-agent converter on mini files."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harbor_shim; harbor_shim.install(with_converter=True)
from harbor.utils.trajectory_validator import TrajectoryValidator
from harbor.agents.installed.mini_swe_agent import convert_mini_swe_agent_to_atif
for f in sys.argv[1:]:
    if f.endswith('.atif.json'):
        v = TrajectoryValidator(); ok = v.validate(f)
        print(f, 'ATIF valid' if ok else f'ATIF INVALID {v.errors}')
    else:
        traj = json.load(open(f))
        a = convert_mini_swe_agent_to_atif(traj, 's1')
        steps = a.steps
        print(f, 'converted:', [(s.source, len(s.tool_calls or []), len(s.observation.results) if s.observation else 0) for s in steps])
        print('  metrics', [s.metrics.prompt_tokens if s.metrics else None for s in steps], 'tool ids', [[c.tool_call_id for c in (s.tool_calls or [])] for s in steps])
