class Container: pass
