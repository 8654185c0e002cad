import pytest

from ratelimit.base import ConfigurationError
from ratelimit.clock import ManualClock
from ratelimit.window import FixedWindow, SlidingWindowCounter, SlidingWindowLog


def test_fixed_window_counts_within_a_window():
    clock = ManualClock()
    limiter = FixedWindow(3, 10, clock)
    assert [limiter.try_acquire().remaining for _ in range(3)] == [2, 1, 0]
    denied = limiter.try_acquire()
    assert denied.allowed is False
    assert denied.retry_after == 10
    clock.set(9.5)
    assert limiter.retry_after() == 0.5
    clock.set(10)
    decision = limiter.try_acquire()
    assert decision.allowed and decision.remaining == 2


def test_fixed_window_allows_a_burst_across_the_boundary():
    clock = ManualClock(9)
    limiter = FixedWindow(3, 10, clock)
    assert limiter.try_acquire(3).allowed
    assert limiter.try_acquire(1).allowed is False
    clock.set(10)
    assert limiter.try_acquire(3).allowed
    assert limiter.allowed_count == 2


def test_fixed_window_multi_unit_costs():
    clock = ManualClock()
    limiter = FixedWindow(5, 60, clock)
    assert limiter.try_acquire(2).allowed
    assert limiter.try_acquire(3).allowed
    assert limiter.try_acquire(1).allowed is False
    clock.advance(59)
    assert limiter.retry_after(5) == 1.0
    clock.advance(1)
    assert limiter.try_acquire(5).allowed


def test_fixed_window_start_and_origin():
    clock = ManualClock(3)
    limiter = FixedWindow(1, 10, clock, origin=5)
    assert limiter.window_start(3) == -5
    assert limiter.window_start(5) == 5
    assert limiter.window_start(14.9) == 5
    assert limiter.window_start(15) == 15
    assert limiter.resets_at() == 5
    limiter.try_acquire()
    assert limiter.retry_after() == 2.0
    clock.set(5)
    assert limiter.try_acquire().allowed
    assert limiter.resets_at() == 15
    assert FixedWindow(1, 10, clock).window_start(25) == 20


def test_fixed_window_forgets_skipped_windows_and_resets():
    clock = ManualClock()
    limiter = FixedWindow(2, 10, clock)
    limiter.try_acquire(2)
    clock.set(35)
    assert limiter.remaining() == 2
    limiter.try_acquire(2)
    limiter.reset()
    assert limiter.remaining() == 2
    with pytest.raises(ConfigurationError, match="window"):
        FixedWindow(2, 0, clock)
    with pytest.raises(ConfigurationError, match="limit"):
        FixedWindow(0, 10, clock)


def test_sliding_log_expires_entries_exactly_one_window_later():
    clock = ManualClock()
    limiter = SlidingWindowLog(3, 10, clock)
    for t in (0, 1, 2):
        clock.set(t)
        assert limiter.try_acquire().allowed
    clock.set(5)
    denied = limiter.try_acquire()
    assert denied.allowed is False
    assert denied.retry_after == 5
    clock.set(9.75)
    assert limiter.retry_after() == 0.25
    clock.set(10)
    assert limiter.try_acquire().allowed
    assert limiter.try_acquire().allowed is False
    assert limiter.retry_after() == 1.0


def test_sliding_log_retry_after_accumulates_costs():
    clock = ManualClock()
    limiter = SlidingWindowLog(5, 10, clock)
    for t, cost in ((0, 2), (4, 2), (6, 1)):
        clock.set(t)
        assert limiter.try_acquire(cost).allowed
    clock.set(7)
    assert limiter.retry_after(1) == 3
    assert limiter.retry_after(2) == 3
    assert limiter.retry_after(3) == 7
    assert limiter.retry_after(5) == 9
    clock.set(14)
    assert limiter.remaining() == 4
    assert limiter.try_acquire(4).allowed
    assert limiter.try_acquire(1).allowed is False


def test_sliding_log_length_oldest_and_reset():
    clock = ManualClock()
    limiter = SlidingWindowLog(10, 5, clock)
    assert limiter.oldest() is None
    for t in (1, 2, 3):
        clock.set(t)
        limiter.try_acquire()
    assert len(limiter) == 3
    assert limiter.oldest() == 1
    clock.set(6.5)
    assert len(limiter) == 2
    assert limiter.oldest() == 2
    assert limiter.remaining() == 8
    limiter.reset()
    assert len(limiter) == 0
    assert limiter.remaining() == 10


def test_sliding_counter_weights_the_previous_window():
    clock = ManualClock(2)
    limiter = SlidingWindowCounter(10, 10, clock)
    assert limiter.try_acquire(10).allowed
    clock.set(15)
    assert limiter.estimate() == 5
    assert limiter.remaining() == 5
    clock.set(17.5)
    assert limiter.estimate() == 2.5
    assert limiter.try_acquire(7).allowed
    assert limiter.estimate() == 9.5
    assert limiter.try_acquire(1).allowed is False


def test_sliding_counter_retry_after_within_the_window():
    clock = ManualClock()
    limiter = SlidingWindowCounter(10, 10, clock)
    limiter.try_acquire(10)
    clock.set(15)
    assert limiter.try_acquire(3).allowed
    denied = limiter.try_acquire(4)
    assert denied.allowed is False
    assert denied.retry_after == 2.0
    clock.set(16.5)
    assert limiter.try_acquire(4).allowed is False
    clock.set(17)
    assert limiter.try_acquire(4).allowed
    assert limiter.remaining() == 0


def test_sliding_counter_retry_after_spilling_into_the_next_window():
    clock = ManualClock(2)
    limiter = SlidingWindowCounter(10, 10, clock)
    limiter.try_acquire(10)
    clock.set(5)
    assert limiter.retry_after(1) == 6.0
    assert limiter.retry_after(10) == 15.0
    clock.set(10.5)
    assert limiter.try_acquire(1).allowed is False
    clock.set(11)
    assert limiter.try_acquire(1).allowed


def test_sliding_counter_forgets_after_two_windows():
    clock = ManualClock()
    limiter = SlidingWindowCounter(4, 10, clock)
    limiter.try_acquire(4)
    clock.set(25)
    assert limiter.estimate() == 0
    assert limiter.try_acquire(4).allowed
    limiter.reset()
    assert limiter.estimate() == 0
    assert limiter.remaining() == 4


def test_sliding_counter_waits_for_the_next_window_when_current_is_too_full():
    clock = ManualClock(100)
    limiter = SlidingWindowCounter(10, 10, clock)
    limiter.try_acquire(2)
    clock.set(110)
    assert limiter.estimate() == 2
    assert limiter.try_acquire(8).allowed
    assert limiter.try_acquire(4).allowed is False
    assert limiter.retry_after(4) == 12.5
    clock.set(122)
    assert limiter.try_acquire(4).allowed is False
    clock.set(122.5)
    assert limiter.estimate() == 6
    assert limiter.try_acquire(4).allowed


def test_sliding_counter_fractional_costs():
    clock = ManualClock()
    limiter = SlidingWindowCounter(10, 10, clock)
    limiter.try_acquire(10)
    clock.set(15)
    assert limiter.try_acquire(5).allowed
    assert limiter.retry_after(4.5) == 4.5
    assert limiter.retry_after(5) == 5.0
    clock.set(19.5)
    assert limiter.try_acquire(4.5).allowed
    assert limiter.remaining() == 0
