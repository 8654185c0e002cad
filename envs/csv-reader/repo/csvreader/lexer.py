"""Splits CSV text into records of fields, tracking line and column."""

from .dialect import QUOTE_NONE, resolve_dialect
from .errors import ParseError

UNIVERSAL_TERMINATORS = ("\r\n", "\n", "\r")


class Record:
    """One parsed record: its fields, which of them were quoted, and where it began."""

    __slots__ = ("fields", "quoted", "line", "index")

    def __init__(self, fields, quoted, line, index):
        self.fields = fields
        self.quoted = quoted
        self.line = line
        self.index = index

    def is_blank(self):
        return len(self.fields) == 1 and self.fields[0] == "" and not self.quoted[0]

    def __len__(self):
        return len(self.fields)

    def __repr__(self):
        return f"Record(line={self.line}, fields={self.fields!r})"


class Lexer:
    """A character-level state machine over a whole string of CSV text."""

    def __init__(self, text, dialect=None):
        if not isinstance(text, str):
            raise TypeError(f"expected str, got {type(text).__name__}")
        self.text = text
        self.dialect = resolve_dialect(dialect)
        self.pos = 0
        self.line = 1
        self.column = 1
        self.records = 0
        terminators = list(UNIVERSAL_TERMINATORS)
        if self.dialect.lineterminator not in terminators:
            terminators.insert(0, self.dialect.lineterminator)
        self._terminators = tuple(terminators)

    def __iter__(self):
        while True:
            record = self.next_record()
            if record is None:
                return
            yield record

    def _peek(self, offset=0):
        index = self.pos + offset
        if index < len(self.text):
            return self.text[index]
        return ""

    def _consume(self, count=1):
        for _ in range(count):
            ch = self.text[self.pos]
            self.pos += 1
            if ch == "\n":
                self.line += 1
                self.column = 1
            elif ch == "\r" and self._peek() != "\n":
                self.line += 1
                self.column = 1
            else:
                self.column += 1

    def _terminator_length(self):
        for terminator in self._terminators:
            if self.text.startswith(terminator, self.pos):
                return len(terminator)
        return 0

    def _error(self, message, line=None, column=None):
        return ParseError(message, self.line if line is None else line,
                          self.column if column is None else column)

    def _skip_comment_lines(self):
        comment = self.dialect.comment
        if comment is None:
            return
        while self._peek() == comment:
            while self.pos < len(self.text) and not self._terminator_length():
                self._consume()
            self._consume(self._terminator_length())

    def next_record(self):
        """Return the next Record, or None at the end of the text."""
        self._skip_comment_lines()
        if self.pos >= len(self.text):
            return None
        start_line = self.line
        fields = []
        quoted = []
        while True:
            value, was_quoted = self._read_field()
            fields.append(value)
            quoted.append(was_quoted)
            if self._peek() == self.dialect.delimiter:
                self._consume()
                continue
            # a field ends at a delimiter, a line terminator or the end of the text
            self._consume(self._terminator_length())
            break
        self.records += 1
        return Record(fields, quoted, start_line, self.records)

    def _read_field(self):
        dialect = self.dialect
        if dialect.skipinitialspace:
            while self._peek() == " ":
                self._consume()
        if dialect.quoting != QUOTE_NONE and self._peek() == dialect.quotechar:
            return self._read_quoted(), True
        return self._read_unquoted(), False

    def _read_escaped(self, buffer):
        line, column = self.line, self.column
        self._consume()
        if self.pos >= len(self.text):
            raise self._error("escape character at end of input", line, column)
        buffer.append(self.text[self.pos])
        self._consume()

    def _read_unquoted(self):
        dialect = self.dialect
        buffer = []
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == dialect.delimiter or self._terminator_length():
                break
            if ch == dialect.escapechar:
                self._read_escaped(buffer)
                continue
            if dialect.strict and ch == dialect.quotechar and dialect.quoting != QUOTE_NONE:
                raise self._error("quote character inside an unquoted field")
            buffer.append(ch)
            self._consume()
        return "".join(buffer)

    def _read_quoted(self):
        dialect = self.dialect
        quote = dialect.quotechar
        open_line, open_column = self.line, self.column
        self._consume()
        buffer = []
        while True:
            if self.pos >= len(self.text):
                raise self._error("unterminated quoted field", open_line, open_column)
            ch = self.text[self.pos]
            if ch == dialect.escapechar:
                self._read_escaped(buffer)
                continue
            if ch == quote:
                if dialect.doublequote and self._peek(1) == quote:
                    buffer.append(quote)
                    self._consume(2)
                    continue
                self._consume()
                break
            buffer.append(ch)
            self._consume()
        if self.pos < len(self.text) and self._peek() != dialect.delimiter and not self._terminator_length():
            if dialect.strict:
                raise self._error(f"unexpected {self._peek()!r} after closing quote")
            buffer.append(self._read_unquoted())
        return "".join(buffer)


def tokenize(text, dialect=None, **overrides):
    """Return every record in text as a list of field lists."""
    lexer = Lexer(text, resolve_dialect(dialect, **overrides))
    return [record.fields for record in lexer]
