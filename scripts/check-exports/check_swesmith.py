"""By hand (docs/exports.md): python3 check_swesmith.py EXPORT_DIR, with SWESMITH_SRC set.

 our SWE-smith export through SWE-smith v0.0.9's registry, profile
naming, eval flow (branch, HEAD~1, reversed bug patch, eval.sh between its
markers) and grading, with stubs for docker, ghapi, unidiff and swebench<5."""
import json, os, subprocess, sys, tempfile
root = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, 'stubs', 'swesmith'), os.environ['SWESMITH_SRC'], root]
from sandbox import run_in_sandbox  # noqa: E402
import frognano_profiles  # noqa: registers our profiles
from swesmith.profiles import registry
from swesmith.harness.grading import get_eval_tests_report
from swebench.harness.grading import get_resolution_status
rows = [json.loads(l) for l in open(os.path.join(root, 'instances.jsonl'))]
for row in rows:
    rp = registry.get_from_inst(row)
    rp2 = registry.get_from_inst({'instance_id': row['instance_id']})
    assert rp is rp2, 'the same profile by repo and by instance id'
    names_ok = rp.image_name == row['image_name'] and rp.repo_name == row['repo']
    f2p_files, p2p_files = rp.get_test_files(row)
    for label, gold in [('gold', True), ('none', False)]:
        tb = os.path.join(tempfile.mkdtemp(), 'testbed')
        key = [d for d in os.listdir(os.path.join(root, 'repos')) if d.startswith(row['repo'].split('__', 1)[1].split('.')[0] + '-')][0]
        subprocess.run(['git', 'clone', '-q', os.path.join(root, 'repos', key), tb], check=True)
        subprocess.run(['git', 'checkout', '-q', row['instance_id']], cwd=tb, check=True)
        subprocess.run(['git', 'checkout', '-q', 'HEAD~1'], cwd=tb, check=True)
        if gold:
            subprocess.run(['git', 'apply', '--reverse', '-'], cwd=tb, input=row['patch'], text=True, check=True)
        cmd, _ = rp.get_test_cmd(row)
        ev = tempfile.mkdtemp()
        open(os.path.join(ev, 'eval.sh'), 'w').write("#!/bin/bash\nset -uxo pipefail\ncd /testbed\n: '>>>>> Start Test Output'\n" + cmd + "\n: '>>>>> End Test Output'\n")
        log = run_in_sandbox({tb: '/testbed', ev: '/eval'}, '/eval/eval.sh')
        a, b = log.find("+ : '>>>>> Start Test Output'"), log.find("+ : '>>>>> End Test Output'")
        status = rp.log_parser(log[a:b])
        rep = get_eval_tests_report(status, {'FAIL_TO_PASS': row['FAIL_TO_PASS'], 'PASS_TO_PASS': row['PASS_TO_PASS']})
        print(f"{row['instance_id']:52s} names {'ok' if names_ok else 'DIFFER'} {label:4s} {get_resolution_status(rep)} F2P {len(rep['FAIL_TO_PASS']['success'])}/{len(row['FAIL_TO_PASS'])} P2P {len(rep['PASS_TO_PASS']['success'])}/{len(row['PASS_TO_PASS'])} test files {len(f2p_files)}+{len(p2p_files)}")
