"""Limiters over many keys (per user, per IP...) and limiters made of several limiters."""

import threading
from collections import OrderedDict
from contextlib import ExitStack

from .base import ConfigurationError, Decision, RateLimiter, RateLimitExceeded, require_positive
from .clock import Clock, SystemClock


class KeyedLimiter:
    """Lazily creates one limiter per key with ``factory(key)``.

    Keys unused for ``idle_timeout`` seconds are evicted (swept at most once
    per ``idle_timeout`` during normal use, or on demand with ``evict_idle``),
    and when ``max_keys`` is set the least recently used key makes room for a
    new one.
    """

    def __init__(self, factory, clock: Clock = None, idle_timeout: float = None, max_keys: int = None):
        if not callable(factory):
            raise ConfigurationError("factory must be callable")
        if idle_timeout is not None:
            require_positive("idle_timeout", idle_timeout)
        if max_keys is not None and (isinstance(max_keys, bool) or not isinstance(max_keys, int) or max_keys < 1):
            raise ConfigurationError(f"max_keys must be a positive integer, got {max_keys!r}")
        self.factory = factory
        self.clock = clock if clock is not None else SystemClock()
        self.idle_timeout = idle_timeout
        self.max_keys = max_keys
        self.evicted = 0
        self._limiters = OrderedDict()
        self._last_seen = {}
        self._last_sweep = self.clock.now()
        self._lock = threading.Lock()

    def _build(self, key) -> RateLimiter:
        limiter = self.factory(key)
        if not isinstance(limiter, RateLimiter):
            raise TypeError(f"factory returned {type(limiter).__name__}, not a RateLimiter")
        return limiter

    def _drop(self, key) -> None:
        del self._limiters[key]
        del self._last_seen[key]
        self.evicted += 1

    def _sweep(self, now: float) -> list:
        cutoff = now - self.idle_timeout
        stale = [key for key, seen in self._last_seen.items() if seen <= cutoff]
        for key in stale:
            self._drop(key)
        self._last_sweep = now
        return stale

    def _get(self, key) -> RateLimiter:
        now = self.clock.now()
        if self.idle_timeout is not None and now - self._last_sweep >= self.idle_timeout:
            self._sweep(now)
        limiter = self._limiters.get(key)
        if limiter is None:
            limiter = self._build(key)
            if self.max_keys is not None:
                while len(self._limiters) >= self.max_keys:
                    oldest = next(iter(self._limiters))
                    self._drop(oldest)
            self._limiters[key] = limiter
        else:
            self._limiters.move_to_end(key)
        self._last_seen[key] = now
        return limiter

    def get(self, key) -> RateLimiter:
        """The limiter of ``key``, created if needed (this counts as a use)."""
        with self._lock:
            return self._get(key)

    def try_acquire(self, key, cost: float = 1) -> Decision:
        with self._lock:
            limiter = self._get(key)
        return limiter.try_acquire(cost)

    def acquire(self, key, cost: float = 1) -> Decision:
        decision = self.try_acquire(key, cost)
        if not decision.allowed:
            raise RateLimitExceeded(decision.retry_after, f"key {key!r}")
        return decision

    def retry_after(self, key, cost: float = 1) -> float:
        """Wait for ``key`` without creating it or counting a use."""
        with self._lock:
            limiter = self._limiters.get(key)
        if limiter is None:
            limiter = self._build(key)
        return limiter.retry_after(cost)

    def evict_idle(self) -> list:
        """Evicts every key idle for ``idle_timeout`` seconds and returns them."""
        if self.idle_timeout is None:
            return []
        with self._lock:
            return self._sweep(self.clock.now())

    def remove(self, key) -> bool:
        with self._lock:
            if key not in self._limiters:
                return False
            del self._limiters[key]
            del self._last_seen[key]
            return True

    def keys(self) -> list:
        """Keys from least to most recently used."""
        with self._lock:
            return list(self._limiters)

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._limiters

    def __len__(self) -> int:
        with self._lock:
            return len(self._limiters)


class CompositeLimiter(RateLimiter):
    """Grants a request only when every child limiter grants it.

    Either all children consume the cost or none does, so a denial by one
    child never uses up the allowance of the others.
    """

    def __init__(self, limiters, clock: Clock = None, name: str = None):
        limiters = list(limiters)
        if not limiters:
            raise ConfigurationError("a composite limiter needs at least one limiter")
        for limiter in limiters:
            if not isinstance(limiter, RateLimiter):
                raise TypeError(f"expected a RateLimiter, got {type(limiter).__name__}")
        super().__init__(clock if clock is not None else limiters[0].clock, name)
        self.limiters = limiters

    @property
    def capacity(self) -> float:
        return min(limiter.capacity for limiter in self.limiters)

    def _advance(self, now: float) -> None:
        for limiter in self.limiters:
            limiter._advance(limiter.clock.now())

    def _wait_time(self, cost: float, now: float) -> float:
        longest = 0.0
        for limiter in self.limiters:
            wait = limiter._wait_time(cost, limiter.clock.now())
            if wait > longest:
                longest = wait
        return longest

    def _consume(self, cost: float, now: float) -> None:
        for limiter in self.limiters:
            limiter._consume(cost, limiter.clock.now())
            limiter.allowed_count += 1

    def _available(self, now: float) -> float:
        return min(limiter._available(limiter.clock.now()) for limiter in self.limiters)

    def _clear(self) -> None:
        for limiter in self.limiters:
            limiter.reset()

    def try_acquire(self, cost: float = 1) -> Decision:
        with ExitStack() as stack:
            for limiter in self.limiters:
                stack.enter_context(limiter._lock)
            return super().try_acquire(cost)

    def blocking(self, cost: float = 1) -> list:
        """Names of the children that would currently deny ``cost``."""
        self._check_cost(cost)
        names = []
        for limiter in self.limiters:
            if limiter.retry_after(cost) > 0:
                names.append(limiter.name)
        return names
