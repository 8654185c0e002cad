"""Currencies and the registry that looks them up by code or symbol."""

from .errors import MoneyError, UnknownCurrencyError

MAX_EXPONENT = 6


class Currency:
    """An ISO 4217 style currency: a three-letter code and a number of minor digits."""

    __slots__ = ("code", "exponent", "symbol", "name", "symbol_first")

    def __init__(self, code, exponent, symbol=None, name="", symbol_first=True):
        if not isinstance(code, str) or len(code) != 3 or not code.isalpha() or not code.isupper():
            raise ValueError(f"currency code must be three capital letters, got {code!r}")
        if isinstance(exponent, bool) or not isinstance(exponent, int):
            raise TypeError("exponent must be an int")
        if exponent < 0 or exponent > MAX_EXPONENT:
            raise ValueError(f"exponent must be between 0 and {MAX_EXPONENT}, got {exponent}")
        self.code = code
        self.exponent = exponent
        self.symbol = symbol if symbol else code
        self.name = name
        self.symbol_first = symbol_first

    @property
    def minor_per_major(self):
        """How many minor units make one major unit (100 for USD, 1 for JPY)."""
        return 10 ** self.exponent

    def __eq__(self, other):
        if not isinstance(other, Currency):
            return NotImplemented
        return self.code == other.code and self.exponent == other.exponent

    def __hash__(self):
        return hash((self.code, self.exponent))

    def __repr__(self):
        return f"Currency({self.code!r}, {self.exponent})"

    def __str__(self):
        return self.code


class CurrencyRegistry:
    """A set of currencies addressable by code, with a lookup by symbol."""

    def __init__(self, currencies=()):
        self._by_code = {}
        for currency in currencies:
            self.register(currency)

    def register(self, currency, replace=False):
        if not isinstance(currency, Currency):
            raise TypeError("register() expects a Currency")
        if currency.code in self._by_code and not replace:
            raise MoneyError(f"currency {currency.code} is already registered")
        self._by_code[currency.code] = currency
        return currency

    def unregister(self, code):
        try:
            return self._by_code.pop(normalize_code(code))
        except KeyError:
            raise UnknownCurrencyError(code) from None

    def get(self, code):
        if isinstance(code, Currency):
            return code
        key = normalize_code(code)
        try:
            return self._by_code[key]
        except KeyError:
            raise UnknownCurrencyError(code) from None

    def by_symbol(self, symbol):
        """All currencies that use the symbol, sorted by code."""
        return [c for c in sorted(self._by_code.values(), key=lambda c: c.code) if c.symbol == symbol]

    def symbols(self):
        """Distinct symbols that are not just the currency code, longest first."""
        found = {c.symbol for c in self._by_code.values() if c.symbol != c.code}
        return sorted(found, key=lambda s: (-len(s), s))

    def __contains__(self, code):
        try:
            return normalize_code(code) in self._by_code
        except (TypeError, ValueError):
            return False

    def __len__(self):
        return len(self._by_code)

    def __iter__(self):
        return iter(sorted(self._by_code))


def normalize_code(code):
    if not isinstance(code, str):
        raise TypeError(f"currency code must be a string, got {type(code).__name__}")
    return code.strip().upper()


DEFAULT_REGISTRY = CurrencyRegistry(
    [
        Currency("USD", 2, "$", "US Dollar"),
        Currency("EUR", 2, "\u20ac", "Euro", symbol_first=False),
        Currency("GBP", 2, "\u00a3", "Pound Sterling"),
        Currency("JPY", 0, "\u00a5", "Yen"),
        Currency("CHF", 2, "CHF", "Swiss Franc"),
        Currency("BHD", 3, "BD", "Bahraini Dinar"),
        Currency("KWD", 3, "KD", "Kuwaiti Dinar"),
        Currency("INR", 2, "\u20b9", "Indian Rupee"),
        Currency("CAD", 2, "$", "Canadian Dollar"),
        Currency("CLF", 4, "UF", "Unidad de Fomento"),
    ]
)


def get_currency(code, registry=None):
    """Looks a currency up in the registry (the default one unless given)."""
    return (DEFAULT_REGISTRY if registry is None else registry).get(code)
