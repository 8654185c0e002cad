import pytest

from intervaltree import node as nd
from intervaltree.interval import Interval


def build(*pairs):
    root = None
    for begin, end in pairs:
        root, added = nd.insert(root, Interval(begin, end))
        assert added
    return root


def keys(root):
    return [(n.begin, n.end) for n in nd.walk(root)]


def shape(root):
    if root is None:
        return None
    return (root.begin, shape(root.left), shape(root.right))


def test_new_node_state():
    node = nd.Node(Interval(3, 7, "d"))
    assert node.key == (3, 0, 7, 0)
    assert (node.begin, node.end) == (3, 7)
    assert node.items == [Interval(3, 7, "d")]
    assert (node.height, node.max_end, node.balance) == (1, 7, 0)
    assert nd.height(None) == 0
    assert nd.height(node) == 1


def test_update_takes_largest_end_of_children():
    root = nd.Node(Interval(5, 6))
    root.left = nd.Node(Interval(1, 20))
    root.right = nd.Node(Interval(8, 9))
    root.update()
    assert (root.height, root.max_end) == (2, 20)
    root.left = nd.Node(Interval(1, 2))
    root.update()
    assert root.max_end == 9
    root.right = None
    root.update()
    assert (root.height, root.max_end, root.balance) == (2, 6, 1)


def test_rotations_relink_and_update():
    a, b, c = nd.Node(Interval(1, 30)), nd.Node(Interval(2, 3)), nd.Node(Interval(3, 4))
    a.right = b
    b.right = c
    b.update()
    a.update()
    top = nd.rotate_left(a)
    assert shape(top) == (2, (1, None, None), (3, None, None))
    assert (top.height, top.max_end, top.left.max_end) == (2, 30, 30)
    back = nd.rotate_right(top)
    assert shape(back) == (1, None, (2, None, (3, None, None)))
    assert (back.height, back.right.height, back.right.max_end) == (3, 2, 4)


@pytest.mark.parametrize(
    "order, expected",
    [
        ([1, 2, 3], (2, (1, None, None), (3, None, None))),
        ([3, 2, 1], (2, (1, None, None), (3, None, None))),
        ([1, 3, 2], (2, (1, None, None), (3, None, None))),
        ([3, 1, 2], (2, (1, None, None), (3, None, None))),
    ],
)
def test_insert_rebalances_all_four_cases(order, expected):
    root = build(*[(b, b + 1) for b in order])
    assert shape(root) == expected
    assert root.height == 2
    nd.check(root)


def test_two_nodes_need_no_rotation():
    assert shape(build((2, 3), (1, 2))) == (2, (1, None, None), None)
    assert shape(build((1, 2), (2, 3))) == (1, None, (2, None, None))


def test_remove_uses_single_rotation_when_sibling_is_even():
    root = build((2, 3), (1, 2), (4, 5), (3, 4), (5, 6))
    root, _ = nd.remove(root, Interval(1, 2))
    assert shape(root) == (4, (2, None, (3, None, None)), (5, None, None))
    root = build((4, 5), (2, 3), (5, 6), (1, 2), (3, 4))
    root, _ = nd.remove(root, Interval(5, 6))
    assert shape(root) == (2, (1, None, None), (4, (3, None, None), None))
    nd.check(root)


def test_insert_many_keeps_avl_invariants():
    pairs = [((i * 37) % 101, (i * 37) % 101 + (i % 7) + 1) for i in range(101)]
    root = build(*pairs)
    assert nd.check(root) == root.height
    assert root.height <= 8
    assert keys(root) == sorted(pairs)
    assert root.max_end == max(end for _, end in pairs)


def test_insert_groups_equal_bounds_and_ignores_duplicates():
    root = build((1, 5))
    root, added = nd.insert(root, Interval(1, 5, "x"))
    assert added
    root, added = nd.insert(root, Interval(1, 5, "x"))
    assert not added
    root, added = nd.insert(root, Interval(1, 5, closed="both"))
    assert added
    assert [len(n.items) for n in nd.walk(root)] == [2, 1]
    assert root.height == 2


def test_remove_leaf_inner_and_root_nodes():
    pairs = [(b, b + 2) for b in [50, 30, 70, 20, 40, 60, 80, 35]]
    root = build(*pairs)
    for begin in [20, 30, 50, 80]:
        root, removed = nd.remove(root, Interval(begin, begin + 2))
        assert removed
        nd.check(root)
    assert [k[0] for k in keys(root)] == [35, 40, 60, 70]
    root, removed = nd.remove(root, Interval(99, 101))
    assert not removed
    root, removed = nd.remove(root, Interval(35, 37, "other"))
    assert not removed
    assert len(keys(root)) == 4


def test_remove_updates_max_end_and_shrinks_tree():
    root = build((10, 11), (5, 100), (15, 16))
    assert root.max_end == 100
    root, _ = nd.remove(root, Interval(5, 100))
    assert root.max_end == 16
    root, _ = nd.remove(root, Interval(10, 11))
    root, _ = nd.remove(root, Interval(15, 16))
    assert root is None
    assert nd.remove(None, Interval(1, 2)) == (None, False)


def test_remove_one_of_several_items_keeps_node():
    root = build((1, 5))
    root, _ = nd.insert(root, Interval(1, 5, "b"))
    root, removed = nd.remove(root, Interval(1, 5))
    assert removed
    assert root.items == [Interval(1, 5, "b")]


def test_remove_rebalances_after_deletions():
    root = build(*[(b, b + 1) for b in range(1, 16)])
    for begin in range(1, 8):
        root, _ = nd.remove(root, Interval(begin, begin + 1))
        nd.check(root)
    assert [k[0] for k in keys(root)] == list(range(8, 16))
    assert root.height == 4


def test_pop_min_detaches_leftmost():
    root = build((5, 6), (3, 4), (8, 9), (1, 2))
    root, smallest = nd.pop_min(root)
    assert smallest.begin == 1
    assert [k[0] for k in keys(root)] == [3, 5, 8]
    nd.check(root)


def test_find_by_key():
    root = build((5, 6), (3, 4), (8, 9))
    assert nd.find(root, (8, 0, 9, 0)).begin == 8
    assert nd.find(root, (3, 0, 4, 0)).begin == 3
    assert nd.find(root, (8, 0, 9, 1)) is None
    assert nd.find(None, (1, 0, 2, 0)) is None


def test_build_balanced_from_sorted_nodes():
    nodes = [nd.Node(Interval(b, b + 10 - b)) for b in range(7)]
    root = nd.build_balanced(nodes)
    assert shape(root) == (3, (1, (0, None, None), (2, None, None)), (5, (4, None, None), (6, None, None)))
    assert root.max_end == 10
    assert nd.check(root) == 3
    assert nd.build_balanced([]) is None


def test_check_reports_broken_invariants():
    root = build((2, 3), (1, 2), (3, 4))
    root.max_end = 99
    with pytest.raises(AssertionError, match="max_end"):
        nd.check(root)
    root = build((2, 3), (1, 2), (3, 4))
    root.left, root.right = root.right, root.left
    with pytest.raises(AssertionError, match="out of order"):
        nd.check(root)
    root = build((2, 3), (1, 2), (3, 4))
    root.height = 5
    with pytest.raises(AssertionError, match="height"):
        nd.check(root)
    chain = nd.Node(Interval(1, 2))
    chain.right = nd.Node(Interval(2, 3))
    chain.right.right = nd.Node(Interval(3, 4))
    chain.right.update()
    chain.update()
    with pytest.raises(AssertionError, match="unbalanced"):
        nd.check(chain)
    root = build((2, 3), (1, 2))
    root.left = nd.Node(Interval(2, 3, "same key"))
    with pytest.raises(AssertionError, match="out of order"):
        nd.check(root)
    root = build((2, 3), (3, 4))
    root.right = nd.Node(Interval(2, 3, "same key"))
    with pytest.raises(AssertionError, match="out of order"):
        nd.check(root)
    root = build((2, 3))
    root.items = []
    with pytest.raises(AssertionError, match="no intervals"):
        nd.check(root)
