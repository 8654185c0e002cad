import pytest

from graphlib2 import CycleError, Graph, TopologicalSorter, find_cycle, is_dag, layer_of, layers, topological_sort


def build_chain():
    # shirt -> tie -> jacket, trousers -> shoes, trousers -> jacket, socks -> shoes
    g = Graph()
    g.add_nodes(["socks", "shirt", "trousers", "tie", "jacket", "shoes"])
    g.add_edges([("shirt", "tie"), ("tie", "jacket"), ("trousers", "shoes"), ("trousers", "jacket"), ("socks", "shoes")])
    return g


def test_topological_sort_is_stable_by_insertion_order():
    assert topological_sort(build_chain()) == ["socks", "shirt", "trousers", "tie", "jacket", "shoes"]


def test_topological_sort_respects_every_edge():
    g = Graph([(5, 11), (7, 11), (7, 8), (3, 8), (3, 10), (11, 2), (11, 9), (11, 10), (8, 9)])
    order = topological_sort(g)
    assert order == [5, 7, 11, 3, 8, 10, 2, 9]
    position = {n: i for i, n in enumerate(order)}
    assert all(position[s] < position[t] for s, t, _ in g.edges())


def test_topological_sort_with_key_picks_smallest_ready_node():
    g = Graph()
    g.add_nodes(["d", "c", "b", "a"])
    g.add_edge("c", "a")
    assert topological_sort(g) == ["d", "c", "b", "a"]
    assert topological_sort(g, key=lambda n: n) == ["b", "c", "a", "d"]
    assert topological_sort(g, key=lambda n: 0) == ["d", "c", "b", "a"]
    assert topological_sort(g, key=lambda n: -ord(n)) == ["d", "c", "b", "a"]


def test_topological_sort_key_applies_to_nodes_that_become_ready():
    g = Graph()
    g.add_nodes(["m", "a"])
    g.add_edge("a", "y")
    assert topological_sort(g, key=lambda n: n) == ["a", "m", "y"]
    assert topological_sort(g) == ["m", "a", "y"]


def test_topological_sort_of_empty_and_isolated_graphs():
    assert topological_sort(Graph()) == []
    g = Graph()
    g.add_nodes([3, 1, 2])
    assert topological_sort(g) == [3, 1, 2]


def test_cycle_error_reports_the_cycle():
    g = Graph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "b"), ("d", "e")])
    with pytest.raises(CycleError) as info:
        topological_sort(g)
    assert info.value.cycle == ["b", "c", "d"]
    assert str(info.value) == "graph has a cycle: 'b' -> 'c' -> 'd' -> 'b'"


def test_find_cycle_rotates_to_earliest_node():
    g = Graph()
    g.add_nodes(["x", "c", "a", "b"])
    g.add_edges([("a", "b"), ("b", "c"), ("c", "a")])
    assert find_cycle(g) == ["c", "a", "b"]
    assert find_cycle(g, start="b") == ["c", "a", "b"]
    assert find_cycle(Graph([("a", "b"), ("b", "c"), ("a", "c")])) is None


def test_find_cycle_ignores_cross_edges_to_finished_nodes():
    g = Graph([(1, 2), (1, 3), (3, 2), (2, 4), (4, 5), (5, 3)])
    # 2 -> 4 -> 5 -> 3 -> 2 is the only cycle
    assert find_cycle(g) == [2, 4, 5, 3]
    assert find_cycle(Graph([(1, 2), (3, 2), (3, 4)])) is None


def test_find_cycle_self_loop():
    g = Graph([("a", "b"), ("b", "b")], allow_self_loops=True)
    assert find_cycle(g) == ["b"]
    assert is_dag(g) is False
    assert find_cycle(Graph([("x", "x")], allow_self_loops=True)) == ["x"]


def test_is_dag():
    assert is_dag(build_chain()) is True
    assert is_dag(Graph([(1, 2), (2, 1)])) is False
    assert is_dag(Graph()) is True


def test_layers_top_aligned_use_longest_path():
    g = Graph([("a", "b"), ("b", "c"), ("a", "c"), ("d", "c"), ("c", "e")])
    g.add_node("f")
    assert layer_of(g) == {"a": 0, "b": 1, "c": 2, "d": 0, "e": 3, "f": 0}
    assert layers(g) == [["a", "d", "f"], ["b"], ["c"], ["e"]]


def test_layers_bottom_aligned_push_nodes_down():
    g = Graph([("a", "b"), ("b", "c"), ("a", "c"), ("d", "c"), ("c", "e")])
    g.add_node("f")
    assert layer_of(g, align="bottom") == {"a": 0, "b": 1, "c": 2, "d": 1, "e": 3, "f": 3}
    assert layers(g, align="bottom") == [["a"], ["b", "d"], ["c"], ["e", "f"]]


def test_layers_edge_cases():
    assert layers(Graph()) == []
    assert layers(Graph(), align="bottom") == []
    single = Graph()
    single.add_node("solo")
    assert layers(single) == [["solo"]]
    with pytest.raises(ValueError, match="align must be 'top' or 'bottom', not 'middle'"):
        layers(single, align="middle")
    with pytest.raises(CycleError):
        layers(Graph([(1, 2), (2, 1)]))


def test_sorter_hands_out_ready_batches():
    ts = TopologicalSorter()
    ts.add("compile", "fetch")
    ts.add("test", "compile")
    ts.add("lint", "fetch")
    ts.add("package", "test", "lint")
    ts.prepare()
    assert ts.get_ready() == ("fetch",)
    assert ts.get_ready() == ()
    assert ts.is_active() is True
    ts.done("fetch")
    assert ts.get_ready() == ("compile", "lint")
    ts.done("lint")
    assert bool(ts) is True
    assert ts.get_ready() == ()
    ts.done("compile")
    assert ts.get_ready() == ("test",)
    ts.done("test")
    assert ts.get_ready() == ("package",)
    assert ts.is_active() is True
    ts.done("package")
    assert ts.is_active() is False


def test_sorter_static_order_from_graph():
    ts = TopologicalSorter(build_chain())
    assert ts.static_order() == ["socks", "shirt", "trousers", "tie", "shoes", "jacket"]


def test_sorter_does_not_modify_the_given_graph():
    g = Graph([(1, 2)])
    ts = TopologicalSorter(g)
    ts.add(3, 2)
    assert g.nodes() == [1, 2]
    assert ts.static_order() == [1, 2, 3]


def test_sorter_misuse_raises():
    ts = TopologicalSorter()
    ts.add("a")
    with pytest.raises(ValueError, match="prepare\\(\\) must be called first"):
        ts.get_ready()
    with pytest.raises(ValueError, match="must be called first"):
        ts.done("a")
    with pytest.raises(ValueError, match="must be called first"):
        ts.is_active()
    ts.prepare()
    with pytest.raises(ValueError, match="already called"):
        ts.prepare()
    with pytest.raises(ValueError, match="cannot be added"):
        ts.add("b")
    with pytest.raises(ValueError, match="'a' was not handed out"):
        ts.done("a")
    ts.get_ready()
    ts.done("a")
    with pytest.raises(ValueError, match="'a' was already marked done"):
        ts.done("a")


def test_sorter_prepare_detects_cycles():
    ts = TopologicalSorter()
    ts.add("x", "z")
    ts.add("y", "x")
    ts.add("z", "y")
    with pytest.raises(CycleError) as info:
        ts.prepare()
    assert info.value.cycle == ["x", "y", "z"]
