"""Clocks: every limiter reads time through one of these, so tests can drive time by hand."""

import time
from abc import ABC, abstractmethod


class ClockError(ValueError):
    """Raised when a clock is asked to move in an impossible way."""


class Clock(ABC):
    """A source of monotonic time, in seconds."""

    @abstractmethod
    def now(self) -> float:
        """Current time in seconds."""

    def elapsed_since(self, start: float) -> float:
        """Seconds since ``start``, never negative."""
        delta = self.now() - start
        return delta if delta > 0 else 0.0


class SystemClock(Clock):
    """Reads a monotonic time function (``time.monotonic`` by default)."""

    def __init__(self, time_func=None):
        self._time_func = time_func if time_func is not None else time.monotonic

    def now(self) -> float:
        return float(self._time_func())


class ManualClock(Clock):
    """A clock that only moves when told to."""

    def __init__(self, start: float = 0.0):
        if start < 0:
            raise ClockError("a manual clock cannot start before zero")
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        """Moves time forward by ``seconds`` and returns the new time."""
        if seconds < 0:
            raise ClockError(f"cannot advance by a negative amount ({seconds})")
        self._now += seconds
        return self._now

    def set(self, when: float) -> None:
        """Jumps to an absolute time, which must not be in the past."""
        if when < self._now:
            raise ClockError(f"cannot move back from {self._now} to {when}")
        self._now = float(when)


class OffsetClock(Clock):
    """Another clock shifted by a fixed offset (useful to simulate skewed hosts)."""

    def __init__(self, base: Clock, offset: float):
        self._base = base
        self.offset = offset

    def now(self) -> float:
        return self._base.now() + self.offset
