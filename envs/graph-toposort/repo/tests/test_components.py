import pytest

from graphlib2 import (
    CycleError,
    DisjointSet,
    Graph,
    condensation,
    is_strongly_connected,
    strongly_connected_components,
    transitive_closure,
    transitive_reduction,
    weakly_connected_components,
)


def clusters():
    # {a, b, c} and {d, e} are cycles, f is alone, g hangs off e.
    return Graph(
        [
            ("a", "b", 1),
            ("b", "c", 2),
            ("c", "a", 3),
            ("c", "d", 4),
            ("d", "e", 5),
            ("e", "d", 6),
            ("b", "e", 7),
            ("f", "a", 8),
            ("e", "g", 9),
        ]
    )


def test_disjoint_set_union_find():
    ds = DisjointSet([1, 2, 3, 4, 5])
    assert len(ds) == 5
    assert ds.union(1, 2) is True
    assert ds.union(2, 1) is False
    assert ds.union(3, 4) is True
    assert ds.union(4, 1) is True
    assert len(ds) == 2
    assert ds.connected(3, 2) is True
    assert ds.connected(5, 1) is False
    assert ds.size_of(2) == 4
    assert ds.size_of(5) == 1
    ds.add(5)
    ds.add(6)
    assert ds.size_of(5) == 1
    assert len(ds) == 3
    with pytest.raises(KeyError):
        ds.find(99)


def test_disjoint_set_union_by_size_keeps_larger_root():
    ds = DisjointSet("abcd")
    ds.union("a", "b")
    ds.union("a", "c")
    assert ds.find("c") == "a"
    ds.union("d", "c")
    assert ds.find("d") == "a"
    assert ds.size_of("d") == 4


def test_scc_in_reverse_topological_order():
    comps = strongly_connected_components(clusters())
    assert comps == [["g"], ["d", "e"], ["a", "b", "c"], ["f"]]


def test_scc_of_a_dag_is_all_singletons():
    g = Graph([(1, 2), (2, 3), (1, 3)])
    assert strongly_connected_components(g) == [[3], [2], [1]]
    assert strongly_connected_components(Graph()) == []


def test_scc_nested_cycles_share_one_component():
    g = Graph([(1, 2), (2, 3), (3, 1), (3, 4), (4, 5), (5, 3), (5, 6)])
    assert strongly_connected_components(g) == [[6], [1, 2, 3, 4, 5]]


def test_scc_sibling_subtrees_stay_separate():
    g = Graph([("x", "y"), ("x", "z"), ("z", "x")])
    assert strongly_connected_components(g) == [["y"], ["x", "z"]]


def test_scc_low_link_through_earlier_stack_node():
    # 2 reaches 1 only through 3's edge back to the root
    g = Graph([(1, 2), (2, 3), (3, 1), (2, 4), (4, 5), (5, 4)])
    assert strongly_connected_components(g) == [[4, 5], [1, 2, 3]]


def test_is_strongly_connected():
    assert is_strongly_connected(Graph([(1, 2), (2, 3), (3, 1)])) is True
    assert is_strongly_connected(clusters()) is False
    single = Graph()
    single.add_node("x")
    assert is_strongly_connected(single) is True
    assert is_strongly_connected(Graph()) is False


def test_condensation_numbers_components_topologically():
    dag, membership = condensation(clusters())
    assert membership == {"f": 0, "a": 1, "b": 1, "c": 1, "d": 2, "e": 2, "g": 3}
    assert dag.nodes() == [0, 1, 2, 3]
    assert dag.edges() == [(0, 1, 8), (1, 2, 11), (2, 3, 9)]


def test_weakly_connected_components():
    g = Graph([("a", "b"), ("c", "b"), ("d", "e")])
    g.add_node("f")
    g.add_edge("e", "g")
    assert weakly_connected_components(g) == [["a", "b", "c"], ["d", "e", "g"], ["f"]]
    assert weakly_connected_components(Graph()) == []


def test_transitive_closure_of_dag():
    g = Graph([("a", "b"), ("b", "c"), ("c", "d")])
    g.add_node("e")
    closure = transitive_closure(g)
    assert closure.nodes() == ["a", "b", "c", "d", "e"]
    assert closure.edges() == [
        ("a", "b", 1),
        ("a", "c", 1),
        ("a", "d", 1),
        ("b", "c", 1),
        ("b", "d", 1),
        ("c", "d", 1),
    ]


def test_transitive_closure_with_cycles():
    g = Graph([(1, 2), (2, 1), (2, 3)])
    assert transitive_closure(g).edges() == [(1, 2, 1), (1, 3, 1), (2, 1, 1), (2, 3, 1)]
    loops = Graph([(1, 2), (2, 1), (2, 3)], allow_self_loops=True)
    assert transitive_closure(loops).edges() == [(1, 1, 1), (1, 2, 1), (1, 3, 1), (2, 1, 1), (2, 2, 1), (2, 3, 1)]


def test_transitive_reduction_removes_implied_edges():
    g = Graph([("a", "b", 1), ("b", "c", 2), ("a", "c", 3), ("c", "d", 4), ("a", "d", 5), ("b", "d", 6), ("e", "d", 7)])
    reduced = transitive_reduction(g)
    assert reduced.nodes() == ["a", "b", "c", "d", "e"]
    assert reduced.edges() == [("a", "b", 1), ("b", "c", 2), ("c", "d", 4), ("e", "d", 7)]


def test_transitive_reduction_sees_long_detours_and_isolated_nodes():
    g = Graph([("a", "b"), ("b", "c"), ("c", "d"), ("a", "d", 9)])
    g.add_node("z")
    reduced = transitive_reduction(g)
    assert reduced.nodes() == ["a", "b", "c", "d", "z"]
    assert reduced.edges() == [("a", "b", 1), ("b", "c", 1), ("c", "d", 1)]


def test_transitive_reduction_keeps_necessary_edges_and_rejects_cycles():
    diamond = Graph([("s", "x"), ("s", "y"), ("x", "t"), ("y", "t")])
    assert transitive_reduction(diamond) == diamond
    late = Graph()
    late.add_nodes(["t", "m", "s"])
    late.add_edges([("s", "t"), ("s", "m"), ("m", "t")])
    assert transitive_reduction(late).edges() == [("m", "t", 1), ("s", "m", 1)]
    with pytest.raises(CycleError) as info:
        transitive_reduction(Graph([("p", "q"), ("q", "r"), ("r", "q")]))
    assert info.value.cycle == ["q", "r"]
