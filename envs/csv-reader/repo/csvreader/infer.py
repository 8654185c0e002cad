"""Type inference: turning field text into None, bool, int or float."""

from .errors import CsvError

def _scan_digits(text, index):
    start = index
    while index < len(text) and text[index].isdigit() and text[index].isascii():
        index += 1
    return index, index - start


def looks_like_int(text):
    """Optional sign then digits; '007' is not an int (it is probably a code)."""
    index = 1 if text[:1] in ("+", "-") else 0
    end, count = _scan_digits(text, index)
    if count == 0 or end != len(text):
        return False
    if count > 1 and text[index] == "0":
        return False
    return True


def looks_like_float(text):
    """Decimal or scientific notation: '1.5', '-.5', '2.', '1e3', '6.02E+23'."""
    start = 1 if text[:1] in ("+", "-") else 0
    index, whole = _scan_digits(text, start)
    if whole > 1 and text[start] == "0":
        return False
    fraction = 0
    if index < len(text) and text[index] == ".":
        index, fraction = _scan_digits(text, index + 1)
    if whole + fraction == 0:
        return False
    if index < len(text) and text[index] in "eE":
        index += 1
        if index < len(text) and text[index] in "+-":
            index += 1
        index, exponent = _scan_digits(text, index)
        if exponent == 0:
            return False
    return index == len(text)


class TypeInferrer:
    """Converts text to Python values using configurable vocabularies."""

    def __init__(self, true_values=("true",), false_values=("false",), null_values=("",),
                 strip=True):
        self.true_values = {v.lower() for v in true_values}
        self.false_values = {v.lower() for v in false_values}
        self.null_values = {v.lower() for v in null_values}
        overlap = self.true_values & self.false_values
        if overlap:
            raise CsvError(f"values cannot be both true and false: {sorted(overlap)}")
        self.strip = strip

    def kind(self, text):
        """Name the narrowest type of text: 'null', 'bool', 'int', 'float' or 'str'."""
        if text is None:
            return "null"
        value = text.strip() if self.strip else text
        lowered = value.lower()
        if lowered in self.null_values:
            return "null"
        if lowered in self.true_values or lowered in self.false_values:
            return "bool"
        if looks_like_int(value):
            return "int"
        if looks_like_float(value):
            return "float"
        return "str"

    def convert(self, text, kind):
        if text is None:
            return None
        value = text.strip() if self.strip else text
        if kind == "str":
            return text
        if value.lower() in self.null_values:
            return None
        if kind == "bool":
            lowered = value.lower()
            if lowered in self.true_values:
                return True
            if lowered in self.false_values:
                return False
            raise CsvError(f"{text!r} is not a boolean")
        try:
            if kind == "int":
                return int(value)
            if kind == "float":
                return float(value)
        except ValueError:
            raise CsvError(f"cannot convert {text!r} to {kind}") from None
        if kind == "null":
            raise CsvError(f"{text!r} is not empty")
        raise CsvError(f"unknown type {kind!r}")

    def infer(self, text):
        return self.convert(text, self.kind(text))

    def infer_row(self, row):
        return [self.infer(value) for value in row]

    def column_kinds(self, rows):
        """The narrowest type that fits every value of each column."""
        kinds = []
        for row in rows:
            for index, value in enumerate(row):
                if index >= len(kinds):
                    kinds.append("null")
                kinds[index] = merge_kinds(kinds[index], self.kind(value))
        return kinds

    def convert_rows(self, rows, kinds=None):
        """Convert whole columns consistently: a column of 1 and 2.5 becomes floats."""
        rows = [list(row) for row in rows]
        if kinds is None:
            kinds = self.column_kinds(rows)
        result = []
        for row in rows:
            converted = []
            for index, value in enumerate(row):
                kind = kinds[index] if index < len(kinds) else "str"
                converted.append(self.convert(value, kind))
            result.append(converted)
        return result


def merge_kinds(a, b):
    """Combine two column kinds: int and float widen to float, anything else mixed is str."""
    if a == b:
        return a
    if a == "null":
        return b
    if b == "null":
        return a
    if {a, b} == {"int", "float"}:
        return "float"
    return "str"


DEFAULT_INFERRER = TypeInferrer()


def infer_value(text):
    return DEFAULT_INFERRER.infer(text)


def infer_row(row):
    return DEFAULT_INFERRER.infer_row(row)
