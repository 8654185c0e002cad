"""Currency conversion with a table of exact exchange rates."""

from fractions import Fraction

from .currency import get_currency
from .errors import MissingRateError, MoneyError
from .money import Money
from .rounding import round_fraction, to_fraction


class RateTable:
    """Exchange rates between currencies.

    A rate r for (A, B) means 1 A = r B. Lookups fall back to the inverse of
    the opposite pair and then to a cross rate through the base currency.
    """

    def __init__(self, base=None, registry=None):
        self._registry = registry
        self._base = None if base is None else self._currency(base)
        self._rates = {}

    def _currency(self, code):
        return get_currency(code, self._registry)

    @classmethod
    def from_quotes(cls, base, quotes, registry=None):
        """Builds a table from {code: rate} quotes, each meaning 1 base = rate code."""
        table = cls(base, registry)
        for code, rate in sorted(quotes.items()):
            table.set_rate(base, code, rate)
        return table

    @property
    def base(self):
        return self._base

    def set_rate(self, source, target, rate):
        src, dst = self._currency(source), self._currency(target)
        if src == dst:
            raise MoneyError("a currency's rate to itself is always 1")
        value = to_fraction(rate)
        if value <= 0:
            raise ValueError(f"rates must be positive, got {rate}")
        self._rates[(src.code, dst.code)] = value
        return value

    def remove_rate(self, source, target):
        key = (self._currency(source).code, self._currency(target).code)
        if self._rates.pop(key, None) is None:
            raise MissingRateError(key[0], key[1])

    def _direct(self, src, dst):
        if (src, dst) in self._rates:
            return self._rates[(src, dst)]
        if (dst, src) in self._rates:
            return 1 / self._rates[(dst, src)]
        return None

    def rate(self, source, target):
        """The exact rate as a Fraction: 1 source = rate target."""
        src, dst = self._currency(source).code, self._currency(target).code
        if src == dst:
            return Fraction(1)
        direct = self._direct(src, dst)
        if direct is not None:
            return direct
        if self._base is not None:
            base = self._base.code
            first = self._direct(src, base)
            second = self._direct(base, dst)
            if first is not None and second is not None:
                return first * second
        raise MissingRateError(src, dst)

    def convert(self, money, target, mode=None):
        """Converts money into the target currency, rounding to its minor units."""
        dst = self._currency(target)
        if money.currency == dst:
            return money
        factor = self.rate(money.currency.code, dst.code)
        exact = Fraction(money.minor, money.currency.minor_per_major) * factor
        return Money(round_fraction(exact * dst.minor_per_major, mode), dst)

    def convert_all(self, amounts, target, mode=None):
        """Converts each amount and adds them up in the target currency."""
        dst = self._currency(target)
        total = 0
        for money in amounts:
            total += self.convert(money, dst, mode).minor
        return Money(total, dst)

    def pairs(self):
        """The stored (source, target) pairs, sorted."""
        return sorted(self._rates)

    def __contains__(self, pair):
        source, target = pair
        try:
            self.rate(source, target)
        except MissingRateError:
            return False
        return True

    def __len__(self):
        return len(self._rates)
