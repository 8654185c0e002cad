class Container: pass
class Vertical: pass
class VerticalScroll: pass
