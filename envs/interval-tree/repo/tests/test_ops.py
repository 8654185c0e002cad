import pytest

from intervaltree import (
    Interval,
    IntervalError,
    IntervalTree,
    chop,
    coverage,
    find_nested,
    gaps,
    max_depth,
    merge_overlaps,
    split_at,
    total_length,
)


def iv(text, data=None):
    return Interval.parse(text, data)


def texts(intervals):
    return [str(x) for x in intervals]


def test_merge_overlaps_joins_overlapping_only():
    items = [iv("[5, 8)"), iv("[1, 3)"), iv("[2, 4)"), iv("[4, 5)"), iv("[10, 12)")]
    assert texts(merge_overlaps(items)) == ["[1, 4)", "[4, 5)", "[5, 8)", "[10, 12)"]
    assert texts(merge_overlaps(items, adjacent=True)) == ["[1, 8)", "[10, 12)"]
    assert merge_overlaps([]) == []


def test_merge_overlaps_with_closed_ends():
    items = [iv("[1, 3]"), iv("[3, 5)"), iv("(5, 6)"), iv("[6, 7]")]
    assert texts(merge_overlaps(items)) == ["[1, 5)", "(5, 6)", "[6, 7]"]
    assert texts(merge_overlaps(items, adjacent=True)) == ["[1, 5)", "(5, 7]"]


def test_merge_overlaps_nested_and_data():
    items = [iv("[1, 10)", "a"), iv("[2, 3)", "b"), iv("[4, 12)", "c"), iv("[20, 21)", "d")]
    merged = merge_overlaps(items)
    assert texts(merged) == ["[1, 12)", "[20, 21)"]
    assert [m.data for m in merged] == [None, None]
    joined = merge_overlaps(items, data_reducer=lambda x, y: x + y)
    assert [m.data for m in joined] == ["abc", "d"]


def test_total_length_counts_covered_stretch_once():
    assert total_length([iv("[1, 5)"), iv("[3, 8)"), iv("[10, 11)")]) == 8
    assert total_length([iv("[0, 2)"), iv("[0, 2)", "dup")]) == 2
    assert total_length([]) == 0


def test_gaps_between_intervals():
    items = [iv("[1, 3)"), iv("[5, 7]"), iv("(7, 9)"), iv("[2, 4)")]
    assert texts(gaps(items)) == ["[4, 5)"]
    assert texts(gaps([iv("[1, 3)"), iv("(3, 5)")])) == ["[3, 3]"]
    assert texts(gaps([iv("[1, 3]"), iv("(3, 5)")])) == []
    assert texts(gaps([iv("(1, 3)"), iv("[6, 8]")])) == ["[3, 6)"]
    assert gaps([]) == []


def test_gaps_within_a_window():
    items = [iv("[2, 4)"), iv("[6, 8)")]
    assert texts(gaps(items, within=iv("[0, 10)"))) == ["[0, 2)", "[4, 6)", "[8, 10)"]
    assert texts(gaps(items, within=iv("[3, 7)"))) == ["[4, 6)"]
    assert texts(gaps(items, within=iv("[2, 8)"))) == ["[4, 6)"]
    assert texts(gaps(items, within=iv("(2, 8]"))) == ["[4, 6)", "[8, 8]"]
    assert texts(gaps(items, within=iv("[10, 12)"))) == ["[10, 12)"]
    assert texts(gaps([iv("(2, 4)")], within=iv("[2, 4]"))) == ["[2, 2]", "[4, 4]"]


def test_max_depth_and_where_it_is_reached():
    assert max_depth([]) == (0, None)
    assert max_depth([iv("[1, 5)"), iv("[2, 6)"), iv("[3, 4)"), iv("[7, 9)")]) == (3, 3)
    assert max_depth([iv("[1, 3)"), iv("[3, 5)")]) == (1, 1)
    assert max_depth([iv("[1, 3]"), iv("[3, 5)")]) == (2, 3)
    assert max_depth([iv("[1, 3]"), iv("(3, 5)")]) == (1, 1)
    assert max_depth([iv("[0, 10)"), iv("[8, 12)"), iv("[2, 4)"), iv("[9, 11)")]) == (3, 9)


def test_coverage_of_a_window():
    items = [iv("[0, 5)"), iv("[3, 8)"), iv("[12, 30)")]
    assert coverage(items, 0, 10) == 0.8
    assert coverage(items, 10, 20) == 0.8
    assert coverage(items, 8, 12) == 0
    assert coverage(items, 4, 6) == 1
    with pytest.raises(IntervalError, match="non-empty"):
        coverage(items, 5, 5)


def test_split_at_point():
    tree = IntervalTree([iv("[1, 5]", "a"), iv("[2, 3)", "b"), iv("[3, 6)", "c"), iv("(0, 10)", "d")])
    assert split_at(tree, 3) == 2
    assert texts(tree) == ["(0, 3)", "[1, 3)", "[2, 3)", "[3, 5]", "[3, 6)", "[3, 10)"]
    assert [x.data for x in tree.at(3)] == ["a", "c", "d"]
    assert split_at(tree, 100) == 0
    assert len(tree) == 6
    tree.verify()


def test_chop_removes_a_region():
    tree = IntervalTree([iv("[0, 10)", "a"), iv("[4, 6)", "b"), iv("[8, 20)", "c"), iv("[30, 40)", "d")])
    assert chop(tree, 5, 9) == 3
    assert texts(tree) == ["[0, 5)", "[4, 5)", "[9, 10)", "[9, 20)", "[30, 40)"]
    assert [x.data for x in tree] == ["a", "b", "a", "c", "d"]
    assert chop(tree, 20, 30) == 0
    assert chop(tree, 0, 5, closed="neither") == 2
    assert texts(tree) == ["[0, 0]", "[9, 10)", "[9, 20)", "[30, 40)"]
    tree.verify()


def test_find_nested_maps_outer_to_inner():
    items = [iv("[1, 10)", "outer"), iv("[2, 3)", "i1"), iv("[4, 9)", "i2"), iv("[5, 6)", "i3"), iv("[9, 12)", "x")]
    nested = find_nested(items)
    assert [x.data for x in nested[iv("[1, 10)", "outer")]] == ["i1", "i2", "i3"]
    assert [x.data for x in nested[iv("[4, 9)", "i2")]] == ["i3"]
    assert len(nested) == 2
    assert find_nested([iv("[1, 2)"), iv("[3, 4)")]) == {}
    edge = find_nested([iv("[1, 5]", "o"), iv("[5, 5]", "p"), iv("[5, 6)", "q")])
    assert [x.data for x in edge[iv("[1, 5]", "o")]] == ["p"]
    assert len(edge) == 1
