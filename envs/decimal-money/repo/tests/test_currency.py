import pytest

from money.currency import DEFAULT_REGISTRY, Currency, CurrencyRegistry, get_currency, normalize_code
from money.errors import MoneyError, UnknownCurrencyError


def test_currency_fields_and_minor_per_major():
    usd = Currency("USD", 2, "$", "US Dollar")
    assert (usd.code, usd.exponent, usd.symbol, usd.name, usd.symbol_first) == ("USD", 2, "$", "US Dollar", True)
    assert usd.minor_per_major == 100
    assert Currency("JPY", 0).minor_per_major == 1
    assert Currency("BHD", 3).minor_per_major == 1000
    assert Currency("XAU", 6).minor_per_major == 1000000


def test_symbol_defaults_to_code():
    assert Currency("XTS", 2).symbol == "XTS"
    assert Currency("XTS", 2, "").symbol == "XTS"


@pytest.mark.parametrize("code", ["usd", "US", "USDX", "U1D", 840])
def test_invalid_codes_are_rejected(code):
    with pytest.raises(ValueError):
        Currency(code, 2)


def test_invalid_exponents_are_rejected():
    with pytest.raises(ValueError):
        Currency("ABC", -1)
    with pytest.raises(ValueError):
        Currency("ABC", 7)
    with pytest.raises(TypeError):
        Currency("ABC", 2.0)
    with pytest.raises(TypeError):
        Currency("ABC", True)
    assert Currency("ABC", 0).exponent == 0


def test_equality_hash_and_repr():
    assert Currency("USD", 2) == Currency("USD", 2, "US$")
    assert Currency("USD", 2) != Currency("USD", 3)
    assert Currency("USD", 2) != Currency("CAD", 2)
    assert Currency("USD", 2) != "USD"
    assert len({Currency("USD", 2), Currency("USD", 2, "x")}) == 1
    assert repr(Currency("JPY", 0)) == "Currency('JPY', 0)"
    assert str(Currency("JPY", 0)) == "JPY"


def test_default_registry_lookup():
    assert get_currency("usd").exponent == 2
    assert get_currency(" jpy ").exponent == 0
    assert get_currency("BHD").exponent == 3
    assert get_currency("KWD").exponent == 3
    assert get_currency("CLF").exponent == 4
    assert get_currency("CHF").symbol == "CHF"
    eur = get_currency("EUR")
    assert get_currency(eur) is eur
    assert eur.symbol_first is False
    with pytest.raises(UnknownCurrencyError) as info:
        get_currency("XYZ")
    assert info.value.code == "XYZ"
    with pytest.raises(TypeError):
        normalize_code(5)


def test_registry_register_replace_and_unregister():
    reg = CurrencyRegistry([Currency("AAA", 1, "A")])
    assert len(reg) == 1
    with pytest.raises(MoneyError):
        reg.register(Currency("AAA", 2))
    reg.register(Currency("AAA", 2, "A"), replace=True)
    assert reg.get("AAA").exponent == 2
    with pytest.raises(TypeError):
        reg.register("BBB")
    assert reg.unregister("aaa").code == "AAA"
    assert len(reg) == 0
    with pytest.raises(UnknownCurrencyError):
        reg.unregister("AAA")
    assert get_currency("USD", CurrencyRegistry([Currency("USD", 3)])).exponent == 3
    with pytest.raises(UnknownCurrencyError):
        get_currency("USD", CurrencyRegistry())


def test_registry_symbols_membership_and_iteration():
    assert DEFAULT_REGISTRY.by_symbol("$") == [get_currency("CAD"), get_currency("USD")]
    assert DEFAULT_REGISTRY.by_symbol("nope") == []
    symbols = DEFAULT_REGISTRY.symbols()
    assert symbols[:3] == ["BD", "KD", "UF"]
    assert "CHF" not in symbols
    assert "$" in symbols and symbols.count("$") == 1
    assert "usd" in DEFAULT_REGISTRY
    assert "XYZ" not in DEFAULT_REGISTRY
    assert 12 not in DEFAULT_REGISTRY
    assert list(CurrencyRegistry([Currency("ZZZ", 0), Currency("AAA", 0)])) == ["AAA", "ZZZ"]
