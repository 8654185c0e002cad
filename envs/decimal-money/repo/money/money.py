"""The Money value type: an integer count of minor units plus a currency."""

import re
from decimal import Decimal
from fractions import Fraction

from .currency import DEFAULT_REGISTRY, Currency, get_currency
from .errors import CurrencyMismatchError, ParseError, PrecisionError
from . import rounding

_AMOUNT_RE = re.compile(r"^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$|^\.(\d+)$")


def _is_code(token):
    return len(token) == 3 and token.isascii() and token.isalpha()


def _take_parens(body):
    if body.startswith("(") and body.endswith(")"):
        return True, body[1:-1].strip()
    return False, body


def _take_sign(body):
    if body and body[0] in "+-":
        return body[0] == "-", body[1:].lstrip()
    return False, body


def _minor_from_fraction(value, currency, mode):
    scaled = value * currency.minor_per_major
    if scaled.denominator == 1:
        return scaled.numerator
    if mode is None:
        raise PrecisionError(
            f"{value} has more than {currency.exponent} decimals for {currency.code}; pass a rounding mode"
        )
    return rounding.round_fraction(scaled, mode)


class Money:
    """An exact amount of one currency, stored as integer minor units (cents)."""

    __slots__ = ("_minor", "_currency")

    def __init__(self, minor, currency):
        if isinstance(minor, bool) or not isinstance(minor, int):
            raise TypeError(f"minor units must be an int, got {type(minor).__name__}")
        self._minor = minor
        self._currency = get_currency(currency)

    # -- construction -------------------------------------------------------

    @classmethod
    def of(cls, amount, currency, mode=None):
        """Money from an amount in major units: Money.of('12.34', 'USD')."""
        cur = get_currency(currency)
        return cls(_minor_from_fraction(rounding.to_fraction(amount), cur, mode), cur)

    @classmethod
    def zero(cls, currency):
        return cls(0, currency)

    @classmethod
    def parse(cls, text, currency=None, *, registry=None, mode=None):
        """Reads strings such as 'USD 1,234.56', '12.50 EUR', '-$3.00' or '(4.00) GBP'."""
        if not isinstance(text, str):
            raise TypeError("parse() expects a string")
        reg = DEFAULT_REGISTRY if registry is None else registry
        expected = None if currency is None else reg.get(currency)
        negative, body = _take_parens(text.strip())
        found = None
        parts = body.split()
        if len(parts) == 2 and _is_code(parts[0]):
            found, body = reg.get(parts[0]), parts[1]
        elif len(parts) == 2 and _is_code(parts[1]):
            found, body = reg.get(parts[1]), parts[0]
        if not negative:
            negative, body = _take_parens(body)
        minus, body = _take_sign(body)
        if found is None:
            found, body = cls._strip_symbol(body, reg, expected)
        if not minus:
            minus, body = _take_sign(body)
        negative = negative != minus
        if found is None:
            found = expected
        if found is None:
            raise ParseError(f"no currency in {text!r}")
        if expected is not None and found != expected:
            raise CurrencyMismatchError(found.code, expected.code, "parse")
        m = _AMOUNT_RE.match(body.strip())
        if not m:
            raise ParseError(f"not an amount: {text!r}")
        whole = (m.group(1) or "0").replace(",", "")
        frac = m.group(2) or m.group(3) or ""
        value = Fraction(int(whole + frac), 10 ** len(frac))
        money = cls(_minor_from_fraction(value, found, mode), found)
        return -money if negative else money

    @staticmethod
    def _strip_symbol(body, registry, expected):
        for symbol in registry.symbols():
            if body.startswith(symbol):
                rest = body[len(symbol):]
            elif body.endswith(symbol):
                rest = body[: -len(symbol)]
            else:
                continue
            matches = registry.by_symbol(symbol)
            if expected is not None and expected in matches:
                return expected, rest.strip()
            if len(matches) == 1:
                return matches[0], rest.strip()
            raise ParseError(f"symbol {symbol!r} is ambiguous: " + ", ".join(c.code for c in matches))
        return None, body

    # -- accessors ------------------------------------------------------------

    @property
    def minor(self):
        return self._minor

    @property
    def currency(self):
        return self._currency

    @property
    def amount(self):
        """The exact amount in major units as a Decimal."""
        return Decimal(self._minor).scaleb(-self._currency.exponent)

    def to_fraction(self):
        return Fraction(self._minor, self._currency.minor_per_major)

    def is_zero(self):
        return self._minor == 0

    def is_positive(self):
        return self._minor > 0

    def is_negative(self):
        return self._minor < 0

    def sign(self):
        if self._minor > 0:
            return 1
        return -1 if self._minor < 0 else 0

    # -- arithmetic -----------------------------------------------------------

    def _same_currency(self, other, operation):
        if not isinstance(other, Money):
            raise TypeError(f"cannot {operation} Money and {type(other).__name__}")
        if other._currency != self._currency:
            raise CurrencyMismatchError(self._currency.code, other._currency.code, operation)
        return other._minor

    def __add__(self, other):
        return Money(self._minor + self._same_currency(other, "add"), self._currency)

    def __radd__(self, other):
        # Lets sum() start from the integer 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return self.__add__(other)

    def __sub__(self, other):
        return Money(self._minor - self._same_currency(other, "subtract"), self._currency)

    def __neg__(self):
        return Money(-self._minor, self._currency)

    def __pos__(self):
        return self

    def __abs__(self):
        return Money(abs(self._minor), self._currency)

    def __mul__(self, factor):
        if isinstance(factor, bool) or not isinstance(factor, int):
            return NotImplemented
        return Money(self._minor * factor, self._currency)

    __rmul__ = __mul__

    def multiply(self, factor, mode=None):
        """Multiplies by an exact factor (int, str, Decimal, Fraction), then rounds to minor units."""
        value = rounding.to_fraction(factor) * self._minor
        return Money(rounding.round_fraction(value, mode), self._currency)

    def divide(self, divisor, mode=None):
        value = rounding.to_fraction(divisor)
        if value == 0:
            raise ZeroDivisionError("cannot divide money by zero")
        return Money(rounding.round_fraction(Fraction(self._minor) / value, mode), self._currency)

    def percent(self, pct, mode=None):
        """pct percent of this amount, e.g. money.percent('7.5')."""
        return self.multiply(rounding.to_fraction(pct) / 100, mode)

    def ratio_to(self, other):
        """Exact Fraction self / other for two amounts of the same currency."""
        denominator = self._same_currency(other, "divide")
        if denominator == 0:
            raise ZeroDivisionError("ratio to a zero amount")
        return Fraction(self._minor, denominator)

    def round_to(self, decimals, mode=None):
        """Rounds to fewer decimals than the currency has (e.g. whole dollars), keeping minor units."""
        exponent = self._currency.exponent
        if decimals >= exponent:
            return self
        step = 10 ** (exponent - decimals)
        return Money(rounding.round_to_increment(self._minor, step, mode), self._currency)

    def round_to_increment(self, increment_minor, mode=None):
        return Money(rounding.round_to_increment(self._minor, increment_minor, mode), self._currency)

    # -- comparison -------------------------------------------------------------

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self._currency == other._currency and self._minor == other._minor

    def __hash__(self):
        return hash((self._minor, self._currency.code))

    def __lt__(self, other):
        return self._minor < self._same_currency(other, "compare")

    def __le__(self, other):
        return self._minor <= self._same_currency(other, "compare")

    def __gt__(self, other):
        return self._minor > self._same_currency(other, "compare")

    def __ge__(self, other):
        return self._minor >= self._same_currency(other, "compare")

    def __bool__(self):
        return self._minor != 0

    # -- text -----------------------------------------------------------------------

    def to_decimal_string(self):
        """Exact amount with exactly the currency's number of decimals, e.g. '-0.05'."""
        exponent = self._currency.exponent
        digits = str(abs(self._minor)).rjust(exponent + 1, "0")
        sign = "-" if self._minor < 0 else ""
        if exponent == 0:
            return sign + digits
        return f"{sign}{digits[:-exponent]}.{digits[-exponent:]}"

    def __str__(self):
        return f"{self.to_decimal_string()} {self._currency.code}"

    def __repr__(self):
        return f"Money({self.to_decimal_string()!r}, {self._currency.code!r})"


def sum_money(items, currency=None):
    """Adds amounts of one currency; an empty input needs the currency to return zero."""
    total = None
    for item in items:
        total = item if total is None else total + item
    if total is None:
        if currency is None:
            raise ValueError("sum_money() of nothing needs a currency")
        return Money.zero(currency)
    if currency is not None and total.currency != get_currency(currency):
        raise CurrencyMismatchError(total.currency.code, get_currency(currency).code, "sum")
    return total


def min_money(first, *rest):
    best = first
    for item in rest:
        if item < best:
            best = item
    return best


def max_money(first, *rest):
    best = first
    for item in rest:
        if item > best:
            best = item
    return best


__all__ = ["Money", "Currency", "sum_money", "min_money", "max_money"]
