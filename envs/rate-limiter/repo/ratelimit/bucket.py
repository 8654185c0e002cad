"""Bucket algorithms: the token bucket and the leaky bucket (as a meter)."""

from .base import RateLimiter, require_positive, round_wait
from .clock import Clock


class TokenBucket(RateLimiter):
    """Holds up to ``capacity`` tokens, refilled continuously at ``rate`` per second.

    A request of cost ``c`` is granted when at least ``c`` tokens are present,
    which allows bursts of up to ``capacity`` after an idle period.
    """

    def __init__(self, capacity: float, rate: float, clock: Clock = None,
                 initial: float = None, name: str = None):
        require_positive("capacity", capacity)
        require_positive("rate", rate)
        super().__init__(clock, name)
        if initial is None:
            initial = capacity
        elif initial < 0 or initial > capacity:
            raise ValueError(f"initial tokens must lie in [0, {capacity}], got {initial}")
        self._capacity = capacity
        self.rate = rate
        self._initial = initial
        self._tokens = float(initial)
        self._updated = self.clock.now()

    @property
    def capacity(self) -> float:
        return self._capacity

    @property
    def tokens(self) -> float:
        return self.remaining()

    def _advance(self, now: float) -> None:
        elapsed = now - self._updated
        if elapsed <= 0:
            return
        self._tokens = min(self._capacity, self._tokens + elapsed * self.rate)
        self._updated = now

    def _wait_time(self, cost: float, now: float) -> float:
        missing = cost - self._tokens
        if missing <= 0:
            return 0.0
        return missing / self.rate

    def _consume(self, cost: float, now: float) -> None:
        self._tokens -= cost

    def _available(self, now: float) -> float:
        return round(self._tokens, 9)

    def _clear(self) -> None:
        self._tokens = float(self._initial)
        self._updated = self.clock.now()

    def time_to_full(self) -> float:
        """Seconds until the bucket holds its full capacity again."""
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            return round_wait((self._capacity - self._tokens) / self.rate)

    def refund(self, amount: float) -> float:
        """Gives back tokens (e.g. for a cancelled request); returns the new count."""
        require_positive("amount", amount)
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            self._tokens = min(self._capacity, self._tokens + amount)
            return self._available(now)


class LeakyBucket(RateLimiter):
    """A bucket of size ``capacity`` that drains at ``leak_rate`` units per second.

    Each granted request pours its cost in; a request is denied while it would
    overflow the bucket. Unlike the token bucket it starts empty, and its
    output is smoothed to the leak rate once the bucket is full.
    """

    def __init__(self, capacity: float, leak_rate: float, clock: Clock = None, name: str = None):
        require_positive("capacity", capacity)
        require_positive("leak_rate", leak_rate)
        super().__init__(clock, name)
        self._capacity = capacity
        self.leak_rate = leak_rate
        self._level = 0.0
        self._updated = self.clock.now()

    @property
    def capacity(self) -> float:
        return self._capacity

    @property
    def level(self) -> float:
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            return round(self._level, 9)

    def _advance(self, now: float) -> None:
        elapsed = now - self._updated
        if elapsed <= 0:
            return
        leaked = elapsed * self.leak_rate
        self._level = self._level - leaked if leaked < self._level else 0.0
        self._updated = now

    def _wait_time(self, cost: float, now: float) -> float:
        overflow = self._level + cost - self._capacity
        if overflow <= 0:
            return 0.0
        return overflow / self.leak_rate

    def _consume(self, cost: float, now: float) -> None:
        self._level += cost

    def _available(self, now: float) -> float:
        free = self._capacity - self._level
        return round(free, 9) if free > 0 else 0.0

    def _clear(self) -> None:
        self._level = 0.0
        self._updated = self.clock.now()

    def drain_time(self) -> float:
        """Seconds until the bucket is empty."""
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            return round_wait(self._level / self.leak_rate)

    def schedule(self, cost: float = 1) -> float:
        """Queue-style use: always admits the request and returns how long it
        must be delayed so that the bucket never overflows."""
        self._check_cost(cost)
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            delay = round_wait(self._wait_time(cost, now))
            self._level += cost
            return delay
