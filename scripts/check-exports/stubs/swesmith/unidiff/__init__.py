class PatchSet(list):
    def __init__(self, *a, **k): raise NotImplementedError("unidiff stub")
