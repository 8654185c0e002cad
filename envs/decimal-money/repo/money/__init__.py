"""Exact money arithmetic on integer minor units."""

from .allocate import allocate, allocate_minor, allocate_percent, allocate_with_floor, prorate, split
from .convert import RateTable
from .currency import DEFAULT_REGISTRY, Currency, CurrencyRegistry, get_currency
from .errors import (
    AllocationError,
    CurrencyMismatchError,
    MissingRateError,
    MoneyError,
    ParseError,
    PrecisionError,
    UnknownCurrencyError,
)
from .format import FormatStyle, format_money, format_number, group_digits, parse_formatted
from .money import Money, max_money, min_money, sum_money
from .rounding import RoundingMode, divide, rounding_context

__all__ = [
    "AllocationError", "Currency", "CurrencyMismatchError", "CurrencyRegistry", "DEFAULT_REGISTRY",
    "FormatStyle", "MissingRateError", "Money", "MoneyError", "ParseError", "PrecisionError",
    "RateTable", "RoundingMode", "UnknownCurrencyError", "allocate", "allocate_minor",
    "allocate_percent", "allocate_with_floor", "divide", "format_money", "format_number",
    "get_currency", "group_digits", "max_money", "min_money", "parse_formatted", "prorate",
    "rounding_context", "split", "sum_money",
]
