# stub: only names swesmith touches at import time
def from_env(*a, **k):
    raise RuntimeError("docker stub: no daemon")
class errors:
    class ImageNotFound(Exception): pass
