"""Splitting an amount into parts without creating or losing a single minor unit."""

from fractions import Fraction

from .errors import AllocationError, CurrencyMismatchError
from .money import Money
from .rounding import to_fraction


def _normalize_ratios(ratios):
    values = [to_fraction(r) for r in ratios]
    if not values:
        raise AllocationError("at least one ratio is needed")
    for value in values:
        if value < 0:
            raise AllocationError(f"ratios must not be negative, got {value}")
    total = sum(values, Fraction(0))
    if total == 0:
        raise AllocationError("ratios must not all be zero")
    return values, total


def allocate_minor(amount, ratios):
    """Splits the integer amount in proportion to ratios (largest remainder method).

    Every part is the floor of its exact share; the units left over go one at a
    time to the parts with the largest fractional remainders, earlier parts
    first on ties. Negative amounts are split as their absolute value.
    """
    values, total = _normalize_ratios(ratios)
    magnitude = abs(amount)
    parts = []
    remainders = []
    for index, value in enumerate(values):
        exact = magnitude * value / total
        share = exact.numerator // exact.denominator
        parts.append(share)
        remainders.append((exact - share, index))
    leftover = magnitude - sum(parts)
    remainders.sort(key=lambda pair: (-pair[0], pair[1]))
    for _, index in remainders[:leftover]:
        parts[index] += 1
    if amount < 0:
        parts = [-p for p in parts]
    return parts


def allocate(money, ratios):
    """Splits money by ratios: allocate(Money.of('100', 'USD'), [1, 1, 1])."""
    return [Money(part, money.currency) for part in allocate_minor(money.minor, ratios)]


def split(money, parts):
    """Splits money into equal parts; the first parts get the extra minor units."""
    if isinstance(parts, bool) or not isinstance(parts, int):
        raise TypeError("parts must be an int")
    if parts < 1:
        raise AllocationError(f"cannot split into {parts} parts")
    return allocate(money, [1] * parts)


def allocate_percent(money, percents):
    """Like allocate, but the ratios are percentages that must add up to exactly 100."""
    values = [to_fraction(p) for p in percents]
    total = sum(values, Fraction(0))
    if total != 100:
        raise AllocationError(f"percentages add up to {total}, not 100")
    return allocate(money, values)


def prorate(money, weights):
    """Splits money in proportion to other amounts of the same currency (e.g. invoice lines)."""
    ratios = []
    for weight in weights:
        if not isinstance(weight, Money):
            raise TypeError("prorate() weights must be Money")
        if weight.currency != money.currency:
            raise CurrencyMismatchError(money.currency.code, weight.currency.code, "prorate")
        ratios.append(weight.minor)
    return allocate(money, ratios)


def allocate_with_floor(money, ratios, minimum):
    """Allocates, but first gives every part at least `minimum`.

    The minimums come off the top, and the rest is allocated by ratio. Raises
    AllocationError when the amount cannot cover all the minimums.
    """
    count = len(ratios)
    if minimum.currency != money.currency:
        raise CurrencyMismatchError(money.currency.code, minimum.currency.code, "allocate")
    reserved = minimum.minor * count
    if reserved > money.minor:
        raise AllocationError(f"{money} cannot cover {count} parts of at least {minimum}")
    rest = allocate_minor(money.minor - reserved, ratios)
    return [Money(part + minimum.minor, money.currency) for part in rest]
