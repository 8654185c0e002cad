import pytest

from intervaltree import EmptyTreeError, Interval, IntervalTree


def sample():
    return IntervalTree.from_tuples([(1, 5), (2, 3), (4, 8, "x"), (10, 12), (6, 7), (15, 20)])


def spans(intervals):
    return [(iv.begin, iv.end) for iv in intervals]


def test_construct_from_intervals_and_tuples():
    tree = IntervalTree([Interval(3, 4), (1, 2), (5, 6, "d"), [7, 9]])
    assert len(tree) == 4
    assert spans(tree) == [(1, 2), (3, 4), (5, 6), (7, 9)]
    assert tree.verify()
    empty = IntervalTree()
    assert len(empty) == 0
    assert not empty
    assert bool(tree)
    with pytest.raises(TypeError, match="expected an Interval"):
        IntervalTree([5])
    with pytest.raises(TypeError, match="expected an Interval"):
        IntervalTree([(1, 2, "d", "both")])
    assert bool(IntervalTree([(1, 2)]))
    same = IntervalTree([(1, 5, "a"), (1, 5, "b"), (1, 5, "a")])
    assert len(same) == 2
    assert [x.data for x in same] == ["a", "b"]


def test_add_is_idempotent_and_keeps_data_apart():
    tree = IntervalTree()
    tree.add(Interval(1, 5))
    tree.add(Interval(1, 5))
    tree.addi(1, 5, "d")
    tree.addi(1, 5, closed="both")
    tree.add((0, 9))
    assert len(tree) == 4
    assert list(tree) == [Interval(0, 9), Interval(1, 5), Interval(1, 5, "d"), Interval(1, 5, closed="both")]
    tree.verify()


def test_iteration_is_sorted_and_reversible():
    tree = sample()
    assert spans(tree) == [(1, 5), (2, 3), (4, 8), (6, 7), (10, 12), (15, 20)]
    assert spans(reversed(tree)) == [(15, 20), (10, 12), (6, 7), (4, 8), (2, 3), (1, 5)]


def test_iteration_fails_if_tree_changes():
    tree = sample()
    with pytest.raises(RuntimeError, match="changed during iteration"):
        for interval in tree:
            tree.addi(interval.begin + 100, interval.end + 100)
    for change in (lambda t: t.discard((1, 5)), lambda t: t.clear()):
        tree = sample()
        with pytest.raises(RuntimeError, match="changed during iteration"):
            for _ in tree:
                change(tree)
    tree = sample()
    with pytest.raises(RuntimeError, match="changed during iteration"):
        for _ in tree:
            with tree.bulk():
                tree.addi(40, 41)
    tree2 = sample()
    seen = []
    for interval in tree2:
        seen.append(interval)
        tree2.add(Interval(1, 5))
    assert len(seen) == 6


def test_contains_and_membership_of_tuples():
    tree = sample()
    assert Interval(4, 8, "x") in tree
    assert Interval(4, 8) not in tree
    assert (10, 12) in tree
    assert (10, 13) not in tree
    assert "nonsense" not in tree
    assert (5, 1) not in tree


def test_remove_and_discard():
    tree = sample()
    tree.remove(Interval(2, 3))
    assert len(tree) == 5
    assert tree.discard((6, 7)) is True
    assert tree.discard((6, 7)) is False
    with pytest.raises(KeyError):
        tree.remove(Interval(100, 200))
    assert spans(tree) == [(1, 5), (4, 8), (10, 12), (15, 20)]
    tree.verify()


def test_at_returns_stabbed_intervals():
    tree = sample()
    assert spans(tree.at(4)) == [(1, 5), (4, 8)]
    assert spans(tree.at(2)) == [(1, 5), (2, 3)]
    assert spans(tree.at(5)) == [(4, 8)]
    assert spans(tree.at(8)) == []
    assert spans(tree.at(20)) == []
    assert spans(tree.at(15)) == [(15, 20)]
    assert tree.at(0) == []
    assert IntervalTree().at(3) == []


def test_at_honours_closed_ends():
    tree = IntervalTree([Interval(1, 5, "r", closed="right"), Interval(5, 9, "n", closed="neither"), Interval(0, 1)])
    assert [iv.data for iv in tree.at(5)] == ["r"]
    assert [iv.data for iv in tree.at(1)] == []
    assert spans(tree.at(0)) == [(0, 1)]
    lone = IntervalTree([Interval(0, 5, closed="both")])
    assert spans(lone.at(5)) == [(0, 5)]
    assert spans(lone.overlap(5, 6)) == [(0, 5)]


def test_overlap_queries():
    tree = sample()
    assert spans(tree.overlap(5, 10)) == [(4, 8), (6, 7)]
    assert spans(tree.overlap(3, 4)) == [(1, 5)]
    assert spans(tree.overlap(12, 15)) == []
    assert spans(tree.overlap(0, 100)) == spans(tree)
    assert spans(tree.overlap(Interval(12, 15, closed="both"))) == [(15, 20)]
    assert spans(tree.overlap(8, 10, closed="both")) == [(10, 12)]
    assert spans(tree.overlap(19, 25)) == [(15, 20)]
    with pytest.raises(TypeError, match="needs an end"):
        tree.overlap(3)


def test_overlaps_predicate():
    tree = sample()
    assert tree.overlaps(12, 16)
    assert not tree.overlaps(12, 15)
    assert tree.overlaps(7)
    assert not tree.overlaps(9)
    assert tree.overlaps(Interval(8, 10, closed="both"))


def test_envelop_queries():
    tree = sample()
    assert spans(tree.envelop(1, 8)) == [(1, 5), (2, 3), (4, 8), (6, 7)]
    assert spans(tree.envelop(2, 7)) == [(2, 3), (6, 7)]
    assert spans(tree.envelop(Interval(2, 7, closed="neither"))) == [(6, 7)]
    assert spans(tree.envelop(Interval(1, 5, closed="neither"))) == [(2, 3)]
    assert spans(tree.envelop(10, 12)) == [(10, 12)]
    assert spans(tree.envelop(10, 11)) == []
    assert spans(tree.envelop(9, 30)) == [(10, 12), (15, 20)]


def test_remove_overlap_and_envelop():
    tree = sample()
    removed = tree.remove_overlap(5, 11)
    assert spans(removed) == [(4, 8), (6, 7), (10, 12)]
    assert spans(tree) == [(1, 5), (2, 3), (15, 20)]
    tree.verify()
    tree = sample()
    removed = tree.remove_envelop(0, 9)
    assert spans(removed) == [(1, 5), (2, 3), (4, 8), (6, 7)]
    assert len(tree) == 2
    tree.verify()


def test_bounds_and_span():
    tree = sample()
    assert tree.begin() == 1
    assert tree.end() == 20
    assert tree.span() == 19
    tree.remove(Interval(15, 20))
    assert tree.end() == 12
    tree.remove(Interval(1, 5))
    assert tree.begin() == 2
    empty = IntervalTree()
    assert empty.span() == 0
    with pytest.raises(EmptyTreeError):
        empty.begin()
    with pytest.raises(EmptyTreeError, match="no end"):
        empty.end()


def test_height_stays_logarithmic():
    tree = IntervalTree()
    for i in range(200):
        tree.addi(i, i + 3)
    assert tree.height == 8
    assert len(tree) == 200
    assert tree.verify()
    for i in range(0, 200, 2):
        tree.discard((i, i + 3))
    assert len(tree) == 100
    assert tree.height <= 8
    assert tree.verify()
    assert spans(tree.at(50)) == [(49, 52)]


def test_clear_and_copy_are_independent():
    tree = sample()
    clone = tree.copy()
    tree.clear()
    assert len(tree) == 0
    assert list(tree) == []
    assert len(clone) == 6
    assert clone == sample()
    assert clone != tree


def test_set_operations_return_trees():
    a = IntervalTree.from_tuples([(1, 2), (3, 4), (5, 6)])
    b = IntervalTree.from_tuples([(3, 4), (7, 8)])
    union = a | b
    assert isinstance(union, IntervalTree)
    assert spans(union) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert spans(a & b) == [(3, 4)]
    assert spans(a - b) == [(1, 2), (5, 6)]
    a.update([(9, 10), (1, 2)])
    assert len(a) == 4


def test_bulk_adds_at_the_end_of_the_block():
    tree = IntervalTree.from_tuples([(1, 2)])
    with tree.bulk() as same:
        assert same is tree
        for i in range(2, 30):
            tree.addi(i, i + 1)
        tree.addi(1, 2)
        assert len(tree) == 1
    assert len(tree) == 29
    assert tree.height == 5
    assert tree.verify()


def test_bulk_discards_additions_on_error():
    tree = IntervalTree.from_tuples([(1, 2)])
    with pytest.raises(ValueError):
        with tree.bulk():
            tree.addi(3, 4)
            raise ValueError("stop")
    assert spans(tree) == [(1, 2)]
    with tree.bulk():
        with pytest.raises(RuntimeError, match="nested"):
            with tree.bulk():
                pass
    tree.addi(5, 6)
    assert len(tree) == 2


def test_repr_lists_intervals():
    tree = IntervalTree.from_tuples([(3, 4), (1, 2, "a")])
    assert repr(tree) == "IntervalTree([Interval(1, 2, 'a', closed='left'), Interval(3, 4, closed='left')])"


def test_verify_detects_broken_nodes():
    tree = sample()
    tree._root.max_end = 1000
    with pytest.raises(AssertionError, match="max_end"):
        tree.verify()


def test_verify_detects_wrong_size():
    tree = sample()
    tree._size = 7
    with pytest.raises(AssertionError, match="size is 7"):
        tree.verify()
