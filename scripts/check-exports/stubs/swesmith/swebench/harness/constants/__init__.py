# values as in swebench v4.1.0 swebench/harness/constants/__init__.py
from enum import Enum
from pathlib import Path
class ResolvedStatus(Enum):
    NO = "RESOLVED_NO"; PARTIAL = "RESOLVED_PARTIAL"; FULL = "RESOLVED_FULL"
class TestStatus(Enum):
    FAILED = "FAILED"; PASSED = "PASSED"; SKIPPED = "SKIPPED"; ERROR = "ERROR"; XFAIL = "XFAIL"
RUN_EVALUATION_LOG_DIR = Path("logs/run_evaluation")
FAIL_TO_PASS = "FAIL_TO_PASS"; FAIL_TO_FAIL = "FAIL_TO_FAIL"
PASS_TO_PASS = "PASS_TO_PASS"; PASS_TO_FAIL = "PASS_TO_FAIL"
LOG_REPORT = "report.json"; LOG_INSTANCE = "run_instance.log"; LOG_TEST_OUTPUT = "test_output.txt"
APPLY_PATCH_FAIL = ">>>>> Patch Apply Failed"; APPLY_PATCH_PASS = ">>>>> Applied Patch"
TESTS_TIMEOUT = ">>>>> Tests Timed Out"
KEY_INSTANCE_ID = "instance_id"; KEY_MODEL = "model_name_or_path"; KEY_PREDICTION = "model_patch"
DOCKER_PATCH = "/tmp/patch.diff"; DOCKER_USER = "root"; DOCKER_WORKDIR = "/testbed"; UTF8 = "utf-8"
