from fractions import Fraction

import pytest

from money.convert import RateTable
from money.currency import Currency, CurrencyRegistry
from money.errors import MissingRateError, MoneyError, UnknownCurrencyError
from money.money import Money


def table():
    return RateTable.from_quotes("USD", {"EUR": "0.9", "JPY": "150", "BHD": "0.376"})


def test_direct_inverse_and_cross_rates():
    t = table()
    assert t.rate("USD", "EUR") == Fraction(9, 10)
    assert t.rate("EUR", "USD") == Fraction(10, 9)
    assert t.rate("EUR", "JPY") == Fraction(500, 3)
    assert t.rate("JPY", "BHD") == Fraction(376, 150000)
    assert t.rate("GBP", "GBP") == 1
    assert t.base.code == "USD"


def test_direct_rate_wins_over_cross_rate():
    t = table()
    t.set_rate("EUR", "JPY", "160")
    assert t.rate("EUR", "JPY") == 160
    assert t.rate("JPY", "EUR") == Fraction(1, 160)


def test_missing_rates():
    t = table()
    with pytest.raises(MissingRateError) as info:
        t.rate("GBP", "EUR")
    assert (info.value.source, info.value.target) == ("GBP", "EUR")
    no_base = RateTable()
    no_base.set_rate("USD", "EUR", "0.9")
    no_base.set_rate("USD", "JPY", "150")
    with pytest.raises(MissingRateError):
        no_base.rate("EUR", "JPY")
    assert ("EUR", "USD") in no_base
    assert ("EUR", "JPY") not in no_base
    assert ("EUR", "JPY") in table()


def test_set_rate_validation():
    t = RateTable("USD")
    with pytest.raises(ValueError):
        t.set_rate("USD", "EUR", "0")
    with pytest.raises(ValueError):
        t.set_rate("USD", "EUR", "-1.2")
    with pytest.raises(MoneyError):
        t.set_rate("usd", "USD", "1")
    with pytest.raises(TypeError):
        t.set_rate("USD", "EUR", 0.9)
    with pytest.raises(UnknownCurrencyError):
        t.set_rate("USD", "XYZ", "1")
    assert t.set_rate("usd", "eur", "0.91") == Fraction(91, 100)
    assert t.pairs() == [("USD", "EUR")]
    assert len(t) == 1


def test_remove_rate():
    t = table()
    t.remove_rate("USD", "JPY")
    assert len(t) == 2
    with pytest.raises(MissingRateError):
        t.rate("EUR", "JPY")
    with pytest.raises(MissingRateError):
        t.remove_rate("USD", "JPY")


def test_convert_rounds_to_target_minor_units():
    t = table()
    assert t.convert(Money.of("10", "EUR"), "JPY") == Money(1667, "JPY")
    assert t.convert(Money.of("10", "EUR"), "JPY", "down") == Money(1666, "JPY")
    assert t.convert(Money.of("100", "USD"), "BHD") == Money(37600, "BHD")
    assert t.convert(Money.of("1", "JPY"), "USD") == Money(1, "USD")
    assert t.convert(Money.of("1", "JPY"), "USD", "floor") == Money(0, "USD")
    assert t.convert(Money.of("-10", "EUR"), "USD", "half-up") == Money(-1111, "USD")
    same = Money.of("3", "EUR")
    assert t.convert(same, "EUR") is same


def test_convert_all_sums_in_target():
    t = table()
    amounts = [Money.of("10", "EUR"), Money.of("1500", "JPY"), Money.of("1", "USD")]
    assert t.convert_all(amounts, "USD") == Money(2211, "USD")
    assert t.convert_all([], "JPY") == Money(0, "JPY")


def test_custom_registry():
    reg = CurrencyRegistry([Currency("AAA", 1), Currency("BBB", 4)])
    t = RateTable.from_quotes("AAA", {"BBB": "2.5"}, registry=reg)
    assert t.convert(Money(15, reg.get("AAA")), "BBB") == Money(37500, reg.get("BBB"))
    assert t.rate("BBB", "AAA") == Fraction(2, 5)
    with pytest.raises(UnknownCurrencyError):
        t.rate("AAA", "USD")
