"""Exception hierarchy for the money package."""


class MoneyError(Exception):
    """Base class for every error raised by this package."""


class UnknownCurrencyError(MoneyError, LookupError):
    def __init__(self, code):
        super().__init__(f"unknown currency: {code!r}")
        self.code = code


class CurrencyMismatchError(MoneyError):
    def __init__(self, left, right, operation="combine"):
        super().__init__(f"cannot {operation} {left} and {right}")
        self.left = left
        self.right = right


class ParseError(MoneyError, ValueError):
    """A string could not be read as an amount of money."""


class PrecisionError(MoneyError, ValueError):
    """An amount has more decimals than its currency and no rounding mode was given."""


class AllocationError(MoneyError, ValueError):
    """Ratios for an allocation are empty, negative or all zero."""


class MissingRateError(MoneyError, LookupError):
    def __init__(self, source, target):
        super().__init__(f"no exchange rate from {source} to {target}")
        self.source = source
        self.target = target
