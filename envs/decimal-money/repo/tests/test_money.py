from decimal import Decimal
from fractions import Fraction

import pytest

from money.errors import CurrencyMismatchError, ParseError, PrecisionError, UnknownCurrencyError
from money.money import Money, max_money, min_money, sum_money
from money.rounding import RoundingMode, rounding_context


def usd(text):
    return Money.of(text, "USD")


def test_constructor_requires_int_minor_units():
    m = Money(1234, "usd")
    assert m.minor == 1234
    assert m.currency.code == "USD"
    for bad in (12.34, "1234", True, Decimal("1")):
        with pytest.raises(TypeError):
            Money(bad, "USD")
    with pytest.raises(UnknownCurrencyError):
        Money(1, "ABC")


def test_of_converts_major_units_exactly():
    assert Money.of("12.34", "USD").minor == 1234
    assert Money.of(5, "USD").minor == 500
    assert Money.of("500", "JPY").minor == 500
    assert Money.of("1.5", "BHD").minor == 1500
    assert Money.of(Decimal("-0.07"), "EUR").minor == -7
    assert Money.of(Fraction(1, 4), "USD").minor == 25
    with pytest.raises(TypeError):
        Money.of(0.1, "USD")


def test_of_needs_a_mode_for_extra_decimals():
    with pytest.raises(PrecisionError):
        Money.of("0.125", "USD")
    with pytest.raises(PrecisionError):
        Money.of("1.5", "JPY")
    assert Money.of("0.125", "USD", RoundingMode.HALF_UP).minor == 13
    assert Money.of("0.125", "USD", "half-even").minor == 12
    assert Money.of("-1.5", "JPY", "half-up").minor == -2


def test_parse_codes_symbols_and_separators():
    assert Money.parse("USD 1,234.56") == Money(123456, "USD")
    assert Money.parse("12.50 eur") == Money(1250, "EUR")
    assert Money.parse("\u00a512,000") == Money(12000, "JPY")
    assert Money.parse("12.5\u20ac") == Money(1250, "EUR")
    assert Money.parse("BD 1.250") == Money(1250, "BHD")
    assert Money.parse(".5", "USD") == Money(50, "USD")
    assert Money.parse("+7", "GBP") == Money(700, "GBP")


def test_parse_negative_forms():
    assert Money.parse("-$3.00", "USD") == Money(-300, "USD")
    assert Money.parse("$-3.00", "USD") == Money(-300, "USD")
    assert Money.parse("(4.00) GBP") == Money(-400, "GBP")
    assert Money.parse("(USD 4)") == Money(-400, "USD")
    assert Money.parse("GBP -0.01") == Money(-1, "GBP")


def test_parse_errors():
    with pytest.raises(ParseError):
        Money.parse("$5")  # USD and CAD share the symbol
    assert Money.parse("$5", "CAD") == Money(500, "CAD")
    with pytest.raises(CurrencyMismatchError):
        Money.parse("\u20ac5", "USD")
    with pytest.raises(ParseError):
        Money.parse("12.00")
    with pytest.raises(ParseError):
        Money.parse("USD 1,23.00")
    with pytest.raises(ParseError):
        Money.parse("USD 12.")
    with pytest.raises(CurrencyMismatchError):
        Money.parse("EUR 5", "USD")
    with pytest.raises(UnknownCurrencyError):
        Money.parse("XYZ 5")
    with pytest.raises(PrecisionError):
        Money.parse("USD 1.005")
    assert Money.parse("USD 1.005", mode="up") == Money(101, "USD")
    with pytest.raises(TypeError):
        Money.parse(5)


def test_amount_fraction_and_sign():
    m = Money(-1205, "USD")
    assert m.amount == Decimal("-12.05")
    assert str(Money(7, "BHD").amount) == "0.007"
    assert m.to_fraction() == Fraction(-241, 20)
    assert (m.is_negative(), m.is_positive(), m.is_zero(), m.sign()) == (True, False, False, -1)
    z = Money.zero("EUR")
    assert (z.is_negative(), z.is_positive(), z.is_zero(), z.sign(), bool(z)) == (False, False, True, 0, False)
    p = Money(1, "EUR")
    assert (p.is_positive(), p.sign(), bool(p)) == (True, 1, True)


def test_add_subtract_negate():
    assert usd("1.10") + usd("2.25") == usd("3.35")
    assert usd("1.10") - usd("2.25") == usd("-1.15")
    assert -usd("4.00") == Money(-400, "USD")
    assert +usd("4.00") == Money(400, "USD")
    assert abs(usd("-4.01")) == Money(401, "USD")
    assert sum([usd("1"), usd("2"), usd("3.50")]) == Money(650, "USD")
    with pytest.raises(CurrencyMismatchError) as info:
        usd("1") + Money.of("1", "EUR")
    assert (info.value.left, info.value.right) == ("USD", "EUR")
    with pytest.raises(TypeError):
        usd("1") + 1
    with pytest.raises(TypeError):
        usd("1") - "1"
    with pytest.raises(TypeError):
        5 + usd("1")


def test_integer_multiplication_is_exact():
    assert usd("1.25") * 3 == Money(375, "USD")
    assert 3 * usd("1.25") == Money(375, "USD")
    assert usd("1.25") * -2 == Money(-250, "USD")
    with pytest.raises(TypeError):
        usd("1.25") * 1.5
    with pytest.raises(TypeError):
        usd("1.25") * True
    with pytest.raises(TypeError):
        usd("1") * usd("2")


def test_multiply_with_rounding_modes():
    price = usd("10.00")
    assert price.multiply("0.333", "half-up") == Money(333, "USD")
    assert price.multiply("0.3335", "half-up") == Money(334, "USD")
    assert price.multiply("0.3335", "half-even") == Money(334, "USD")
    assert price.multiply("0.3325", "half-even") == Money(332, "USD")
    assert price.multiply("0.3325", "half-down") == Money(332, "USD")
    assert usd("-10.00").multiply("0.3335", "up") == Money(-334, "USD")
    assert usd("-10.00").multiply("0.3331", "floor") == Money(-334, "USD")
    with rounding_context("ceiling"):
        assert price.multiply(Fraction(1, 3)) == Money(334, "USD")
    assert price.multiply(Fraction(1, 3)) == Money(333, "USD")


def test_divide_percent_and_ratio():
    assert usd("10.00").divide(3) == Money(333, "USD")
    assert usd("10.00").divide(3, "up") == Money(334, "USD")
    assert usd("10.00").divide("0.5") == Money(2000, "USD")
    assert usd("10.00").divide(1) == Money(1000, "USD")
    assert usd("10.00").divide(-4, "floor") == Money(-250, "USD")
    with pytest.raises(ZeroDivisionError):
        usd("1").divide(0)
    assert usd("80.00").percent("7.5") == Money(600, "USD")
    assert usd("19.99").percent(15, "half-up") == Money(300, "USD")
    assert usd("19.99").percent(15, "down") == Money(299, "USD")
    assert usd("3").ratio_to(usd("4")) == Fraction(3, 4)
    assert usd("3").ratio_to(Money(1, "USD")) == 300
    with pytest.raises(ZeroDivisionError):
        usd("3").ratio_to(usd("0"))


def test_round_to_and_increment():
    assert usd("12.50").round_to(0, "half-even") == usd("12.00")
    assert usd("13.50").round_to(0, "half-even") == usd("14.00")
    assert usd("12.34").round_to(1, "half-up") == usd("12.30")
    assert usd("12.34").round_to(2) == usd("12.34")
    assert usd("12.34").round_to(3, "up") == usd("12.34")
    assert Money.of("1.2345", "CLF").round_to(2, "down") == Money.of("1.23", "CLF")
    assert Money.of("1.23", "CHF").round_to_increment(5, "half-up") == Money.of("1.25", "CHF")
    assert Money.of("1.22", "CHF").round_to_increment(5, "half-up") == Money.of("1.20", "CHF")


def test_equality_and_hash():
    assert usd("1") == Money(100, "USD")
    assert usd("1") != Money(100, "CAD")
    assert usd("1") != usd("1.01")
    assert (usd("1") == "1.00") is False
    assert len({usd("1"), Money(100, "USD"), Money(100, "CAD")}) == 2


def test_ordering_and_mismatch():
    assert usd("1") < usd("1.01")
    assert not usd("1.01") < usd("1.01")
    assert usd("1.01") <= usd("1.01")
    assert not usd("1.02") <= usd("1.01")
    assert usd("2") > usd("-3")
    assert not usd("2") > usd("2")
    assert usd("2") >= usd("2")
    assert not usd("1.99") >= usd("2")
    assert sorted([usd("3"), usd("-1"), usd("2")]) == [usd("-1"), usd("2"), usd("3")]
    with pytest.raises(CurrencyMismatchError):
        usd("1") < Money(1, "EUR")
    with pytest.raises(TypeError):
        usd("1") < 5


def test_text_forms():
    assert Money(-5, "USD").to_decimal_string() == "-0.05"
    assert Money(123456, "USD").to_decimal_string() == "1234.56"
    assert Money(7, "BHD").to_decimal_string() == "0.007"
    assert Money(-42, "JPY").to_decimal_string() == "-42"
    assert Money(0, "EUR").to_decimal_string() == "0.00"
    assert str(Money(1999, "EUR")) == "19.99 EUR"
    assert repr(Money(-100, "GBP")) == "Money('-1.00', 'GBP')"


def test_sum_min_max_helpers():
    items = [usd("2"), usd("-1"), usd("5")]
    assert sum_money(items) == usd("6")
    assert sum_money(items, "USD") == usd("6")
    assert sum_money([], "JPY") == Money(0, "JPY")
    with pytest.raises(ValueError):
        sum_money([])
    with pytest.raises(CurrencyMismatchError):
        sum_money(items, "EUR")
    assert min_money(*items) == usd("-1")
    assert max_money(*items) == usd("5")
    assert min_money(usd("3")) == usd("3")
    first, second = usd("1"), Money(100, "USD")
    assert max_money(first, second) is first
    assert min_money(first, second) is first
