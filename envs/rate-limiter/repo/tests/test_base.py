import dataclasses

import pytest

from ratelimit.base import (
    ConfigurationError,
    Decision,
    InvalidCost,
    RateLimitError,
    RateLimitExceeded,
    require_positive,
    retry_after_header,
    round_wait,
)
from ratelimit.bucket import TokenBucket
from ratelimit.clock import ManualClock


def test_round_wait_trims_float_noise_and_clamps_negatives():
    assert round_wait(0.30000000000000004) == 0.3
    assert round_wait(1.9999999999) == 2.0
    assert round_wait(0) == 0.0
    assert round_wait(-2.5) == 0.0
    assert round_wait(0.25) == 0.25


def test_retry_after_header_rounds_up_to_whole_seconds():
    assert retry_after_header(0.2) == "1"
    assert retry_after_header(2.0) == "2"
    assert retry_after_header(2.0000000001) == "2"
    assert retry_after_header(2.5) == "3"
    assert retry_after_header(0) == "0"
    assert retry_after_header(-4) == "0"


def test_require_positive_rejects_bad_numbers():
    require_positive("x", 0.001)
    with pytest.raises(ConfigurationError, match="x must be positive, got 0"):
        require_positive("x", 0)
    with pytest.raises(ConfigurationError, match="must be positive"):
        require_positive("x", -1)
    with pytest.raises(ConfigurationError, match="must be a number, got str"):
        require_positive("x", "3")
    with pytest.raises(ConfigurationError, match="got bool"):
        require_positive("x", True)


def test_decision_truthiness_and_headers():
    granted = Decision(True, 10, 3.7)
    denied = Decision(False, 10, 0.4, 1.25)
    assert bool(granted) is True
    assert bool(denied) is False
    assert granted.headers() == {"X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "3"}
    assert denied.headers() == {
        "X-RateLimit-Limit": "10",
        "X-RateLimit-Remaining": "0",
        "Retry-After": "2",
    }
    assert Decision(True, 5, -1).headers()["X-RateLimit-Remaining"] == "0"
    with pytest.raises(dataclasses.FrozenInstanceError):
        granted.allowed = False


def test_error_hierarchy_and_message():
    err = RateLimitExceeded(1.5, "api")
    assert isinstance(err, RateLimitError)
    assert err.retry_after == 1.5
    assert str(err) == "api: rate limit exceeded, retry after 1.5s"
    assert issubclass(InvalidCost, ValueError)
    assert issubclass(ConfigurationError, ValueError)


def test_cost_validation_is_shared_by_all_limiters():
    bucket = TokenBucket(3, 1, ManualClock())
    for bad in (0, -1, True, "1", None):
        with pytest.raises(InvalidCost):
            bucket.try_acquire(bad)
    with pytest.raises(InvalidCost, match="cost 4 exceeds the capacity 3 of TokenBucket"):
        bucket.retry_after(4)
    assert bucket.try_acquire(3).allowed
    assert bucket.try_acquire(0.5).allowed is False


def test_would_allow_and_counters():
    clock = ManualClock()
    bucket = TokenBucket(2, 1, clock, name="b")
    assert bucket.would_allow(2) is True
    bucket.try_acquire()
    assert bucket.would_allow(2) is False
    assert bucket.would_allow(1) is True
    bucket.try_acquire()
    bucket.try_acquire()
    bucket.try_acquire()
    assert (bucket.allowed_count, bucket.denied_count) == (2, 2)
    bucket.reset()
    assert (bucket.allowed_count, bucket.denied_count) == (0, 0)
    assert repr(bucket) == "<TokenBucket b capacity=2>"
