from fractions import Fraction

import pytest

from money.allocate import allocate, allocate_minor, allocate_percent, allocate_with_floor, prorate, split
from money.errors import AllocationError, CurrencyMismatchError
from money.money import Money


def minors(parts):
    return [p.minor for p in parts]


def test_allocate_minor_largest_remainder():
    assert allocate_minor(100, [1, 1, 1]) == [34, 33, 33]
    assert allocate_minor(5, [3, 7]) == [2, 3]
    assert allocate_minor(10, [1, 2, 3, 4]) == [1, 2, 3, 4]
    assert allocate_minor(7, [1, 1, 1, 1, 1]) == [2, 2, 1, 1, 1]
    # remainders .6 / .2 / .2: the first part gets the spare unit
    assert allocate_minor(11, [3, 1, 1]) == [7, 2, 2]
    # remainders .2 / .8: the second part gets it even though it comes later
    assert allocate_minor(2, [3, 2]) == [1, 1]
    assert allocate_minor(11, [1, 4]) == [2, 9]


def test_allocate_minor_keeps_every_unit():
    for amount in (0, 1, 99, 1000, 12345):
        for ratios in ([1], [1, 1], [2, 3, 5], [7, 0, 13, 1]):
            parts = allocate_minor(amount, ratios)
            assert sum(parts) == amount
            assert len(parts) == len(ratios)


def test_allocate_minor_zero_ratio_and_negative_amount():
    assert allocate_minor(10, [0, 1, 1]) == [0, 5, 5]
    assert allocate_minor(-100, [1, 1, 1]) == [-34, -33, -33]
    assert allocate_minor(-5, [1, 4]) == [-1, -4]
    assert allocate_minor(0, [1, 2]) == [0, 0]


def test_allocate_minor_fractional_ratios():
    assert allocate_minor(100, ["0.5", "0.25", "0.25"]) == [50, 25, 25]
    assert allocate_minor(10, [Fraction(1, 3), Fraction(2, 3)]) == [3, 7]


def test_allocate_ratio_errors():
    with pytest.raises(AllocationError):
        allocate_minor(10, [])
    with pytest.raises(AllocationError):
        allocate_minor(10, [0, 0])
    with pytest.raises(AllocationError):
        allocate_minor(10, [2, -1])
    with pytest.raises(TypeError):
        allocate_minor(10, [0.5, 0.5])


def test_allocate_and_split_money():
    parts = allocate(Money.of("100", "USD"), [1, 1, 1])
    assert parts == [Money(3334, "USD"), Money(3333, "USD"), Money(3333, "USD")]
    assert minors(split(Money.of("-0.05", "USD"), 3)) == [-2, -2, -1]
    assert minors(split(Money.of("10", "JPY"), 4)) == [3, 3, 2, 2]
    assert split(Money.of("1", "BHD"), 1) == [Money(1000, "BHD")]
    with pytest.raises(AllocationError):
        split(Money.of("1", "USD"), 0)
    with pytest.raises(TypeError):
        split(Money.of("1", "USD"), 2.0)
    with pytest.raises(TypeError):
        split(Money.of("1", "USD"), True)


def test_allocate_percent():
    assert minors(allocate_percent(Money.of("10", "USD"), ["33.3", "33.3", "33.4"])) == [333, 333, 334]
    assert minors(allocate_percent(Money.of("0.10", "USD"), [50, 50])) == [5, 5]
    with pytest.raises(AllocationError):
        allocate_percent(Money.of("1", "USD"), [50, 49])
    with pytest.raises(AllocationError):
        allocate_percent(Money.of("1", "USD"), [60, 50])


def test_prorate_by_amounts():
    total = Money.of("10.00", "USD")
    lines = [Money.of("30", "USD"), Money.of("60", "USD"), Money.of("10", "USD")]
    assert minors(prorate(total, lines)) == [300, 600, 100]
    assert minors(prorate(Money.of("0.01", "USD"), lines)) == [0, 1, 0]
    with pytest.raises(CurrencyMismatchError):
        prorate(total, [Money.of("1", "EUR")])
    with pytest.raises(TypeError):
        prorate(total, [1, 2])


def test_allocate_with_floor():
    total = Money.of("10.00", "USD")
    minimum = Money.of("1.00", "USD")
    assert minors(allocate_with_floor(total, [1, 0, 3], minimum)) == [275, 100, 625]
    assert minors(allocate_with_floor(Money.of("3", "USD"), [1, 2, 3], minimum)) == [100, 100, 100]
    with pytest.raises(AllocationError):
        allocate_with_floor(Money.of("2.99", "USD"), [1, 1, 1], minimum)
    with pytest.raises(CurrencyMismatchError):
        allocate_with_floor(total, [1], Money.of("1", "EUR"))
