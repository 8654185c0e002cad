"""Writers that format rows as CSV text."""

import io

from .dialect import QUOTE_ALL, QUOTE_MINIMAL, QUOTE_NONE, QUOTE_NONNUMERIC, resolve_dialect
from .errors import WriteError


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Writer:
    """Formats rows into a text stream (an internal buffer when none is given)."""

    def __init__(self, out=None, dialect=None, **overrides):
        self.dialect = resolve_dialect(dialect, **overrides)
        self._owns_buffer = out is None
        self.out = io.StringIO() if out is None else out
        self.rows_written = 0

    def getvalue(self):
        if not self._owns_buffer:
            raise WriteError("getvalue() is only available without an output stream")
        return self.out.getvalue()

    def to_text(self, value):
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return repr(value)
        return str(value)

    def _needs_quotes(self, text):
        dialect = self.dialect
        if not text:
            return False
        if dialect.delimiter in text or dialect.quotechar in text:
            return True
        if "\r" in text or "\n" in text or dialect.lineterminator in text:
            return True
        if dialect.comment is not None and text[0] == dialect.comment:
            return True
        return dialect.skipinitialspace and text[0] == " "

    def _escape(self, text, specials):
        escape = self.dialect.escapechar
        out = []
        for ch in text:
            if ch in specials:
                if escape is None:
                    raise WriteError(f"need an escapechar to write {ch!r} in {text!r}")
                out.append(escape)
            out.append(ch)
        return "".join(out)

    def format_field(self, value):
        dialect = self.dialect
        text = self.to_text(value)
        if dialect.quoting == QUOTE_NONE:
            specials = {dialect.delimiter, "\r", "\n"}
            if dialect.escapechar is not None:
                specials.add(dialect.escapechar)
            if dialect.quotechar is not None:
                specials.add(dialect.quotechar)
            return self._escape(text, specials)
        if dialect.quoting == QUOTE_ALL:
            quote = True
        elif dialect.quoting == QUOTE_NONNUMERIC:
            quote = not _is_number(value) and value is not None
        else:
            quote = self._needs_quotes(text)
        if dialect.escapechar is not None and dialect.escapechar in text:
            text = text.replace(dialect.escapechar, dialect.escapechar * 2)
        if not quote:
            return text
        q = dialect.quotechar
        if dialect.doublequote:
            text = text.replace(q, q + q)
        else:
            text = self._escape(text, {q})
        return q + text + q

    def format_row(self, row):
        values = list(row)
        fields = [self.format_field(value) for value in values]
        # a lone empty field would read back as a blank line, so quote it
        if len(fields) == 1 and fields[0] == "" and self.dialect.quoting != QUOTE_NONE:
            q = self.dialect.quotechar
            fields[0] = q + q
        return self.dialect.delimiter.join(fields) + self.dialect.lineterminator

    def write_row(self, row):
        line = self.format_row(row)
        self.out.write(line)
        self.rows_written += 1
        return len(line)

    def write_rows(self, rows):
        total = 0
        for row in rows:
            total += self.write_row(row)
        return total


class DictWriter(Writer):
    """Writes dicts in the order of fieldnames."""

    def __init__(self, out=None, fieldnames=(), dialect=None, *, restval="",
                 extrasaction="raise", **overrides):
        super().__init__(out, dialect, **overrides)
        if extrasaction not in ("raise", "ignore"):
            raise ValueError(f"extrasaction must be 'raise' or 'ignore', not {extrasaction!r}")
        self.fieldnames = list(fieldnames)
        if not self.fieldnames:
            raise WriteError("DictWriter needs at least one field name")
        self.restval = restval
        self.extrasaction = extrasaction

    def write_header(self):
        return Writer.write_row(self, self.fieldnames)

    def write_row(self, rowdict):
        if self.extrasaction == "raise":
            extras = [key for key in rowdict if key not in self.fieldnames]
            if extras:
                raise WriteError(f"dict contains fields not in fieldnames: {extras!r}")
        values = [rowdict.get(name, self.restval) for name in self.fieldnames]
        return super().write_row(values)


def to_string(rows, dialect=None, **overrides):
    """Format rows and return the text."""
    with io.StringIO() as buffer:
        writer = Writer(buffer, dialect, **overrides)
        writer.write_rows(rows)
        return buffer.getvalue()


def dicts_to_string(rows, fieldnames=None, dialect=None, *, header=True, **overrides):
    """Format dicts; fieldnames default to the keys in first-seen order."""
    rows = list(rows)
    if fieldnames is None:
        fieldnames = []
        for row in rows:
            for key in row:
                if key not in fieldnames:
                    fieldnames.append(key)
    with io.StringIO() as buffer:
        writer = DictWriter(buffer, fieldnames, dialect, **overrides)
        if header:
            writer.write_header()
        writer.write_rows(rows)
        return buffer.getvalue()


QUOTING_MODES = (QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC, QUOTE_NONE)
