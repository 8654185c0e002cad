from expreval import ast
from expreval.parser import parse


class Counter:
    def __init__(self):
        self.seen = []

    def visit_Literal(self, node):
        self.seen.append(node.value)
        return "lit"

    def generic_visit(self, node):
        return type(node).__name__


def test_structural_equality_ignores_position():
    a = ast.BinaryOp("+", ast.Literal(1, position=0), ast.Name("x", position=4), position=2)
    b = ast.BinaryOp("+", ast.Literal(1), ast.Name("x"))
    assert a == b
    assert a != ast.BinaryOp("-", ast.Literal(1), ast.Name("x"))
    assert ast.LogicalOp("and", ast.Name("a"), ast.Name("b")) != ast.BinaryOp("and", ast.Name("a"), ast.Name("b"))


def test_literal_to_source():
    assert ast.Literal(True).to_source() == "true"
    assert ast.Literal(False).to_source() == "false"
    assert ast.Literal(2.5).to_source() == "2.5"
    assert ast.Literal('a"b\n').to_source() == '"a\\"b\\n"'
    assert ast.Literal("c:\\x").to_source() == '"c:\\\\x"'


def test_to_source_round_trips_through_the_parser():
    for text in ["1 + 2 * x", "not a or b", "f(1, g(-x)) ** 2", "a < b < c ? 'y' : 'n'"]:
        tree = parse(text)
        assert parse(tree.to_source()) == tree


def test_children_and_walk_order():
    tree = parse("f(a, 1 + b)")
    kinds = [type(node).__name__ for node in tree.walk()]
    assert kinds == ["Call", "Name", "BinaryOp", "Literal", "Name"]
    assert parse("c ? x : y").children() == [ast.Name("c"), ast.Name("x"), ast.Name("y")]
    assert ast.Literal(1).children() == []


def test_names_are_sorted_and_unique():
    assert parse("b + a * b - max(c, a)").names() == ["a", "b", "c"]
    assert parse("1 + 2").names() == []


def test_depth():
    assert ast.Literal(1).depth() == 1
    assert parse("1 + 2").depth() == 2
    assert parse("1 + 2 * (3 - x)").depth() == 4
    assert parse("-f(1, 2 + 3)").depth() == 4


def test_accept_dispatches_to_visit_methods():
    counter = Counter()
    assert ast.Literal(7).accept(counter) == "lit"
    assert counter.seen == [7]
    assert ast.Name("q").accept(counter) == "Name"
    assert parse("1 < 2").accept(counter) == "Comparison"
