"""Dialects: the formatting parameters shared by the reader and the writer."""

from .errors import DialectError

QUOTE_MINIMAL = 0
QUOTE_ALL = 1
QUOTE_NONNUMERIC = 2
QUOTE_NONE = 3

QUOTING_NAMES = {
    QUOTE_MINIMAL: "minimal",
    QUOTE_ALL: "all",
    QUOTE_NONNUMERIC: "nonnumeric",
    QUOTE_NONE: "none",
}

_FIELDS = (
    "delimiter",
    "quotechar",
    "escapechar",
    "doublequote",
    "skipinitialspace",
    "lineterminator",
    "quoting",
    "strict",
    "comment",
)


def _check_char(name, value, allow_none):
    if value is None:
        if not allow_none:
            raise DialectError(f"{name} must be set")
        return
    if not isinstance(value, str) or len(value) != 1:
        raise DialectError(f"{name} must be a single character, got {value!r}")
    if value in "\r\n":
        raise DialectError(f"{name} cannot be a line break")


class Dialect:
    """An immutable set of parsing and formatting options."""

    def __init__(
        self,
        delimiter=",",
        quotechar='"',
        escapechar=None,
        doublequote=True,
        skipinitialspace=False,
        lineterminator="\r\n",
        quoting=QUOTE_MINIMAL,
        strict=False,
        comment=None,
    ):
        if isinstance(quoting, str):
            quoting = parse_quoting(quoting)
        values = (delimiter, quotechar, escapechar, doublequote, skipinitialspace,
                  lineterminator, quoting, strict, comment)
        for name, value in zip(_FIELDS, values):
            object.__setattr__(self, name, value)
        self.validate()

    def __setattr__(self, name, value):
        raise AttributeError("Dialect is immutable; use replace()")

    def validate(self):
        _check_char("delimiter", self.delimiter, allow_none=False)
        _check_char("quotechar", self.quotechar, allow_none=True)
        _check_char("escapechar", self.escapechar, allow_none=True)
        _check_char("comment", self.comment, allow_none=True)
        if self.quoting not in QUOTING_NAMES:
            raise DialectError(f"unknown quoting mode {self.quoting!r}")
        if self.quotechar is None and self.quoting != QUOTE_NONE:
            raise DialectError("quotechar is required unless quoting is QUOTE_NONE")
        if self.delimiter == self.quotechar:
            raise DialectError("delimiter and quotechar must differ")
        if self.escapechar is not None and self.escapechar in (self.delimiter, self.quotechar):
            raise DialectError("escapechar must differ from delimiter and quotechar")
        if self.comment is not None and self.comment in (self.delimiter, self.quotechar):
            raise DialectError("comment must differ from delimiter and quotechar")
        if not isinstance(self.lineterminator, str) or not self.lineterminator:
            raise DialectError("lineterminator must be a non-empty string")
        if self.delimiter in self.lineterminator:
            raise DialectError("lineterminator cannot contain the delimiter")

    def replace(self, **changes):
        """Return a copy with some options changed."""
        unknown = set(changes) - set(_FIELDS)
        if unknown:
            raise DialectError(f"unknown dialect option(s): {', '.join(sorted(unknown))}")
        options = self.as_dict()
        options.update(changes)
        return Dialect(**options)

    def as_dict(self):
        return {name: getattr(self, name) for name in _FIELDS}

    def __eq__(self, other):
        if not isinstance(other, Dialect):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    def __hash__(self):
        return hash(tuple(self.as_dict().items()))

    def __repr__(self):
        parts = []
        for name in _FIELDS:
            parts.append(f"{name}={getattr(self, name)!r}")
        return f"Dialect({', '.join(parts)})"


def parse_quoting(name):
    """Accept 'minimal', 'all', 'nonnumeric' or 'none' (any case)."""
    wanted = name.strip().lower()
    for value, label in QUOTING_NAMES.items():
        if label == wanted:
            return value
    raise DialectError(f"unknown quoting mode {name!r}")


EXCEL = Dialect()
EXCEL_TAB = Dialect(delimiter="\t")
UNIX = Dialect(lineterminator="\n", quoting=QUOTE_ALL)

_registry = {"excel": EXCEL, "excel-tab": EXCEL_TAB, "unix": UNIX}


def register_dialect(name, dialect=None, **options):
    if not isinstance(name, str) or not name:
        raise DialectError("dialect name must be a non-empty string")
    base = dialect if dialect is not None else EXCEL
    if isinstance(base, str):
        base = get_dialect(base)
    registered = base.replace(**options) if options else base
    _registry[name] = registered
    return registered


def get_dialect(name):
    try:
        return _registry[name]
    except KeyError:
        raise DialectError(f"unknown dialect {name!r}") from None


def unregister_dialect(name):
    if name not in _registry:
        raise DialectError(f"unknown dialect {name!r}")
    del _registry[name]


def list_dialects():
    return sorted(_registry)


def resolve_dialect(dialect=None, **overrides):
    """Turn None, a registered name or a Dialect into a Dialect, then apply overrides."""
    if dialect is None:
        base = EXCEL
    elif isinstance(dialect, str):
        base = get_dialect(dialect)
    elif isinstance(dialect, Dialect):
        base = dialect
    else:
        raise DialectError(f"cannot use {type(dialect).__name__} as a dialect")
    if overrides:
        return base.replace(**overrides)
    return base
