class App:
    def __init__(self, *a, **k): pass
    def notify(self, *a, **k): pass
ComposeResult = object
