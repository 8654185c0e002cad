"""Formatting amounts for people: digit grouping, decimal marks, symbols and signs."""

from dataclasses import dataclass, replace

from .currency import get_currency
from .errors import ParseError
from .money import Money


@dataclass(frozen=True)
class FormatStyle:
    decimal_sep: str = "."
    group_sep: str = ","
    group_size: int = 3
    symbol_position: str = "currency"  # 'before', 'after', 'code' or 'currency' (ask the currency)
    space: bool = False  # a space between the symbol and the number
    negative: str = "minus"  # 'minus' or 'parens'

    def __post_init__(self):
        if self.group_size < 1:
            raise ValueError("group_size must be at least 1")
        if self.symbol_position not in ("before", "after", "code", "currency"):
            raise ValueError(f"bad symbol_position: {self.symbol_position!r}")
        if self.negative not in ("minus", "parens"):
            raise ValueError(f"bad negative style: {self.negative!r}")
        if self.decimal_sep == self.group_sep:
            raise ValueError("decimal and group separators must differ")


STYLES = {
    "en": FormatStyle(),
    "de": FormatStyle(decimal_sep=",", group_sep=".", symbol_position="after", space=True),
    "ch": FormatStyle(group_sep="'", symbol_position="before", space=True),
    "in": FormatStyle(group_size=2),
    "accounting": FormatStyle(negative="parens"),
    "iso": FormatStyle(group_sep="", symbol_position="code", space=True),
}


def get_style(style):
    if isinstance(style, FormatStyle):
        return style
    try:
        return STYLES[style]
    except KeyError:
        raise ValueError(f"unknown format style: {style!r}") from None


def group_digits(digits, sep=",", size=3, first_size=None):
    """Inserts sep every `size` digits from the right.

    first_size sets the size of the rightmost group, which gives the Indian
    system (first_size=3, size=2: 12,34,567).
    """
    if not sep or len(digits) <= (first_size or size):
        return digits
    head_size = first_size or size
    groups = [digits[-head_size:]]
    rest = digits[:-head_size]
    while len(rest) > size:
        groups.append(rest[-size:])
        rest = rest[:-size]
    if rest:
        groups.append(rest)
    return sep.join(reversed(groups))


def format_number(minor, exponent, style="en", min_decimals=None):
    """Formats the absolute value of minor units with grouping and a decimal mark."""
    st = get_style(style)
    digits = str(abs(minor)).rjust(exponent + 1, "0")
    whole = digits[:-exponent] if exponent else digits
    frac = digits[-exponent:] if exponent else ""
    if min_decimals is not None:
        keep = max(min_decimals, len(frac.rstrip("0")))
        frac = frac[:keep]
    first = 3 if st.group_size == 2 else None
    text = group_digits(whole, st.group_sep, st.group_size, first)
    return text + st.decimal_sep + frac if frac else text


def format_money(money, style="en", *, symbol=True, min_decimals=None):
    """Formats money for display, e.g. '$1,234.50', '1.234,50 €' or '(12.00) USD'."""
    st = get_style(style)
    cur = money.currency
    number = format_number(money.minor, cur.exponent, st, min_decimals)
    if symbol:
        position = st.symbol_position
        if position == "currency":
            position = "before" if cur.symbol_first else "after"
        mark = cur.code if position == "code" else cur.symbol
        gap = " " if st.space or (len(mark) > 1 and mark.isalpha()) else ""
        if position == "before":
            number = f"{mark}{gap}{number}"
        else:
            number = f"{number}{gap}{mark}"
    if money.minor >= 0:
        return number
    return f"({number})" if st.negative == "parens" else f"-{number}"


def parse_formatted(text, currency, style="en"):
    """Reads back what format_money wrote in a given style (symbol optional)."""
    st = get_style(style)
    cur = get_currency(currency)
    body = text.strip()
    negative = False
    if body.startswith("(") and body.endswith(")"):
        negative, body = True, body[1:-1]
    elif body.startswith("-"):
        negative, body = True, body[1:]
    for mark in (cur.code, cur.symbol):
        if body.startswith(mark):
            body = body[len(mark):]
        elif body.endswith(mark):
            body = body[: -len(mark)]
    body = body.strip()
    if st.group_sep:
        body = body.replace(st.group_sep, "")
    whole, _, frac = body.partition(st.decimal_sep)
    if not whole.isdigit() or (frac and not frac.isdigit()):
        raise ParseError(f"cannot read {text!r} in style {style!r}")
    if len(frac) > cur.exponent:
        raise ParseError(f"{text!r} has more decimals than {cur.code} allows")
    minor = int(whole) * cur.minor_per_major + int(frac.ljust(cur.exponent, "0") or "0")
    return Money(-minor if negative else minor, cur)


def with_style(base, **changes):
    """A copy of a named or given style with some fields changed."""
    return replace(get_style(base), **changes)
