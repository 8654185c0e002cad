"""Intervals on an ordered numeric axis, with open or closed ends."""

_CLOSED_FLAGS = {
    "left": (True, False),
    "right": (False, True),
    "both": (True, True),
    "neither": (False, False),
}
_CLOSED_NAMES = {flags: name for name, flags in _CLOSED_FLAGS.items()}


class IntervalError(ValueError):
    """Raised for malformed intervals or impossible interval operations."""


class Interval:
    """An interval between ``begin`` and ``end``.

    ``closed`` says which ends belong to the interval: ``"left"`` (the
    default, ``[begin, end)``), ``"right"``, ``"both"`` or ``"neither"``.
    An interval may carry arbitrary ``data``; two intervals are equal when
    their bounds, closedness and data are all equal.
    """

    __slots__ = ("begin", "end", "data", "left_closed", "right_closed")

    def __init__(self, begin, end, data=None, closed="left"):
        try:
            left_closed, right_closed = _CLOSED_FLAGS[closed]
        except KeyError:
            raise IntervalError(f"closed must be one of {sorted(_CLOSED_FLAGS)}, not {closed!r}") from None
        if begin > end:
            raise IntervalError(f"begin {begin!r} is after end {end!r}")
        if begin == end and not (left_closed and right_closed):
            raise IntervalError(f"interval at {begin!r} is empty")
        self.begin = begin
        self.end = end
        self.data = data
        self.left_closed = left_closed
        self.right_closed = right_closed

    @classmethod
    def from_flags(cls, begin, end, left_closed, right_closed, data=None):
        if not (isinstance(left_closed, bool) and isinstance(right_closed, bool)):
            raise IntervalError("closedness flags must be booleans")
        return cls(begin, end, data, _CLOSED_NAMES[(left_closed, right_closed)])

    @classmethod
    def parse(cls, text, data=None):
        """Builds an interval from text such as ``"[1, 5)"`` or ``"(0.5,2]"``."""
        text = text.strip()
        if len(text) < 5 or text[0] not in "[(" or text[-1] not in "])":
            raise IntervalError(f"cannot parse interval {text!r}")
        parts = text[1:-1].split(",")
        if len(parts) != 2:
            raise IntervalError(f"cannot parse interval {text!r}")
        bounds = []
        for part in parts:
            try:
                bounds.append(int(part))
            except ValueError:
                try:
                    bounds.append(float(part))
                except ValueError:
                    raise IntervalError(f"bad bound {part!r} in {text!r}") from None
        return cls.from_flags(bounds[0], bounds[1], text[0] == "[", text[-1] == "]", data)

    @property
    def closed(self):
        return _CLOSED_NAMES[(self.left_closed, self.right_closed)]

    @property
    def length(self):
        return self.end - self.begin

    @property
    def midpoint(self):
        return (self.begin + self.end) / 2

    @property
    def sort_key(self):
        """Orders by begin (closed begins first), then by end (open ends first)."""
        return (self.begin, 0 if self.left_closed else 1, self.end, 1 if self.right_closed else 0)

    def is_point(self):
        return self.begin == self.end

    def contains_point(self, point):
        if point < self.begin or point > self.end:
            return False
        if point == self.begin and not self.left_closed:
            return False
        if point == self.end and not self.right_closed:
            return False
        return True

    def __contains__(self, point):
        return self.contains_point(point)

    def _lower(self, other):
        """The larger of the two begins, with its closedness."""
        if self.begin > other.begin:
            return self.begin, self.left_closed
        if other.begin > self.begin:
            return other.begin, other.left_closed
        return self.begin, self.left_closed and other.left_closed

    def _upper(self, other):
        """The smaller of the two ends, with its closedness."""
        if self.end < other.end:
            return self.end, self.right_closed
        if other.end < self.end:
            return other.end, other.right_closed
        return self.end, self.right_closed and other.right_closed

    def overlaps(self, other):
        lo, lo_closed = self._lower(other)
        hi, hi_closed = self._upper(other)
        if lo < hi:
            return True
        return lo == hi and lo_closed and hi_closed

    def overlaps_range(self, begin, end, closed="left"):
        return self.overlaps(Interval(begin, end, closed=closed))

    def touches(self, other):
        """True when the two intervals meet at one bound without overlapping
        and together cover that bound, such as ``[1, 3)`` and ``[3, 5)``."""
        if self.end == other.begin:
            return self.right_closed != other.left_closed
        if other.end == self.begin:
            return other.right_closed != self.left_closed
        return False

    def envelops(self, other):
        """True when every point of ``other`` lies in this interval."""
        if other.begin < self.begin or other.end > self.end:
            return False
        if other.begin == self.begin and other.left_closed and not self.left_closed:
            return False
        if other.end == self.end and other.right_closed and not self.right_closed:
            return False
        return True

    def intersection(self, other):
        """The common part of two intervals, or None when they do not overlap."""
        if not self.overlaps(other):
            return None
        lo, lo_closed = self._lower(other)
        hi, hi_closed = self._upper(other)
        return Interval.from_flags(lo, hi, lo_closed, hi_closed, self.data)

    def union(self, other):
        """The smallest interval covering both; they must overlap or touch."""
        if not (self.overlaps(other) or self.touches(other)):
            raise IntervalError(f"{self} and {other} are disjoint")
        if self.begin < other.begin:
            lo, lo_closed = self.begin, self.left_closed
        elif other.begin < self.begin:
            lo, lo_closed = other.begin, other.left_closed
        else:
            lo, lo_closed = self.begin, self.left_closed or other.left_closed
        if self.end > other.end:
            hi, hi_closed = self.end, self.right_closed
        elif other.end > self.end:
            hi, hi_closed = other.end, other.right_closed
        else:
            hi, hi_closed = self.end, self.right_closed or other.right_closed
        return Interval.from_flags(lo, hi, lo_closed, hi_closed, self.data)

    def difference(self, other):
        """The parts of this interval outside ``other``: a list of 0 to 2 intervals."""
        if not self.overlaps(other):
            return [self]
        pieces = []
        if self.begin <= other.begin:
            piece = _make(self.begin, other.begin, self.left_closed, not other.left_closed, self.data)
            if piece is not None:
                pieces.append(piece)
        if other.end <= self.end:
            piece = _make(other.end, self.end, not other.right_closed, self.right_closed, self.data)
            if piece is not None:
                pieces.append(piece)
        return pieces

    def distance_to(self, other):
        """Gap between two intervals, 0 when they overlap or touch."""
        if self.end <= other.begin:
            return other.begin - self.end
        if other.end <= self.begin:
            return self.begin - other.end
        return 0

    def replace(self, begin=None, end=None, data=None):
        return Interval.from_flags(
            self.begin if begin is None else begin,
            self.end if end is None else end,
            self.left_closed,
            self.right_closed,
            self.data if data is None else data,
        )

    def __eq__(self, other):
        if not isinstance(other, Interval):
            return NotImplemented
        return self.sort_key == other.sort_key and self.data == other.data

    def __hash__(self):
        return hash(self.sort_key)

    def __lt__(self, other):
        if not isinstance(other, Interval):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self):
        left = "[" if self.left_closed else "("
        right = "]" if self.right_closed else ")"
        return f"{left}{self.begin}, {self.end}{right}"

    def __repr__(self):
        extra = "" if self.data is None else f", {self.data!r}"
        return f"Interval({self.begin!r}, {self.end!r}{extra}, closed={self.closed!r})"


def _make(begin, end, left_closed, right_closed, data):
    """An interval with the given bounds, or None if it would be empty."""
    if begin > end:
        return None
    if begin == end and not (left_closed and right_closed):
        return None
    return Interval.from_flags(begin, end, left_closed, right_closed, data)
