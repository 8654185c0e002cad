"""Window algorithms: fixed window, sliding window log and sliding window counter."""

import math
from collections import deque

from .base import RateLimiter, require_positive
from .clock import Clock

# Tolerance for comparisons of estimated (weighted, hence float) usage.
EPSILON = 1e-9


class _WindowLimiter(RateLimiter):
    """Shared configuration of the window based limiters: ``limit`` units per ``window`` seconds."""

    def __init__(self, limit: float, window: float, clock: Clock = None, name: str = None):
        require_positive("limit", limit)
        require_positive("window", window)
        super().__init__(clock, name)
        self.limit = limit
        self.window = window

    @property
    def capacity(self) -> float:
        return self.limit


class FixedWindow(_WindowLimiter):
    """Counts usage in consecutive windows ``[origin + k*window, origin + (k+1)*window)``.

    Cheap, but allows up to twice the limit across a window boundary.
    """

    def __init__(self, limit: float, window: float, clock: Clock = None,
                 origin: float = 0.0, name: str = None):
        super().__init__(limit, window, clock, name)
        self.origin = origin
        self._count = 0
        self._start = self.window_start(self.clock.now())

    def window_start(self, now: float) -> float:
        """Start of the window containing ``now``."""
        index = math.floor((now - self.origin) / self.window)
        return self.origin + index * self.window

    def _advance(self, now: float) -> None:
        start = self.window_start(now)
        if start != self._start:
            self._start = start
            self._count = 0

    def _wait_time(self, cost: float, now: float) -> float:
        if self._count + cost <= self.limit:
            return 0.0
        return self._start + self.window - now

    def _consume(self, cost: float, now: float) -> None:
        self._count += cost

    def _available(self, now: float) -> float:
        return self.limit - self._count

    def _clear(self) -> None:
        self._count = 0
        self._start = self.window_start(self.clock.now())

    def resets_at(self) -> float:
        """Time at which the current window ends."""
        with self._lock:
            self._advance(self.clock.now())
            return self._start + self.window


class SlidingWindowLog(_WindowLimiter):
    """Remembers every granted request for one window; exact but memory hungry.

    A request is granted when the costs logged during the last ``window``
    seconds, plus its own, do not exceed ``limit``.
    """

    def __init__(self, limit: float, window: float, clock: Clock = None, name: str = None):
        super().__init__(limit, window, clock, name)
        self._log = deque()
        self._used = 0

    def _advance(self, now: float) -> None:
        cutoff = now - self.window
        while self._log and self._log[0][0] <= cutoff:
            _, cost = self._log.popleft()
            self._used -= cost

    def _wait_time(self, cost: float, now: float) -> float:
        excess = self._used + cost - self.limit
        if excess <= 0:
            return 0.0
        freed = 0
        for stamp, logged in self._log:
            freed += logged
            if freed >= excess:
                return stamp + self.window - now
        return self.window

    def _consume(self, cost: float, now: float) -> None:
        self._log.append((now, cost))
        self._used += cost

    def _available(self, now: float) -> float:
        return self.limit - self._used

    def _clear(self) -> None:
        self._log.clear()
        self._used = 0

    def __len__(self) -> int:
        """Number of requests currently remembered."""
        with self._lock:
            self._advance(self.clock.now())
            return len(self._log)

    def oldest(self):
        """Timestamp of the oldest remembered request, or None."""
        with self._lock:
            self._advance(self.clock.now())
            return self._log[0][0] if self._log else None


class SlidingWindowCounter(_WindowLimiter):
    """Approximates a sliding window from two fixed-window counters.

    The usage estimate is ``previous * overlap + current``, where ``overlap``
    is the fraction of the previous window still inside the sliding window.
    """

    def __init__(self, limit: float, window: float, clock: Clock = None, name: str = None):
        super().__init__(limit, window, clock, name)
        self._start = self._window_start(self.clock.now())
        self._current = 0
        self._previous = 0

    def _window_start(self, now: float) -> float:
        return math.floor(now / self.window) * self.window

    def _advance(self, now: float) -> None:
        start = self._window_start(now)
        if start <= self._start:
            return
        passed = round((start - self._start) / self.window)
        self._previous = self._current if passed == 1 else 0
        self._current = 0
        self._start = start

    def _overlap(self, now: float) -> float:
        return 1.0 - (now - self._start) / self.window

    def estimate(self) -> float:
        """Estimated usage of the sliding window ending now."""
        with self._lock:
            now = self.clock.now()
            self._advance(now)
            return round(self._estimate(now), 9)

    def _estimate(self, now: float) -> float:
        return self._previous * self._overlap(now) + self._current

    def _wait_time(self, cost: float, now: float) -> float:
        if self._estimate(now) + cost <= self.limit + EPSILON:
            return 0.0
        elapsed = now - self._start
        room = self.limit - self._current - cost
        if room >= 0 and self._previous > 0:
            # Wait until previous * (1 - f) <= room, f being the elapsed fraction.
            return (1.0 - room / self._previous) * self.window - elapsed
        until_next = self.window - elapsed
        room = self.limit - cost
        if self._current <= room:
            return until_next
        # In the next window the current count becomes the previous one.
        return until_next + (1.0 - room / self._current) * self.window

    def _consume(self, cost: float, now: float) -> None:
        self._current += cost

    def _available(self, now: float) -> float:
        free = self.limit - self._estimate(now)
        return round(free, 9) if free > 0 else 0.0

    def _clear(self) -> None:
        self._start = self._window_start(self.clock.now())
        self._current = 0
        self._previous = 0
