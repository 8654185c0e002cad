"""By hand (docs/exports.md): python3 check_mini.py FILE.traj.json ..., with MINI_SRC set:
mini-swe-agent's inspector paging our trajectory files."""
import json, os, sys
os.environ.setdefault('MSWEA_GLOBAL_CONFIG_DIR', '/tmp/mswea'); os.environ['MSWEA_SILENT_STARTUP'] = '1'
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, 'stubs', 'mini'), os.path.join(os.environ['MINI_SRC'], 'src')]
from minisweagent.run.utilities.inspector import _messages_to_steps
from minisweagent.models.utils.content_string import get_content_string
for f in sys.argv[1:]:
    d = json.load(open(f))
    steps = _messages_to_steps(d['messages'])
    print(f, 'inspector steps:', [[m.get('role') for m in s] for s in steps])
    print('  shown:', [get_content_string(m)[:40] for m in d['messages'][2:4]])
