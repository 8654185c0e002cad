"""By hand (docs/exports.md): python3 check_swebench.py EXPORT_DIR [PREDICTIONS.jsonl], with SWEBENCH_SRC set.

 our SWE-bench export through swebench 5.0.2's own task-repo checker,
loader, make_test_spec, log parser and grading (shim: stubs only)."""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swebench_shim  # noqa: E402  (needs SWEBENCH_SRC)
from sandbox import run_in_sandbox  # noqa: E402
from swebench.harness.utils import make_test_spec
from swebench.harness.grading import get_eval_report, get_logs_eval
root = sys.argv[1]
# Optional: a predictions file (frognano eval --predictions), graded beside the gold patch.
preds = {p['instance_id']: p for p in map(json.loads, open(sys.argv[2]))} if len(sys.argv) > 2 else {}
try:
    swebench_shim.enable_run_evaluation()
except Exception as e:
    print('enable_run_evaluation:', e)
try:
    from swebench.task.checks import check_task_repo
    from swebench.task.repo import load_task_repo
    problems = check_task_repo(root)
    print('check_task_repo problems:', problems)
    rows = load_task_repo(root)
    print('load_task_repo rows:', len(rows), sorted(rows[0].keys()))
except Exception as e:
    print('task repo check failed:', type(e).__name__, e)
rows = [json.loads(l) for l in open(os.path.join(root, 'instances.jsonl'))]
for row in rows:
    spec = make_test_spec(row)
    cases = [('gold', row['patch']), ('empty', '')] + ([('pred', preds[row['instance_id']]['model_patch'])] if row['instance_id'] in preds else [])
    for label, patch in cases:
        tb = tempfile.mkdtemp(); testbed = os.path.join(tb, 'testbed')
        subprocess.run(['git', 'clone', '-q', os.path.join(root, 'tasks', row['instance_id'], 'repo.bundle'), testbed], check=True, capture_output=True)
        subprocess.run(['git', 'checkout', '-q', '-B', 'main', row['base_commit']], cwd=testbed, check=True, capture_output=True)
        if patch:
            subprocess.run(['git', 'apply', '--verbose', '-'], cwd=testbed, input=patch, text=True, check=True, capture_output=True)
        ev = tempfile.mkdtemp(); open(os.path.join(ev, 'eval.sh'), 'w').write(spec.eval_script)
        out = run_in_sandbox({testbed: '/testbed', ev: '/eval'}, '/eval/eval.sh')
        log = os.path.join(ev, 'test_output.txt'); open(log, 'w').write(out)
        rep = get_eval_report(spec, {'instance_id': row['instance_id'], 'model_name_or_path': 'by-hand', 'model_patch': patch or None}, log, include_tests_status=True)
        r = rep[row['instance_id']]
        ts = r.get('tests_status', {})
        print(f"{row['instance_id']:40s} {label:5s} resolved={r['resolved']} applied={r['patch_successfully_applied']} F2P ok {len(ts.get('FAIL_TO_PASS',{}).get('success',[]))}/{len(json.loads(row['FAIL_TO_PASS']))} P2P ok {len(ts.get('PASS_TO_PASS',{}).get('success',[]))}/{len(json.loads(row['PASS_TO_PASS']))}")
