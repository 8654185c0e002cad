import time

import pytest

from ratelimit.clock import ClockError, ManualClock, OffsetClock, SystemClock


def test_manual_clock_starts_where_told_and_advances():
    clock = ManualClock()
    assert clock.now() == 0.0
    assert clock.advance(1.5) == 1.5
    assert clock.advance(2) == 3.5
    assert clock.now() == 3.5
    assert ManualClock(7).now() == 7.0


def test_manual_clock_refuses_to_go_backwards():
    clock = ManualClock(5)
    with pytest.raises(ClockError, match="negative amount"):
        clock.advance(-0.1)
    assert clock.advance(0) == 5.0
    with pytest.raises(ClockError, match="cannot move back from 5.0 to 4"):
        clock.set(4)
    clock.set(5)
    clock.set(9.25)
    assert clock.now() == 9.25
    with pytest.raises(ClockError):
        ManualClock(-1)


def test_elapsed_since_is_never_negative():
    clock = ManualClock(10)
    assert clock.elapsed_since(4) == 6
    assert clock.elapsed_since(9.5) == 0.5
    assert clock.elapsed_since(10) == 0.0
    assert clock.elapsed_since(12) == 0.0


def test_system_clock_reads_the_injected_time_function():
    ticks = iter([3, 4.5])
    clock = SystemClock(lambda: next(ticks))
    first = clock.now()
    assert first == 3.0 and isinstance(first, float)
    assert clock.now() == 4.5
    assert SystemClock()._time_func is time.monotonic


def test_offset_clock_follows_its_base():
    base = ManualClock(10)
    skewed = OffsetClock(base, -3)
    assert skewed.now() == 7
    base.advance(2)
    assert skewed.now() == 9
    skewed.offset = 1
    assert skewed.now() == 13
