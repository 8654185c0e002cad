"""By hand (docs/exports.md): python3 check_harbor_tasks.py EXPORT_DIR, with HARBOR_SRC set:
Harbor's TaskConfig and Task.is_valid_dir on each exported task."""
import os, sys, warnings
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harbor_shim; harbor_shim.install()
from harbor.models.task.config import TaskConfig
from harbor.models.task.task import Task
from pathlib import Path
root = Path(sys.argv[1])
for d in sorted(root.iterdir()):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        cfg = TaskConfig.model_validate_toml((d / 'task.toml').read_text())
        valid = Task.is_valid_dir(d)
        t = Task(d)
    print(d.name, 'valid' if valid else 'INVALID', 'name', t.name, 'network', cfg.environment.network_mode, 'workdir', cfg.environment.workdir, 'verifier timeout', cfg.verifier.timeout_sec, 'warnings', [str(x.message)[:60] for x in w])
