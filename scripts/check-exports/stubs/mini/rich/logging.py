import logging
class RichHandler(logging.StreamHandler):
    def __init__(self, *a, **k): super().__init__()
