"""Operations on whole collections of intervals."""

from .interval import Interval, IntervalError


def _sorted(intervals):
    return sorted(intervals, key=lambda iv: iv.sort_key)


def merge_overlaps(intervals, adjacent=False, data_reducer=None):
    """Merges overlapping intervals into a sorted list of disjoint ones.

    With ``adjacent=True`` intervals that merely touch, such as ``[1, 3)``
    and ``[3, 5)``, are merged as well. ``data_reducer(a, b)`` combines the
    data of merged intervals; without it the results carry no data.
    """
    merged = []
    for interval in _sorted(intervals):
        if merged and (merged[-1].overlaps(interval) or (adjacent and merged[-1].touches(interval))):
            last = merged[-1]
            joined = last.union(interval)
            data = data_reducer(last.data, interval.data) if data_reducer is not None else None
            merged[-1] = Interval.from_flags(joined.begin, joined.end, joined.left_closed, joined.right_closed, data)
        else:
            data = interval.data if data_reducer is not None else None
            merged.append(Interval.from_flags(interval.begin, interval.end, interval.left_closed, interval.right_closed, data))
    return merged


def total_length(intervals):
    """Length of the union of the intervals."""
    return sum(iv.length for iv in merge_overlaps(intervals))


def _gap(begin, begin_closed, end, end_closed):
    """The stretch between two bounds, or None when it holds no point."""
    if begin > end:
        return None
    if begin == end and not (begin_closed and end_closed):
        return None
    return Interval.from_flags(begin, end, begin_closed, end_closed)


def gaps(intervals, within=None):
    """The uncovered stretches between the intervals, in order. With an
    interval ``within``, only gaps inside it are reported, including those
    before the first and after the last interval."""
    merged = merge_overlaps(intervals, adjacent=True)
    if within is not None:
        clipped = []
        for interval in merged:
            part = interval.intersection(within)
            if part is not None:
                clipped.append(part)
        merged = clipped
        if not merged:
            return [within.replace()]
    out = []
    if within is not None:
        first = merged[0]
        piece = _gap(within.begin, within.left_closed, first.begin, not first.left_closed)
        if piece is not None:
            out.append(piece)
    for left, right in zip(merged, merged[1:]):
        piece = _gap(left.end, not left.right_closed, right.begin, not right.left_closed)
        if piece is not None:
            out.append(piece)
    if within is not None:
        last = merged[-1]
        piece = _gap(last.end, not last.right_closed, within.end, within.right_closed)
        if piece is not None:
            out.append(piece)
    return out


def max_depth(intervals):
    """The largest number of intervals sharing a common point, and the
    first point (or open stretch start) where that depth is reached."""
    events = []
    for iv in intervals:
        # rank 1 means "at the coordinate", rank 2 "just after it".
        events.append((iv.begin, 1 if iv.left_closed else 2, 1))
        events.append((iv.end, 2 if iv.right_closed else 1, 0))
    # At equal positions removals (kind 0) run before additions (kind 1).
    events.sort()
    depth = best = 0
    where = None
    for position, _rank, kind in events:
        if kind == 1:
            depth += 1
            if depth > best:
                best = depth
                where = position
        else:
            depth -= 1
    return best, where


def coverage(intervals, begin, end):
    """Share of [begin, end) covered by the intervals, between 0 and 1."""
    if end <= begin:
        raise IntervalError("coverage needs a non-empty range")
    window = Interval(begin, end)
    covered = 0
    for interval in merge_overlaps(intervals):
        part = interval.intersection(window)
        if part is not None:
            covered += part.length
    return covered / (end - begin)


def split_at(tree, point):
    """Splits every interval of tree strictly containing point into a piece
    ending (open) at point and one starting (closed) at point. Returns how
    many intervals were split."""
    targets = [iv for iv in tree.at(point) if iv.begin < point < iv.end]
    for interval in targets:
        tree.discard(interval)
        tree.add(Interval.from_flags(interval.begin, point, interval.left_closed, False, interval.data))
        tree.add(Interval.from_flags(point, interval.end, True, interval.right_closed, interval.data))
    return len(targets)


def chop(tree, begin, end, closed="left"):
    """Removes the region between begin and end from every interval of the
    tree, keeping what lies outside it. Returns how many were changed."""
    region = Interval(begin, end, closed=closed)
    touched = tree.overlap(region)
    for interval in touched:
        tree.discard(interval)
        for piece in interval.difference(region):
            tree.add(piece)
    return len(touched)


def find_nested(intervals):
    """Maps each interval to the intervals it envelops, for those that
    envelop at least one other interval."""
    ordered = _sorted(intervals)
    result = {}
    for i, outer in enumerate(ordered):
        inner = []
        for j in range(i + 1, len(ordered)):
            candidate = ordered[j]
            if candidate.begin > outer.end:
                break
            if outer.envelops(candidate):
                inner.append(candidate)
        if inner:
            result[outer] = inner
    return result
