"""Rate limiting algorithms with an injectable clock."""

from .base import (
    ConfigurationError,
    Decision,
    InvalidCost,
    RateLimitError,
    RateLimitExceeded,
    RateLimiter,
    retry_after_header,
    round_wait,
)
from .bucket import LeakyBucket, TokenBucket
from .clock import Clock, ClockError, ManualClock, OffsetClock, SystemClock
from .registry import CompositeLimiter, KeyedLimiter
from .window import FixedWindow, SlidingWindowCounter, SlidingWindowLog

__all__ = [
    "Clock",
    "ClockError",
    "CompositeLimiter",
    "ConfigurationError",
    "Decision",
    "FixedWindow",
    "InvalidCost",
    "KeyedLimiter",
    "LeakyBucket",
    "ManualClock",
    "OffsetClock",
    "RateLimitError",
    "RateLimitExceeded",
    "RateLimiter",
    "SlidingWindowCounter",
    "SlidingWindowLog",
    "SystemClock",
    "TokenBucket",
    "retry_after_header",
    "round_wait",
]
