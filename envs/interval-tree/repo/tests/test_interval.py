import pytest

from intervaltree.interval import Interval, IntervalError


def iv(text, data=None):
    return Interval.parse(text, data)


def test_construction_and_closedness_flags():
    a = Interval(1, 5)
    assert (a.begin, a.end, a.data) == (1, 5, None)
    assert (a.left_closed, a.right_closed) == (True, False)
    assert a.closed == "left"
    assert Interval(1, 5, closed="right").closed == "right"
    assert (Interval(1, 5, closed="both").left_closed, Interval(1, 5, closed="both").right_closed) == (True, True)
    n = Interval(1, 5, "x", closed="neither")
    assert (n.left_closed, n.right_closed, n.data) == (False, False, "x")
    assert n.closed == "neither"


def test_construction_rejects_bad_bounds():
    with pytest.raises(IntervalError, match="after end"):
        Interval(5, 1)
    with pytest.raises(IntervalError, match="empty"):
        Interval(3, 3)
    with pytest.raises(IntervalError, match="empty"):
        Interval(3, 3, closed="right")
    with pytest.raises(IntervalError, match="closed must be one of"):
        Interval(1, 2, closed="middle")
    point = Interval(3, 3, closed="both")
    assert point.is_point()
    assert point.length == 0
    assert not Interval(3, 4).is_point()
    assert issubclass(IntervalError, ValueError)


def test_from_flags_picks_matching_closedness():
    assert Interval.from_flags(0, 1, True, True).closed == "both"
    assert Interval.from_flags(0, 1, False, True).closed == "right"
    assert Interval.from_flags(0, 1, False, False).closed == "neither"
    assert Interval.from_flags(0, 1, True, False, "d").data == "d"
    with pytest.raises(IntervalError, match="booleans"):
        Interval.from_flags(0, 1, 1, None)
    with pytest.raises(IntervalError, match="booleans"):
        Interval.from_flags(0, 1, True, 0)


def test_parse_reads_brackets_and_numbers():
    a = iv("[1, 5)")
    assert (a.begin, a.end, a.closed) == (1, 5, "left")
    assert isinstance(a.begin, int)
    b = iv(" (0.5,2] ", data="w")
    assert (b.begin, b.end, b.closed, b.data) == (0.5, 2, "right", "w")
    assert isinstance(b.begin, float)
    assert iv("[-3, -1]").closed == "both"
    assert iv("(10, 20)").closed == "neither"
    c = iv("[1,5)")
    assert (c.begin, c.end, c.closed) == (1, 5, "left")


@pytest.mark.parametrize("text", ["1, 5", "[1 5)", "[1,2,3]", "[a, 5)", "{1, 5}", "[1,]"])
def test_parse_rejects_malformed_text(text):
    with pytest.raises(IntervalError):
        Interval.parse(text)


def test_length_and_midpoint():
    assert Interval(2, 10).length == 8
    assert Interval(-4, -1).length == 3
    assert Interval(2, 10).midpoint == 6
    assert Interval(1, 2).midpoint == 1.5


def test_contains_point_respects_open_and_closed_ends():
    half = Interval(1, 5)
    assert half.contains_point(1)
    assert half.contains_point(4.999)
    assert half.contains_point(5) is False
    assert half.contains_point(0) is False
    assert half.contains_point(6) is False
    right = Interval(1, 5, closed="right")
    assert right.contains_point(1) is False
    assert right.contains_point(5)
    both = Interval(1, 5, closed="both")
    assert 1 in both and 5 in both and 3 in both
    neither = Interval(1, 5, closed="neither")
    assert 1 not in neither and 5 not in neither and 2 in neither


def test_overlaps_at_shared_bounds():
    assert iv("[1, 5)").overlaps(iv("[4, 8)"))
    assert iv("[4, 8)").overlaps(iv("[1, 5)"))
    assert not iv("[1, 5)").overlaps(iv("[5, 8)"))
    assert iv("[1, 5]").overlaps(iv("[5, 8)"))
    assert not iv("[1, 5]").overlaps(iv("(5, 8)"))
    assert not iv("[1, 3)").overlaps(iv("[4, 8)"))
    assert iv("[1, 10)").overlaps(iv("[3, 4)"))
    assert iv("[2, 2]").overlaps(iv("[1, 3)"))
    assert not iv("[3, 3]").overlaps(iv("[1, 3)"))
    assert iv("(1, 3)").overlaps(iv("(1, 3)"))
    assert iv("[0, 1]").overlaps_range(1, 2)
    assert not iv("[0, 1]").overlaps_range(1, 2, closed="neither")


def test_touches_only_when_bounds_meet_without_gap():
    assert iv("[1, 3)").touches(iv("[3, 5)"))
    assert iv("[3, 5)").touches(iv("[1, 3)"))
    assert iv("[1, 3]").touches(iv("(3, 5)"))
    assert iv("[1, 3)").touches(iv("(3, 5)")) is False
    assert iv("[1, 3]").touches(iv("[3, 5)")) is False
    assert iv("[1, 3)").touches(iv("[4, 5)")) is False


def test_envelops_checks_both_ends():
    outer = iv("[1, 10)")
    assert outer.envelops(iv("[1, 10)"))
    assert outer.envelops(iv("(1, 10)"))
    assert outer.envelops(iv("[2, 3]"))
    assert outer.envelops(iv("[1, 10]")) is False
    assert outer.envelops(iv("[0, 5)")) is False
    assert outer.envelops(iv("[5, 11)")) is False
    assert iv("(1, 10)").envelops(iv("[1, 5)")) is False
    assert iv("[1, 10]").envelops(iv("[10, 10]"))


def test_intersection_keeps_the_tighter_bounds():
    assert iv("[1, 5)").intersection(iv("[3, 8)")) == iv("[3, 5)")
    assert iv("[3, 8]").intersection(iv("(1, 5]")) == iv("[3, 5]")
    assert iv("[1, 5]").intersection(iv("(1, 5)")) == iv("(1, 5)")
    assert iv("[1, 5]").intersection(iv("[5, 6)")) == iv("[5, 5]")
    assert iv("[1, 5)").intersection(iv("[5, 6)")) is None
    assert iv("[1, 5)", data="a").intersection(iv("[2, 3)", data="b")).data == "a"


def test_union_of_overlapping_or_touching_intervals():
    assert iv("[1, 5)").union(iv("[3, 8)")) == iv("[1, 8)")
    assert iv("[3, 8]").union(iv("(1, 5)")) == iv("(1, 8]")
    assert iv("[1, 3)").union(iv("[3, 5)")) == iv("[1, 5)")
    assert iv("(1, 5)").union(iv("[1, 5]")) == iv("[1, 5]")
    assert iv("[1, 3)").union(iv("[1, 2]")) == iv("[1, 3)")
    assert iv("[1, 5]").union(iv("[2, 5)")) == iv("[1, 5]")
    assert iv("[2, 5)").union(iv("[1, 5]")) == iv("[1, 5]")
    assert iv("[1, 5)").union(iv("(1, 3)")) == iv("[1, 5)")
    assert iv("(1, 3)").union(iv("[1, 5)")) == iv("[1, 5)")
    with pytest.raises(IntervalError, match="disjoint"):
        iv("[1, 3)").union(iv("(3, 5)"))
    with pytest.raises(IntervalError, match="disjoint"):
        iv("[1, 2)").union(iv("[4, 5)"))


def test_difference_splits_around_the_other_interval():
    assert iv("[1, 10)").difference(iv("[3, 5)")) == [iv("[1, 3)"), iv("[5, 10)")]
    assert iv("[1, 10)").difference(iv("(3, 5]")) == [iv("[1, 3]"), iv("(5, 10)")]
    assert iv("[1, 10)").difference(iv("[0, 4)")) == [iv("[4, 10)")]
    assert iv("[1, 10)").difference(iv("[6, 12)")) == [iv("[1, 6)")]
    assert iv("[1, 10)").difference(iv("[0, 12)")) == []
    assert iv("[1, 10]").difference(iv("[1, 10)")) == [iv("[10, 10]")]
    assert iv("[1, 10)").difference(iv("(1, 10)")) == [iv("[1, 1]")]
    assert iv("[1, 3)").difference(iv("[5, 6)")) == [iv("[1, 3)")]


def test_distance_between_intervals():
    assert iv("[1, 3)").distance_to(iv("[7, 9)")) == 4
    assert iv("[7, 9)").distance_to(iv("[1, 3)")) == 4
    assert iv("[1, 3)").distance_to(iv("[3, 9)")) == 0
    assert iv("[1, 5)").distance_to(iv("[2, 9)")) == 0


def test_replace_keeps_unchanged_fields():
    a = Interval(1, 5, "d", closed="right")
    b = a.replace(end=9)
    assert (b.begin, b.end, b.data, b.closed) == (1, 9, "d", "right")
    c = a.replace(begin=0, data="e")
    assert (c.begin, c.end, c.data) == (0, 5, "e")


def test_equality_hashing_and_ordering():
    assert Interval(1, 5, "a") == Interval(1, 5, "a")
    assert Interval(1, 5, "a") != Interval(1, 5, "b")
    assert Interval(1, 5) != Interval(1, 5, closed="both")
    assert hash(Interval(1, 5, "a")) == hash(Interval(1, 5, "b"))
    assert Interval(1, 5) != (1, 5)
    assert (Interval(1, 5) == (1, 5)) is False
    assert len({Interval(1, 5), Interval(1, 5), Interval(1, 6)}) == 2
    ordered = sorted([iv("[2, 3)"), iv("(1, 4)"), iv("[1, 9)"), iv("[1, 4]"), iv("[1, 4)")])
    assert [str(x) for x in ordered] == ["[1, 4)", "[1, 4]", "[1, 9)", "(1, 4)", "[2, 3)"]
    assert iv("[1, 2)") < iv("[1, 3)")
    assert not iv("[1, 3)") < iv("[1, 3)")
    with pytest.raises(TypeError):
        Interval(1, 2) < 5


def test_text_forms():
    assert str(Interval(1, 5)) == "[1, 5)"
    assert str(Interval(1, 5, closed="neither")) == "(1, 5)"
    assert str(Interval(0.5, 2, closed="right")) == "(0.5, 2]"
    assert repr(Interval(1, 5)) == "Interval(1, 5, closed='left')"
    assert repr(Interval(1, 5, "x", closed="both")) == "Interval(1, 5, 'x', closed='both')"
