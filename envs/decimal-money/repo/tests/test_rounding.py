from decimal import Decimal
from fractions import Fraction

import pytest

from money.rounding import (
    RoundingMode,
    default_mode,
    divide,
    parse_mode,
    rescale,
    round_fraction,
    round_to_increment,
    rounding_context,
    to_fraction,
)

M = RoundingMode

# numerator / 10 for each mode: 25 -> 2.5, -25 -> -2.5, 26 -> 2.6, 24 -> 2.4, 35 -> 3.5, -21 -> -2.1
TABLE = {
    M.HALF_UP: [3, -3, 3, 2, 4, -2],
    M.HALF_DOWN: [2, -2, 3, 2, 3, -2],
    M.HALF_EVEN: [2, -2, 3, 2, 4, -2],
    M.UP: [3, -3, 3, 3, 4, -3],
    M.DOWN: [2, -2, 2, 2, 3, -2],
    M.CEILING: [3, -2, 3, 3, 4, -2],
    M.FLOOR: [2, -3, 2, 2, 3, -3],
}


@pytest.mark.parametrize("mode", list(M))
def test_divide_by_mode(mode):
    got = [divide(n, 10, mode) for n in (25, -25, 26, 24, 35, -21)]
    assert got == TABLE[mode]


def test_divide_half_modes_on_negative_non_ties():
    assert divide(-26, 10, M.HALF_UP) == -3
    assert divide(-24, 10, M.HALF_DOWN) == -2
    assert divide(-35, 10, M.HALF_EVEN) == -4
    assert divide(-15, 10, M.HALF_EVEN) == -2
    assert divide(-5, 10, M.HALF_EVEN) == 0


def test_divide_exact_and_negative_denominator():
    for mode in M:
        assert divide(30, 10, mode) == 3
        assert divide(-30, 10, mode) == -3
        assert divide(0, 7, mode) == 0
    assert divide(25, -10, M.HALF_UP) == -3
    assert divide(-25, -10, M.FLOOR) == 2
    assert divide(7, -2, M.CEILING) == -3
    with pytest.raises(ZeroDivisionError):
        divide(1, 0, M.UP)


def test_parse_mode_accepts_names():
    assert parse_mode("half-up") is M.HALF_UP
    assert parse_mode("HALF_EVEN") is M.HALF_EVEN
    assert parse_mode(" Half Down ") is M.HALF_DOWN
    assert parse_mode("ceiling") is M.CEILING
    assert parse_mode(M.FLOOR) is M.FLOOR
    with pytest.raises(ValueError):
        parse_mode("nearest")
    with pytest.raises(TypeError):
        parse_mode(3)


def test_rounding_context_nests_and_restores():
    assert default_mode() is M.HALF_EVEN
    assert divide(25, 10) == 2
    with rounding_context("half-up") as mode:
        assert mode is M.HALF_UP
        assert divide(25, 10) == 3
        with rounding_context(M.FLOOR):
            assert divide(-21, 10) == -3
        assert default_mode() is M.HALF_UP
    assert default_mode() is M.HALF_EVEN
    with pytest.raises(RuntimeError):
        with rounding_context("down"):
            raise RuntimeError("boom")
    assert default_mode() is M.HALF_EVEN


def test_to_fraction_is_exact_and_refuses_floats():
    assert to_fraction("0.1") == Fraction(1, 10)
    assert to_fraction(" -1_000.25 ") == Fraction(-400100, 400)
    assert to_fraction("1e-3") == Fraction(1, 1000)
    assert to_fraction(Decimal("2.50")) == Fraction(5, 2)
    assert to_fraction(7) == 7
    assert to_fraction(Fraction(1, 3)) == Fraction(1, 3)
    with pytest.raises(TypeError):
        to_fraction(0.1)
    with pytest.raises(TypeError):
        to_fraction(True)
    with pytest.raises(TypeError):
        to_fraction([1])
    with pytest.raises(ValueError):
        to_fraction("abc")
    with pytest.raises(ValueError):
        to_fraction(Decimal("NaN"))


def test_round_fraction():
    assert round_fraction(Fraction(7, 2), M.HALF_EVEN) == 4
    assert round_fraction("2.5", M.HALF_EVEN) == 2
    assert round_fraction("-2.5", "half-up") == -3
    assert round_fraction("1.0001", "ceiling") == 2


def test_rescale_between_exponents():
    assert rescale(1234, 2, 4) == 123400
    assert rescale(1234, 2, 2) == 1234
    assert rescale(12345, 3, 2, M.HALF_UP) == 1235
    assert rescale(12345, 3, 2, M.HALF_EVEN) == 1234
    assert rescale(-12345, 3, 0, M.DOWN) == -12
    assert rescale(199, 2, 0, M.FLOOR) == 1


def test_round_to_increment():
    assert round_to_increment(1232, 5, M.HALF_UP) == 1230
    assert round_to_increment(1233, 5, M.HALF_UP) == 1235
    assert round_to_increment(1237, 5, M.DOWN) == 1235
    assert round_to_increment(-1233, 5, M.HALF_UP) == -1235
    assert round_to_increment(150, 100, M.HALF_EVEN) == 200
    assert round_to_increment(-7, 1, M.UP) == -7
    with pytest.raises(ValueError):
        round_to_increment(10, 0)
