# behaviour of swebench v4.1.0 get_resolution_status (F2P ratio==1 and P2P ratio==1 -> FULL)
from .constants import FAIL_TO_PASS, PASS_TO_PASS, ResolvedStatus
def _ratio(r, k):
    s, f = len(r[k]["success"]), len(r[k]["failure"])
    return 1 if s + f == 0 else s / (s + f)
def get_resolution_status(report):
    f2p, p2p = _ratio(report, FAIL_TO_PASS), _ratio(report, PASS_TO_PASS)
    if f2p == 1 and p2p == 1: return ResolvedStatus.FULL.value
    if 0 < f2p < 1 and p2p == 1: return ResolvedStatus.PARTIAL.value
    return ResolvedStatus.NO.value
