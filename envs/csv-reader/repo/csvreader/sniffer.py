"""Guessing the dialect of a CSV sample and whether it starts with a header."""

from .dialect import Dialect
from .errors import CsvError, SniffError
from .infer import TypeInferrer
from .lexer import Lexer

DEFAULT_CANDIDATES = ",;\t|:"


def count_outside_quotes(line, char, quotechars=('"', "'")):
    """Count char in line, ignoring anything between matching quotes."""
    count = 0
    open_quote = None
    for ch in line:
        if open_quote is not None:
            if ch == open_quote:
                open_quote = None
        elif ch in quotechars:
            open_quote = ch
        elif ch == char:
            count += 1
    return count


class Sniffer:
    """Scores candidate delimiters by how consistently they split each line."""

    def __init__(self, candidates=DEFAULT_CANDIDATES, max_lines=20):
        if not candidates:
            raise ValueError("at least one candidate delimiter is required")
        if max_lines < 1:
            raise ValueError("max_lines must be positive")
        self.candidates = candidates
        self.max_lines = max_lines

    def _lines(self, sample):
        lines = [line for line in sample.splitlines() if line.strip()]
        return lines[: self.max_lines]

    def score(self, lines, char):
        """(share of lines whose count equals the most common count, that count)."""
        counts = [count_outside_quotes(line, char) for line in lines]
        frequency = {}
        for count in counts:
            if count > 0:
                frequency[count] = frequency.get(count, 0) + 1
        if not frequency:
            return (0.0, 0)
        mode = max(frequency, key=lambda c: (frequency[c], c))
        return (frequency[mode] / len(lines), mode)

    def guess_delimiter(self, sample):
        lines = self._lines(sample)
        if not lines:
            raise SniffError("cannot sniff an empty sample")
        best = None
        best_score = (0.0, 0)
        for char in self.candidates:
            current = self.score(lines, char)
            if current > best_score:
                best, best_score = char, current
        if best is None:
            raise SniffError("could not determine the delimiter")
        return best

    def guess_quotechar(self, sample, delimiter):
        """The quote that appears right after a delimiter or at a line start most often."""
        votes = {'"': 0, "'": 0}
        for line in self._lines(sample):
            previous = delimiter
            for ch in line:
                if ch in votes and previous in (delimiter, " "):
                    votes[ch] += 1
                previous = ch
        if votes["'"] > votes['"']:
            return "'"
        return '"'

    def sniff(self, sample):
        delimiter = self.guess_delimiter(sample)
        quotechar = self.guess_quotechar(sample, delimiter)
        spaced = 0
        total = 0
        for line in self._lines(sample):
            for index, ch in enumerate(line[:-1]):
                if ch == delimiter:
                    total += 1
                    if line[index + 1] == " ":
                        spaced += 1
        skip = total > 0 and spaced == total
        return Dialect(delimiter=delimiter, quotechar=quotechar, skipinitialspace=skip)

    def has_header(self, sample, dialect=None):
        """Vote per column: a header cell differs in type or length from the cells below."""
        if dialect is None:
            try:
                dialect = self.sniff(sample)
            except SniffError:
                return False
        try:
            rows = [r.fields for r in Lexer(sample, dialect) if not r.is_blank()]
        except CsvError:
            return False
        rows = rows[: self.max_lines + 1]
        if len(rows) < 2:
            return False
        header, body = rows[0], rows[1:]
        inferrer = TypeInferrer()
        votes = 0
        for column, title in enumerate(header):
            values = [row[column] for row in body if column < len(row)]
            if not values:
                continue
            kinds = {inferrer.kind(value) for value in values}
            kinds.discard("null")
            if kinds and kinds <= {"int", "float", "bool"}:
                votes += 1 if inferrer.kind(title) not in kinds else -1
                continue
            lengths = {len(value) for value in values}
            if len(lengths) == 1:
                votes += 1 if len(title) not in lengths else -1
        return votes > 0


def sniff(sample, candidates=DEFAULT_CANDIDATES):
    return Sniffer(candidates).sniff(sample)
