"""The shared limiter base class, its decision record and retry-after helpers."""

import math
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .clock import Clock, SystemClock

# Float arithmetic on times such as 0.1 leaves noise in the last bits; waits
# are rounded to this many decimals so that they compare and print cleanly.
PRECISION = 9


class RateLimitError(Exception):
    """Base class of every error raised by this package."""


class ConfigurationError(RateLimitError, ValueError):
    """A limiter was built with impossible parameters."""


class InvalidCost(RateLimitError, ValueError):
    """A request asked for a cost the limiter can never grant."""


class RateLimitExceeded(RateLimitError):
    """Raised by ``acquire`` when a request is denied."""

    def __init__(self, retry_after: float, limiter_name: str = "limiter"):
        super().__init__(f"{limiter_name}: rate limit exceeded, retry after {retry_after:g}s")
        self.retry_after = retry_after


def round_wait(seconds: float) -> float:
    """Rounds a wait to PRECISION decimals; negative waits become zero."""
    if seconds <= 0:
        return 0.0
    return round(seconds, PRECISION)


def retry_after_header(seconds: float) -> str:
    """Value of an HTTP Retry-After header: whole seconds, rounded up."""
    if seconds <= 0:
        return "0"
    return str(math.ceil(round(seconds, PRECISION)))


def require_positive(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigurationError(f"{name} must be a number, got {type(value).__name__}")
    if not value > 0:
        raise ConfigurationError(f"{name} must be positive, got {value}")


@dataclass(frozen=True)
class Decision:
    """Outcome of one request against a limiter."""

    allowed: bool
    limit: float
    remaining: float
    retry_after: float = 0.0

    def __bool__(self) -> bool:
        return self.allowed

    def headers(self) -> dict:
        """Conventional rate-limit response headers for this decision."""
        result = {
            "X-RateLimit-Limit": str(int(self.limit)),
            "X-RateLimit-Remaining": str(max(0, math.floor(self.remaining))),
        }
        if not self.allowed:
            result["Retry-After"] = retry_after_header(self.retry_after)
        return result


class RateLimiter(ABC):
    """Common behaviour of all limiters.

    Subclasses keep their own state and implement four hooks, always called
    with the limiter's lock held and with ``now`` read from its clock:
    ``_advance`` brings the state up to ``now``, ``_wait_time`` says how long
    a request of ``cost`` must wait (0 when it fits now), ``_consume`` records
    a granted request and ``_available`` reports the remaining allowance.
    """

    def __init__(self, clock: Clock = None, name: str = None):
        self.clock = clock if clock is not None else SystemClock()
        self.name = name if name is not None else type(self).__name__
        self._lock = threading.RLock()
        self.allowed_count = 0
        self.denied_count = 0

    @property
    @abstractmethod
    def capacity(self) -> float:
        """The largest cost a single request may ever be granted."""

    @abstractmethod
    def _advance(self, now: float) -> None:
        ...

    @abstractmethod
    def _wait_time(self, cost: float, now: float) -> float:
        ...

    @abstractmethod
    def _consume(self, cost: float, now: float) -> None:
        ...

    @abstractmethod
    def _available(self, now: float) -> float:
        ...

    @abstractmethod
    def _clear(self) -> None:
        ...

    def _check_cost(self, cost) -> None:
        if isinstance(cost, bool) or not isinstance(cost, (int, float)):
            raise InvalidCost(f"cost must be a number, got {type(cost).__name__}")
        if cost <= 0:
            raise InvalidCost(f"cost must be positive, got {cost}")
        if cost > self.capacity:
            raise InvalidCost(f"cost {cost} exceeds the capacity {self.capacity:g} of {self.name}")

    def try_acquire(self, cost: float = 1) -> Decision:
        """Grants ``cost`` units if possible; never raises for a denial."""
        self._check_cost(cost)
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            wait = round_wait(self._wait_time(cost, now))
            if wait == 0:
                self._consume(cost, now)
                self.allowed_count += 1
                return Decision(True, self.capacity, self._available(now), 0.0)
            self.denied_count += 1
            return Decision(False, self.capacity, self._available(now), wait)

    def acquire(self, cost: float = 1) -> Decision:
        """Like ``try_acquire`` but raises RateLimitExceeded on denial."""
        decision = self.try_acquire(cost)
        if not decision.allowed:
            raise RateLimitExceeded(decision.retry_after, self.name)
        return decision

    def retry_after(self, cost: float = 1) -> float:
        """Seconds until ``cost`` could be granted, without consuming anything."""
        self._check_cost(cost)
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            return round_wait(self._wait_time(cost, now))

    def would_allow(self, cost: float = 1) -> bool:
        return self.retry_after(cost) == 0

    def remaining(self) -> float:
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            return self._available(now)

    def reset(self) -> None:
        """Forgets all usage, as if the limiter were new."""
        with self._lock:
            self._clear()
            self.allowed_count = 0
            self.denied_count = 0

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} capacity={self.capacity:g}>"
