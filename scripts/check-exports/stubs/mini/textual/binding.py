class Binding:
    def __init__(self, key, action, description="", *a, **k): self.key, self.action, self.description = key, action, description
