"""Augmented AVL interval tree with open and closed interval ends."""

from .interval import Interval, IntervalError
from .tree import EmptyTreeError, IntervalTree
from .ops import (
    chop,
    coverage,
    find_nested,
    gaps,
    max_depth,
    merge_overlaps,
    split_at,
    total_length,
)

__all__ = [
    "Interval",
    "IntervalError",
    "IntervalTree",
    "EmptyTreeError",
    "chop",
    "coverage",
    "find_nested",
    "gaps",
    "max_depth",
    "merge_overlaps",
    "split_at",
    "total_length",
]
