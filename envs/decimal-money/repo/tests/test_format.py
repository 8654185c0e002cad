from dataclasses import FrozenInstanceError

import pytest

from money.currency import Currency

from money.errors import ParseError
from money.format import FormatStyle, format_money, format_number, group_digits, parse_formatted, with_style
from money.money import Money


def test_group_digits():
    assert group_digits("1234567") == "1,234,567"
    assert group_digits("123") == "123"
    assert group_digits("1234") == "1,234"
    assert group_digits("123456") == "123,456"
    assert group_digits("1234567", ".", 4) == "123.4567"
    assert group_digits("1234567", "") == "1234567"
    assert group_digits("1234567", ",", 2, 3) == "12,34,567"
    assert group_digits("12345", ",", 2, 3) == "12,345"
    assert group_digits("1234", ",", 2, 3) == "1,234"


def test_format_number():
    assert format_number(123456, 2) == "1,234.56"
    assert format_number(-5, 2) == "0.05"
    assert format_number(7, 3) == "0.007"
    assert format_number(1234567, 0) == "1,234,567"
    assert format_number(123456, 2, "de") == "1.234,56"
    assert format_number(123450, 2, min_decimals=0) == "1,234.5"
    assert format_number(123400, 2, min_decimals=0) == "1,234"
    assert format_number(123400, 2, min_decimals=1) == "1,234.0"
    assert format_number(123456, 2, min_decimals=1) == "1,234.56"


def test_format_money_default_style_uses_currency_symbol_position():
    assert format_money(Money.of("1234.5", "USD")) == "$1,234.50"
    assert format_money(Money.of("-1234.5", "USD")) == "-$1,234.50"
    assert format_money(Money.of("1234.5", "EUR")) == "1,234.50\u20ac"
    assert format_money(Money.of("5", "JPY")) == "\u00a55"
    assert format_money(Money.of("1.5", "BHD")) == "BD 1.500"
    assert format_money(Money.of("0", "GBP")) == "\u00a30.00"


def test_format_money_named_styles():
    m = Money.of("-1234567.5", "EUR")
    assert format_money(m, "de") == "-1.234.567,50 \u20ac"
    assert format_money(m, "accounting") == "(1,234,567.50\u20ac)"
    assert format_money(m, "iso") == "-1234567.50 EUR"
    assert format_money(Money.of("1234", "CHF"), "ch") == "CHF 1'234.00"
    assert format_money(Money.of("1234", "USD"), "ch") == "$ 1'234.00"
    assert format_money(Money.of("1234567.5", "INR"), "in") == "\u20b912,34,567.50"


def test_format_money_options():
    m = Money.of("1234.50", "USD")
    assert format_money(m, symbol=False) == "1,234.50"
    assert format_money(m, min_decimals=0) == "$1,234.5"
    assert format_money(Money.of("12", "USD"), min_decimals=0) == "$12"
    custom = FormatStyle(symbol_position="after", space=True, negative="parens")
    assert format_money(-m, custom) == "(1,234.50 $)"
    assert format_money(m, with_style("en", group_sep=" ")) == "$1 234.50"


def test_space_only_after_alphabetic_multi_letter_symbols():
    assert format_money(Money(500, Currency("ZAR", 2, "R"))) == "R5.00"
    assert format_money(Money(500, Currency("XUS", 2, "US$"))) == "US$5.00"
    assert format_money(Money(500, Currency("XRS", 2, "Rs"))) == "Rs 5.00"
    assert format_money(Money(500, Currency("XRS", 2, "Rs", symbol_first=False))) == "5.00 Rs"


def test_style_validation():
    with pytest.raises(ValueError):
        FormatStyle(group_size=0)
    with pytest.raises(ValueError):
        FormatStyle(symbol_position="middle")
    with pytest.raises(ValueError):
        FormatStyle(negative="red")
    with pytest.raises(ValueError):
        FormatStyle(decimal_sep=",")
    with pytest.raises(ValueError):
        format_money(Money.of("1", "USD"), "klingon")
    assert FormatStyle(group_size=1).group_size == 1
    with pytest.raises(FrozenInstanceError):
        FormatStyle().decimal_sep = ","


def test_parse_formatted_round_trips():
    for style in ("en", "de", "ch", "accounting", "iso", "in"):
        for text in ("1234567.89", "-0.05", "0", "12"):
            m = Money.of(text, "EUR")
            assert parse_formatted(format_money(m, style), "EUR", style) == m


def test_parse_formatted_variants_and_errors():
    assert parse_formatted("1.234,5", "EUR", "de") == Money(123450, "EUR")
    assert parse_formatted("(12.05)", "USD", "accounting") == Money(-1205, "USD")
    assert parse_formatted("-\u20ac3", "EUR") == Money(-300, "EUR")
    with pytest.raises(ParseError):
        parse_formatted("(12.00", "USD")
    assert parse_formatted("JPY 1,000", "JPY") == Money(1000, "JPY")
    assert parse_formatted("BD 0.5", "BHD") == Money(500, "BHD")
    with pytest.raises(ParseError):
        parse_formatted("1.234", "USD")
    with pytest.raises(ParseError):
        parse_formatted("12a", "USD")
    with pytest.raises(ParseError):
        parse_formatted("1.x", "USD")
    with pytest.raises(ParseError):
        parse_formatted("", "USD")
