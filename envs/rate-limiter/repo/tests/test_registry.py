import pytest

from ratelimit.base import ConfigurationError, InvalidCost, RateLimitExceeded
from ratelimit.bucket import LeakyBucket, TokenBucket
from ratelimit.clock import ManualClock
from ratelimit.registry import CompositeLimiter, KeyedLimiter
from ratelimit.window import FixedWindow, SlidingWindowLog


def make_registry(clock, **kwargs):
    return KeyedLimiter(lambda key: TokenBucket(2, 1, clock), clock, **kwargs)


def test_keys_have_independent_limiters():
    clock = ManualClock()
    registry = make_registry(clock)
    assert registry.try_acquire("a").allowed
    assert registry.try_acquire("a").allowed
    denied = registry.try_acquire("a")
    assert denied.allowed is False and denied.retry_after == 1.0
    assert registry.try_acquire("b").remaining == 1
    assert registry.get("a") is registry.get("a")
    assert len(registry) == 2


def test_factory_receives_the_key():
    clock = ManualClock()
    registry = KeyedLimiter(lambda key: FixedWindow(5 if key == "vip" else 1, 60, clock), clock)
    assert registry.try_acquire("vip", 5).allowed
    assert registry.try_acquire("guest").allowed
    assert registry.try_acquire("guest").allowed is False
    with pytest.raises(InvalidCost):
        registry.try_acquire("guest", 2)


def test_acquire_raises_for_the_key():
    clock = ManualClock()
    registry = make_registry(clock)
    registry.acquire("user-1", 2)
    with pytest.raises(RateLimitExceeded, match="key 'user-1'") as info:
        registry.acquire("user-1")
    assert info.value.retry_after == 1.0


def test_max_keys_evicts_the_least_recently_used():
    clock = ManualClock()
    registry = make_registry(clock, max_keys=2)
    registry.try_acquire("a")
    registry.try_acquire("b")
    registry.try_acquire("a")
    assert registry.keys() == ["b", "a"]
    registry.try_acquire("c")
    assert registry.keys() == ["a", "c"]
    assert "b" not in registry
    assert registry.evicted == 1
    assert registry.try_acquire("a").allowed is False


def test_evict_idle_removes_keys_unused_for_the_timeout():
    clock = ManualClock()
    registry = make_registry(clock, idle_timeout=10)
    registry.try_acquire("a")
    clock.set(5)
    registry.try_acquire("b")
    clock.set(9.5)
    assert registry.evict_idle() == []
    clock.set(12)
    assert registry.evict_idle() == ["a"]
    assert "a" not in registry and "b" in registry
    clock.set(15)
    assert registry.evict_idle() == ["b"]
    assert len(registry) == 0
    assert registry.evicted == 2


def test_idle_keys_are_swept_during_normal_use():
    clock = ManualClock()
    registry = make_registry(clock, idle_timeout=10)
    registry.try_acquire("a", 2)
    clock.set(9)
    registry.try_acquire("b")
    assert registry.keys() == ["a", "b"]
    clock.set(10)
    registry.try_acquire("b")
    assert registry.keys() == ["b"]
    assert registry.try_acquire("a", 2).allowed


def test_evict_idle_without_timeout_does_nothing():
    clock = ManualClock()
    registry = make_registry(clock)
    registry.try_acquire("a")
    clock.advance(1000)
    assert registry.evict_idle() == []
    assert registry.keys() == ["a"]


def test_retry_after_does_not_create_keys():
    clock = ManualClock()
    registry = KeyedLimiter(lambda key: TokenBucket(2, 1, clock, initial=0), clock)
    assert registry.retry_after("new", 2) == 2.0
    assert "new" not in registry
    registry.try_acquire("old")
    clock.advance(0.5)
    assert registry.retry_after("old") == 0.5


def test_remove_and_configuration_errors():
    clock = ManualClock()
    registry = make_registry(clock)
    registry.try_acquire("a")
    assert registry.remove("a") is True
    assert registry.remove("a") is False
    assert registry.evicted == 0
    with pytest.raises(ConfigurationError, match="callable"):
        KeyedLimiter(42, clock)
    with pytest.raises(ConfigurationError, match="max_keys"):
        make_registry(clock, max_keys=0)
    with pytest.raises(ConfigurationError, match="max_keys"):
        make_registry(clock, max_keys=True)
    with pytest.raises(ConfigurationError, match="max_keys"):
        make_registry(clock, max_keys=2.5)
    with pytest.raises(ConfigurationError, match="idle_timeout"):
        make_registry(clock, idle_timeout=-5)
    with pytest.raises(TypeError, match="not a RateLimiter"):
        KeyedLimiter(lambda key: object(), clock).get("x")


def test_composite_requires_every_limiter():
    clock = ManualClock()
    burst = TokenBucket(5, 1, clock, name="burst")
    hourly = FixedWindow(3, 10, clock, name="window")
    both = CompositeLimiter([burst, hourly])
    assert [both.try_acquire().remaining for _ in range(3)] == [2, 1, 0]
    clock.set(3)
    denied = both.try_acquire()
    assert denied.allowed is False
    assert denied.retry_after == 7
    assert both.blocking() == ["window"]
    assert burst.remaining() == 5


def test_composite_denial_consumes_nothing():
    clock = ManualClock()
    strict = TokenBucket(1, 0.5, clock, name="strict")
    loose = SlidingWindowLog(5, 60, clock, name="loose")
    both = CompositeLimiter([loose, strict], name="both")
    assert both.try_acquire().allowed
    denied = both.try_acquire()
    assert denied.retry_after == 2.0
    assert loose.remaining() == 4
    assert both.blocking() == ["strict"]
    with pytest.raises(RateLimitExceeded, match="both"):
        both.acquire()
    assert (loose.allowed_count, strict.allowed_count, both.denied_count) == (1, 1, 2)


def test_composite_capacity_remaining_and_reset():
    clock = ManualClock()
    a = TokenBucket(4, 1, clock)
    b = LeakyBucket(3, 1, clock)
    both = CompositeLimiter([a, b])
    assert both.capacity == 3
    with pytest.raises(InvalidCost):
        both.try_acquire(4)
    both.try_acquire(2)
    assert both.remaining() == 1
    clock.advance(1)
    assert both.remaining() == 2
    assert (a.remaining(), b.remaining()) == (3, 2)
    both.reset()
    assert (a.remaining(), b.remaining()) == (4, 3)


def test_composite_uses_the_first_child_clock_by_default():
    first, second, own = ManualClock(1), ManualClock(2), ManualClock(3)
    both = CompositeLimiter([TokenBucket(1, 1, first), TokenBucket(1, 1, second)])
    assert both.clock is first
    assert CompositeLimiter([TokenBucket(1, 1, first)], clock=own).clock is own


def test_composite_configuration_errors():
    with pytest.raises(ConfigurationError, match="at least one"):
        CompositeLimiter([])
    with pytest.raises(TypeError, match="got int"):
        CompositeLimiter([TokenBucket(1, 1, ManualClock()), 3])


@pytest.mark.parametrize(
    "build",
    [
        lambda c: TokenBucket(3, 0.75, c),
        lambda c: LeakyBucket(3, 0.75, c),
        lambda c: FixedWindow(3, 7, c),
        lambda c: SlidingWindowLog(3, 7, c),
        lambda c: CompositeLimiter([TokenBucket(3, 1, c), SlidingWindowLog(4, 9, c)]),
    ],
    ids=["token", "leaky", "fixed", "log", "composite"],
)
def test_retry_after_is_exact(build):
    clock = ManualClock()
    limiter = build(clock)
    steps = [0.3, 0.0, 0.9, 0.1, 2.2]
    denials = 0
    for step in steps * 3:
        clock.advance(step)
        decision = limiter.try_acquire(2)
        if decision.allowed:
            continue
        denials += 1
        wait = decision.retry_after
        assert wait > 0
        start = clock.now()
        clock.set(start + wait - 0.01)
        assert limiter.would_allow(2) is False
        clock.set(start + wait)
        assert limiter.would_allow(2) is True
    assert denials >= 3
