"""Exception types raised by csvreader."""


class CsvError(Exception):
    """Base class for every error raised by this package."""


class DialectError(CsvError, ValueError):
    """A dialect was configured with inconsistent or invalid settings."""


class ParseError(CsvError):
    """Malformed input, located by 1-based line and column."""

    def __init__(self, message, line=None, column=None):
        self.message = message
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self):
        if self.line is None:
            return self.message
        if self.column is None:
            return f"{self.message} (line {self.line})"
        return f"{self.message} (line {self.line}, column {self.column})"


class FieldCountError(ParseError):
    """A row had more or fewer fields than the header."""

    def __init__(self, expected, actual, line=None):
        self.expected = expected
        self.actual = actual
        super().__init__(f"expected {expected} fields, got {actual}", line)


class WriteError(CsvError):
    """A value cannot be written with the current dialect."""


class SniffError(CsvError):
    """The sniffer could not work out a dialect from the sample."""
