"""Integer rounding: divide exactly, then round the quotient with a named mode."""

import contextlib
import enum
from decimal import Decimal
from fractions import Fraction


class RoundingMode(enum.Enum):
    HALF_UP = "half-up"  # ties away from zero
    HALF_DOWN = "half-down"  # ties toward zero
    HALF_EVEN = "half-even"  # ties to the even neighbour (banker's rounding)
    UP = "up"  # away from zero
    DOWN = "down"  # toward zero (truncate)
    CEILING = "ceiling"  # toward positive infinity
    FLOOR = "floor"  # toward negative infinity


def parse_mode(mode):
    """Accepts a RoundingMode or a name such as 'half-up', 'HALF_UP' or 'Half Up'."""
    if isinstance(mode, RoundingMode):
        return mode
    if not isinstance(mode, str):
        raise TypeError(f"rounding mode must be a RoundingMode or str, got {type(mode).__name__}")
    key = mode.strip().lower().replace("_", "-").replace(" ", "-")
    for candidate in RoundingMode:
        if candidate.value == key:
            return candidate
    raise ValueError(f"unknown rounding mode: {mode!r}")


_mode_stack = [RoundingMode.HALF_EVEN]


def default_mode():
    """The rounding mode used when an operation is not given one."""
    return _mode_stack[-1]


@contextlib.contextmanager
def rounding_context(mode):
    """Temporarily changes default_mode() for the enclosed block."""
    _mode_stack.append(parse_mode(mode))
    try:
        yield _mode_stack[-1]
    finally:
        _mode_stack.pop()


def resolve_mode(mode):
    return default_mode() if mode is None else parse_mode(mode)


def divide(numerator, denominator, mode=None):
    """numerator / denominator rounded to an integer with the given mode."""
    mode = resolve_mode(mode)
    if denominator == 0:
        raise ZeroDivisionError("division by zero")
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    floor, remainder = divmod(numerator, denominator)
    if remainder == 0:
        return floor
    ceiling = floor + 1
    positive = numerator > 0
    if mode is RoundingMode.FLOOR:
        return floor
    if mode is RoundingMode.CEILING:
        return ceiling
    if mode is RoundingMode.DOWN:
        return floor if positive else ceiling
    if mode is RoundingMode.UP:
        return ceiling if positive else floor
    twice = 2 * remainder
    if twice < denominator:
        return floor
    if twice > denominator:
        return ceiling
    if mode is RoundingMode.HALF_UP:
        return ceiling if positive else floor
    if mode is RoundingMode.HALF_DOWN:
        return floor if positive else ceiling
    return floor if floor % 2 == 0 else ceiling


def to_fraction(value):
    """Exact Fraction for an int, decimal string, Decimal or Fraction. Floats are refused."""
    if isinstance(value, bool):
        raise TypeError("booleans are not numbers here")
    if isinstance(value, float):
        raise TypeError("floats are inexact; pass a string or Decimal instead")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"not a finite number: {value}")
        return Fraction(value)
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"not a number: {value!r}") from None
    raise TypeError(f"cannot use {type(value).__name__} as a number")


def round_fraction(value, mode=None):
    value = to_fraction(value)
    return divide(value.numerator, value.denominator, mode)


def rescale(minor, from_exponent, to_exponent, mode=None):
    """Moves an integer amount between exponents, rounding when digits are dropped."""
    if to_exponent >= from_exponent:
        return minor * 10 ** (to_exponent - from_exponent)
    return divide(minor, 10 ** (from_exponent - to_exponent), mode)


def round_to_increment(minor, increment, mode=None):
    """Rounds minor units to a multiple of increment (e.g. 5 for Swiss cash rounding)."""
    if increment <= 0:
        raise ValueError("increment must be positive")
    return divide(minor, increment, mode) * increment
