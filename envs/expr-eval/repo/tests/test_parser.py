import pytest

from expreval import ast
from expreval.errors import ParseError
from expreval.parser import Parser, parse
from expreval.tokenizer import tokenize


def src(text):
    return parse(text).to_source()


def test_arithmetic_precedence():
    assert src("1 + 2 * 3") == "(1 + (2 * 3))"
    assert src("1 * 2 + 3") == "((1 * 2) + 3)"
    assert src("(1 + 2) * 3") == "((1 + 2) * 3)"
    assert src("8 - 4 / 2 // 1 % 5") == "(8 - (((4 / 2) // 1) % 5))"


def test_left_associativity():
    assert src("1 - 2 - 3") == "((1 - 2) - 3)"
    assert src("8 / 4 / 2") == "((8 / 4) / 2)"
    assert src("a + b - c") == "((a + b) - c)"


def test_power_is_right_associative_and_binds_tighter_than_unary():
    assert src("2 ** 3 ** 2") == "(2 ** (3 ** 2))"
    assert src("-2 ** 2") == "(-(2 ** 2))"
    assert src("2 ** -1") == "(2 ** (-1))"
    assert src("2 * 3 ** 2") == "(2 * (3 ** 2))"
    assert src("2 ^ 3") == "(2 ** 3)"


def test_unary_operators():
    assert src("--x") == "(-(-x))"
    assert src("+x * -y") == "((+x) * (-y))"
    assert parse("-x") == ast.UnaryOp("-", ast.Name("x"))


def test_logical_precedence():
    assert src("a or b and c") == "(a or (b and c))"
    assert src("a and b or c") == "((a and b) or c)"
    assert src("not a == b") == "(not (a == b))"
    assert src("not a and b") == "((not a) and b)"
    assert src("!a || b && c") == "((not a) or (b and c))"
    assert isinstance(parse("a and b"), ast.LogicalOp)
    assert isinstance(parse("a + b"), ast.BinaryOp)
    assert not isinstance(parse("a + b"), ast.LogicalOp)


def test_comparison_chains():
    node = parse("1 < x <= 10")
    assert node == ast.Comparison(["<", "<="], [ast.Literal(1), ast.Name("x"), ast.Literal(10)])
    assert src("a + 1 == b * 2") == "((a + 1) == (b * 2))"
    assert src("a == b + 1") == "(a == (b + 1))"
    assert src("a < b * 2") == "(a < (b * 2))"
    assert src("a < b and b > c") == "((a < b) and (b > c))"
    assert len(parse("a == b != c < d").operands) == 4


def test_conditional_expression():
    assert src("c ? 1 : 2") == "(c ? 1 : 2)"
    assert src("a ? b : c ? d : e") == "(a ? b : (c ? d : e))"
    assert src("a or b ? x + 1 : y") == "((a or b) ? (x + 1) : y)"
    assert src("a ? b ? 1 : 2 : 3") == "(a ? (b ? 1 : 2) : 3)"


def test_function_calls():
    assert parse("f()") == ast.Call("f", [])
    assert parse("max(1, x)") == ast.Call("max", [ast.Literal(1), ast.Name("x")])
    assert src("f(1 + 2, g(3)) * 2") == "(f((1 + 2), g(3)) * 2)"


def test_literals_and_positions():
    node = parse("  x + 'hi'")
    assert node.position == 4
    assert node.left.position == 2
    assert node.right == ast.Literal("hi")
    assert node.right.position == 6
    assert parse("true") == ast.Literal(True)
    assert parse("f(a)").position == 0
    assert parse("1 < 2").position == 2


def test_syntax_errors_report_positions():
    cases = {
        "1 +": ("unexpected end of input", 3),
        "(1 + 2": ("expected ')' but found end of input", 6),
        "1 2": ("unexpected number 2", 2),
        ")": ("unexpected ')'", 0),
        "a ? b": ("expected ':' but found end of input", 5),
        "f(1,": ("unexpected end of input", 4),
        "f(1 2)": ("expected ')' after arguments but found number 2", 4),
        "* 3": ("unexpected operator '*'", 0),
        "a b": ("unexpected name 'b'", 2),
        "1 + ,": ("unexpected ','", 4),
    }
    for text, (message, position) in cases.items():
        with pytest.raises(ParseError) as info:
            parse(text)
        assert (info.value.message, info.value.position) == (message, position), text
        assert info.value.source == text


def test_nesting_limit():
    assert parse("((((1))))", max_depth=5) == ast.Literal(1)
    with pytest.raises(ParseError, match="nested too deeply at position 5"):
        parse("((((((1))))))", max_depth=5)
    deep = "(" * 99 + "1" + ")" * 99
    assert parse(deep) == ast.Literal(1)
    with pytest.raises(ParseError, match="nested too deeply at position 100"):
        parse("(" + deep + ")")
    parser = Parser(tokenize("-(-(-1))"), max_depth=10)
    parser.parse()
    assert parser.depth == 0


def test_parser_depth_resets_after_error():
    parser = Parser(tokenize("((1 +"), max_depth=10)
    with pytest.raises(ParseError):
        parser.parse()
    assert parser.depth == 0
