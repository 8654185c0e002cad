"""Readers that yield rows as lists or as dictionaries keyed by the header."""

from .dialect import resolve_dialect
from .errors import CsvError, FieldCountError
from .infer import DEFAULT_INFERRER, TypeInferrer
from .lexer import Lexer


def _read_source(source):
    if isinstance(source, str):
        return source
    if hasattr(source, "read"):
        text = source.read()
        if not isinstance(text, str):
            raise TypeError("source must be opened in text mode")
        return text
    if isinstance(source, (list, tuple)):
        return "".join(source)
    raise TypeError(f"cannot read CSV from {type(source).__name__}")


class Reader:
    """Iterates over the rows of CSV text as lists of strings (or inferred values)."""

    def __init__(self, source, dialect=None, *, infer_types=False, inferrer=None,
                 skip_blank_lines=True, **overrides):
        self.dialect = resolve_dialect(dialect, **overrides)
        self._lexer = Lexer(_read_source(source), self.dialect)
        self._records = iter(self._lexer)
        self.skip_blank_lines = skip_blank_lines
        if inferrer is not None:
            infer_types = True
        self.inferrer = inferrer if inferrer is not None else DEFAULT_INFERRER
        self.infer_types = infer_types
        self.line_num = 0
        self.rows_read = 0

    def __iter__(self):
        return self

    def _next_record(self):
        while True:
            record = next(self._records)
            if self.skip_blank_lines and record.is_blank():
                continue
            self.line_num = record.line
            return record

    def _convert(self, record):
        if not self.infer_types:
            return list(record.fields)
        row = []
        for value, quoted in zip(record.fields, record.quoted):
            # a quoted field is an explicit string: "007" or "true" stay text
            row.append(value if quoted else self.inferrer.infer(value))
        return row

    def __next__(self):
        record = self._next_record()
        self.rows_read += 1
        return self._convert(record)

    def read_all(self):
        return list(self)


class DictReader(Reader):
    """Yields each row as a dict keyed by the header row (or given fieldnames)."""

    def __init__(self, source, fieldnames=None, dialect=None, *, restkey=None, restval=None,
                 strict_fields=False, **options):
        super().__init__(source, dialect, **options)
        self._fieldnames = list(fieldnames) if fieldnames is not None else None
        self.restkey = restkey
        self.restval = restval
        self.strict_fields = strict_fields
        self.header_line = None

    @property
    def fieldnames(self):
        if self._fieldnames is None:
            try:
                record = self._next_record()
            except StopIteration:
                return None
            self.header_line = record.line
            self._fieldnames = normalize_header(record.fields)
        return self._fieldnames

    def __next__(self):
        names = self.fieldnames
        if names is None:
            raise StopIteration
        record = self._next_record()
        self.rows_read += 1
        row = self._convert(record)
        if len(row) != len(names) and self.strict_fields:
            raise FieldCountError(len(names), len(row), record.line)
        result = dict(zip(names, row))
        if len(row) > len(names):
            result[self.restkey] = row[len(names):]
        else:
            for name in names[len(row):]:
                result[name] = self.restval
        return result


def normalize_header(fields):
    """Strip names, name empty columns 'column_N' and number duplicates 'a', 'a_2', ..."""
    used = set()
    names = []
    for position, raw in enumerate(fields, start=1):
        name = raw.strip()
        if not name:
            name = f"column_{position}"
        if name in used:
            suffix = 2
            while f"{name}_{suffix}" in used:
                suffix += 1
            name = f"{name}_{suffix}"
        used.add(name)
        names.append(name)
    return names


def read_rows(source, dialect=None, **options):
    """All rows as lists."""
    return Reader(source, dialect, **options).read_all()


def read_dicts(source, dialect=None, **options):
    """All rows as dicts keyed by the header."""
    return list(DictReader(source, dialect=dialect, **options))


def read_table(source, dialect=None, *, infer_types=False, **options):
    """Return (header, rows), converting whole columns to one type when asked."""
    reader = Reader(source, dialect, **options)
    try:
        header = normalize_header(next(reader))
    except StopIteration:
        raise CsvError("no header row: the input is empty") from None
    rows = reader.read_all()
    if infer_types:
        rows = TypeInferrer().convert_rows(rows)
    return header, rows
