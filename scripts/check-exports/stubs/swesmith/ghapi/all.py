class GhApi:
    def __init__(self, *a, **k): pass
