class Footer: pass
class Header: pass
class Static: pass
