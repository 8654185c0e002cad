import pytest

from ratelimit.base import ConfigurationError, InvalidCost, RateLimitExceeded
from ratelimit.bucket import LeakyBucket, TokenBucket
from ratelimit.clock import ManualClock


def test_token_bucket_allows_a_full_burst_then_denies():
    clock = ManualClock()
    bucket = TokenBucket(5, 1, clock)
    remaining = [bucket.try_acquire().remaining for _ in range(5)]
    assert remaining == [4, 3, 2, 1, 0]
    denied = bucket.try_acquire()
    assert denied.allowed is False
    assert denied.retry_after == 1.0
    assert denied.remaining == 0
    assert denied.limit == 5


def test_token_bucket_refills_continuously():
    clock = ManualClock()
    bucket = TokenBucket(4, 2, clock)
    bucket.try_acquire(4)
    clock.advance(1.25)
    assert bucket.remaining() == 2.5
    decision = bucket.try_acquire(3)
    assert decision.allowed is False
    assert decision.retry_after == 0.25
    clock.advance(0.25)
    assert bucket.try_acquire(3).remaining == 0


def test_token_bucket_never_exceeds_capacity():
    clock = ManualClock()
    bucket = TokenBucket(3, 1, clock)
    bucket.try_acquire(1)
    clock.advance(100)
    assert bucket.tokens == 3
    assert bucket.try_acquire(3).allowed
    assert bucket.try_acquire(1).allowed is False


def test_token_bucket_retry_after_does_not_consume():
    clock = ManualClock()
    bucket = TokenBucket(2, 0.5, clock)
    bucket.try_acquire(2)
    assert bucket.retry_after(1) == 2.0
    assert bucket.retry_after(2) == 4.0
    clock.advance(1)
    assert bucket.retry_after(1) == 1.0
    assert bucket.remaining() == 0.5


def test_token_bucket_initial_tokens():
    clock = ManualClock()
    bucket = TokenBucket(10, 5, clock, initial=0)
    assert bucket.remaining() == 0
    assert bucket.retry_after(2) == 0.4
    clock.advance(0.4)
    assert bucket.try_acquire(2).allowed
    assert TokenBucket(10, 5, clock, initial=10).remaining() == 10
    with pytest.raises(ValueError, match=r"\[0, 10\]"):
        TokenBucket(10, 5, clock, initial=11)
    with pytest.raises(ValueError):
        TokenBucket(10, 5, clock, initial=-1)


def test_token_bucket_configuration_errors():
    clock = ManualClock()
    with pytest.raises(ConfigurationError, match="capacity"):
        TokenBucket(0, 1, clock)
    with pytest.raises(ConfigurationError, match="rate"):
        TokenBucket(1, -1, clock)
    with pytest.raises(ConfigurationError, match="rate must be a number"):
        TokenBucket(1, "fast", clock)


def test_token_bucket_acquire_raises_with_retry_after():
    clock = ManualClock()
    bucket = TokenBucket(1, 4, clock, name="login")
    assert bucket.acquire().allowed
    with pytest.raises(RateLimitExceeded, match="login: rate limit exceeded") as info:
        bucket.acquire()
    assert info.value.retry_after == 0.25
    with pytest.raises(InvalidCost):
        bucket.acquire(2)


def test_token_bucket_time_to_full_and_refund():
    clock = ManualClock()
    bucket = TokenBucket(8, 2, clock)
    assert bucket.time_to_full() == 0.0
    bucket.try_acquire(6)
    assert bucket.time_to_full() == 3.0
    clock.advance(1)
    assert bucket.time_to_full() == 2.0
    assert bucket.refund(1) == 5
    assert bucket.refund(10) == 8
    with pytest.raises(ConfigurationError):
        bucket.refund(0)


def test_token_bucket_reset_restores_initial_state():
    clock = ManualClock()
    bucket = TokenBucket(4, 1, clock, initial=1)
    clock.advance(2)
    bucket.try_acquire(3)
    clock.advance(5)
    bucket.reset()
    assert bucket.remaining() == 1
    clock.advance(1)
    assert bucket.remaining() == 2


def test_leaky_bucket_fills_then_denies_until_it_leaks():
    clock = ManualClock()
    bucket = LeakyBucket(3, 1, clock)
    assert [bucket.try_acquire().remaining for _ in range(3)] == [2, 1, 0]
    denied = bucket.try_acquire()
    assert denied.allowed is False
    assert denied.retry_after == 1.0
    clock.advance(1)
    assert bucket.try_acquire().allowed
    assert bucket.try_acquire().allowed is False


def test_leaky_bucket_level_drains_to_zero():
    clock = ManualClock()
    bucket = LeakyBucket(4, 2, clock)
    bucket.try_acquire(3)
    assert bucket.level == 3
    clock.advance(0.5)
    assert bucket.level == 2
    assert bucket.drain_time() == 1.0
    clock.advance(5)
    assert bucket.level == 0
    assert bucket.remaining() == 4
    assert bucket.drain_time() == 0.0


def test_leaky_bucket_retry_after_for_large_cost():
    clock = ManualClock()
    bucket = LeakyBucket(3, 2, clock)
    bucket.try_acquire(2.5)
    assert bucket.retry_after(2) == 0.75
    assert bucket.retry_after(0.5) == 0.0
    clock.advance(0.75)
    decision = bucket.try_acquire(2)
    assert decision.allowed
    assert decision.remaining == 0


def test_leaky_bucket_schedule_queues_requests():
    clock = ManualClock()
    bucket = LeakyBucket(1, 1, clock)
    assert [bucket.schedule() for _ in range(3)] == [0.0, 1.0, 2.0]
    assert bucket.remaining() == 0
    clock.advance(1.5)
    assert bucket.level == 1.5
    assert bucket.schedule() == 1.5
    with pytest.raises(InvalidCost):
        bucket.schedule(2)


def test_leaky_bucket_reset_and_configuration():
    clock = ManualClock()
    bucket = LeakyBucket(2, 1, clock)
    bucket.try_acquire(2)
    bucket.reset()
    assert bucket.level == 0
    assert bucket.try_acquire(2).allowed
    with pytest.raises(ConfigurationError, match="leak_rate"):
        LeakyBucket(2, 0, clock)
    with pytest.raises(ConfigurationError, match="capacity"):
        LeakyBucket(-2, 1, clock)
