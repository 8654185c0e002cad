import math

import pytest

from expreval import ast
from expreval.errors import (ArgumentError, DivisionByZeroError, EvaluationError,
                             ParseError, TypeMismatchError, UndefinedNameError)
from expreval.evaluator import (Evaluator, Expression, Function, Scope, evaluate,
                                truthy, type_name)


def test_basic_arithmetic():
    assert evaluate("1 + 2 * 3") == 7
    assert evaluate("(1 + 2) * 3") == 9
    assert evaluate("10 - 4 - 3") == 3
    assert evaluate("7 // 2") == 3
    assert evaluate("-7 // 2") == -4
    assert evaluate("7 % 3") == 1
    assert evaluate("-7 % 3") == 2
    assert evaluate("1.5 * 4") == 6.0


def test_true_division_keeps_integers_when_exact():
    assert evaluate("6 / 3") == 2
    assert isinstance(evaluate("6 / 3"), int)
    assert evaluate("7 / 2") == 3.5
    assert isinstance(evaluate("6.0 / 3"), float)


def test_powers_and_unary_minus():
    assert evaluate("2 ** 10") == 1024
    assert evaluate("2 ** 3 ** 2") == 512
    assert evaluate("-2 ** 2") == -4
    assert evaluate("(-2) ** 2") == 4
    assert evaluate("2 ** -1") == 0.5
    assert evaluate("-(3 - 5)") == 2
    assert evaluate("+4") == 4


def test_power_guards():
    with pytest.raises(EvaluationError, match="exponent too large at position 2"):
        evaluate("2 ** 1001")
    assert evaluate("1 ** 1000") == 1
    assert evaluate("2 ** -1000") == 2.0 ** -1000
    with pytest.raises(DivisionByZeroError):
        evaluate("0 ** -1")
    assert evaluate("0 ** 0") == 1


def test_division_by_zero_reports_operator_position():
    for text, position in [("1 / 0", 2), ("5 // (2 - 2)", 2), ("x % 0", 2), ("1 + 4 / 0", 6)]:
        with pytest.raises(DivisionByZeroError) as info:
            evaluate(text, {"x": 3})
        assert info.value.position == position
        assert info.value.source == text


def test_variables_and_undefined_names():
    assert evaluate("x * y + z", {"x": 2, "y": 3, "z": 4}) == 10
    with pytest.raises(UndefinedNameError) as info:
        evaluate("a + b", {"a": 1})
    assert info.value.name == "b"
    assert str(info.value) == "undefined variable 'b' at position 4"
    assert info.value.pointer() == "a + b\n    ^"


def test_string_concatenation_and_type_errors():
    assert evaluate("'ab' + \"cd\"") == "abcd"
    with pytest.raises(TypeMismatchError, match="unsupported operand types for \\+: string and number at position 4"):
        evaluate("'a' + 1")
    with pytest.raises(TypeMismatchError, match="unsupported operand types for \\*: boolean and number"):
        evaluate("true * 2")
    with pytest.raises(TypeMismatchError, match="bad operand type for unary -: string at position 0"):
        evaluate("-'x'")
    with pytest.raises(TypeMismatchError):
        evaluate("'a' - 'b'")


def test_comparisons():
    assert evaluate("1 < 2") is True
    assert evaluate("2 < 2") is False
    assert evaluate("2 <= 2") is True
    assert evaluate("3 > 2") is True
    assert evaluate("2 > 2") is False
    assert evaluate("2 >= 3") is False
    assert evaluate("3 >= 3") is True
    assert evaluate("'apple' < 'banana'") is True


def test_equality_is_type_aware():
    assert evaluate("1 == 1.0") is True
    assert evaluate("1 == true") is False
    assert evaluate("1 != true") is True
    assert evaluate("'1' == 1") is False
    assert evaluate("2 != 2") is False
    assert evaluate("'a' != 'b'") is True
    assert evaluate("false == false") is True


def test_ordering_mismatched_types_raises():
    with pytest.raises(TypeMismatchError, match="cannot compare string and number with < at position 4"):
        evaluate("'a' < 1")
    with pytest.raises(TypeMismatchError):
        evaluate("true > false")


def test_comparison_chains_short_circuit():
    calls = []

    def probe(value):
        calls.append(value)
        return value

    env = {"x": 5}
    assert evaluate("1 < x < 10", env) is True
    assert evaluate("1 < x < 3", env) is False
    assert evaluate("1 <= 1 < 2 == 2", env) is True
    assert evaluate("3 > 2 > 1 > 1", env) is False
    assert evaluate("5 < probe(1) < probe(2)", functions={"probe": probe}) is False
    assert calls == [1]


def test_logical_operators_short_circuit():
    calls = []

    def boom():
        calls.append("boom")
        return True

    fns = {"boom": boom}
    assert evaluate("false and boom()", functions=fns) is False
    assert evaluate("true or boom()", functions=fns) is True
    assert calls == []
    assert evaluate("true and boom()", functions=fns) is True
    assert evaluate("false or boom()", functions=fns) is True
    assert calls == ["boom", "boom"]
    assert evaluate("1 and 'x'") is True
    assert evaluate("0 or ''") is False
    assert evaluate("not 0") is True
    assert evaluate("!(1 < 2)") is False


def test_truthiness_rules():
    assert truthy(True) is True
    assert truthy(0.0) is False
    assert truthy(-1) is True
    assert truthy("") is False
    assert truthy("0") is True
    with pytest.raises(TypeMismatchError, match="cannot use list as a condition"):
        truthy([1])


def test_type_names():
    assert type_name(True) == "boolean"
    assert type_name(3) == "number"
    assert type_name(2.5) == "number"
    assert type_name("s") == "string"
    assert type_name(None) == "NoneType"


def test_conditional_evaluates_one_branch():
    assert evaluate("x > 3 ? 'big' : 'small'", {"x": 5}) == "big"
    assert evaluate("x > 3 ? 'big' : 'small'", {"x": 3}) == "small"
    assert evaluate("x ? 1 / x : 0", {"x": 0}) == 0
    assert evaluate("a ? 1 : b ? 2 : 3", {"a": False, "b": True}) == 2
    assert evaluate("a ? 1 : b ? 2 : 3", {"a": False, "b": False}) == 3


def test_builtin_min_max_abs_sum_avg():
    assert evaluate("min(4, 2, 8)") == 2
    assert evaluate("max(4, 2, 8)") == 8
    assert evaluate("max(-1)") == -1
    assert evaluate("abs(-3.5)") == 3.5
    assert evaluate("abs(3)") == 3
    assert evaluate("sum()") == 0
    assert evaluate("sum(1, 2, 3)") == 6
    assert evaluate("avg(1, 2, 3, 6)") == 3
    assert evaluate("avg(5)") == 5


def test_builtin_round_is_half_away_from_zero():
    assert evaluate("round(2.5)") == 3
    assert evaluate("round(-2.5)") == -3
    assert evaluate("round(2.4)") == 2
    assert isinstance(evaluate("round(2.4)"), int)
    assert evaluate("round(3.14159, 2)") == 3.14
    assert evaluate("round(-3.14159, 3)") == -3.142
    assert evaluate("round(1234, -2)") == 1200
    assert evaluate("round(1250, -2)") == 1300
    assert evaluate("round(1240, -2)") == 1200
    assert evaluate("round(0.6)") == 1
    assert evaluate("round(0.4)") == 0
    with pytest.raises(ArgumentError, match="round\\(\\): digits must be an integer"):
        evaluate("round(1.5, 0.5)")


def test_builtin_floor_ceil_sqrt_sign_clamp_len():
    assert evaluate("floor(-2.5)") == -3
    assert evaluate("ceil(2.1)") == 3
    assert evaluate("sqrt(16)") == 4.0
    assert evaluate("sqrt(0)") == 0.0
    assert evaluate("sign(-4)") == -1
    assert evaluate("sign(0)") == 0
    assert evaluate("sign(0.1)") == 1
    assert evaluate("clamp(15, 0, 10)") == 10
    assert evaluate("clamp(-5, 0, 10)") == 0
    assert evaluate("clamp(5, 0, 10)") == 5
    assert evaluate("clamp(7, 5, 5)") == 5
    assert evaluate("len('hello')") == 5
    assert evaluate("len(12345)") == 5


def test_builtin_argument_errors():
    with pytest.raises(ArgumentError, match="abs\\(\\) takes at most 1 argument\\(s\\), got 2 at position 0"):
        evaluate("abs(1, 2)")
    with pytest.raises(ArgumentError, match="clamp\\(\\) takes at least 3 argument\\(s\\), got 2"):
        evaluate("clamp(1, 2)")
    with pytest.raises(ArgumentError, match="min\\(\\) takes at least 1 argument\\(s\\), got 0"):
        evaluate("min()")
    with pytest.raises(ArgumentError, match="sqrt\\(\\): square root of a negative number at position 4"):
        evaluate("1 + sqrt(-1)")
    with pytest.raises(ArgumentError, match="clamp\\(\\): lower bound is greater than upper bound"):
        evaluate("clamp(1, 5, 0)")
    with pytest.raises(ArgumentError, match="max\\(\\): expected numbers, got string"):
        evaluate("max(1, 'a')")


def test_builtin_arity_limits():
    for text in ["round(1, 2, 3)", "floor(1, 2)", "ceil(1, 2)", "sqrt(1, 2)",
                 "sign(1, 2)", "clamp(1, 2, 3, 4)", "len('a', 'b')", "abs()"]:
        with pytest.raises(ArgumentError):
            evaluate(text)


def test_unknown_function():
    with pytest.raises(UndefinedNameError) as info:
        evaluate("2 * nope(1)")
    assert str(info.value) == "undefined function 'nope' at position 4"
    assert info.value.name == "nope"


def test_custom_functions():
    ev = Evaluator({"x": 3}, {"double": lambda v: v * 2})
    assert ev.evaluate("double(x) + 1") == 7
    ev.define_function("hyp", lambda a, b: math.hypot(a, b), 2, 2)
    assert ev.evaluate("hyp(3, 4)") == 5.0
    with pytest.raises(ArgumentError, match="hyp\\(\\) takes at least 2 argument\\(s\\), got 1"):
        ev.evaluate("hyp(3)")
    with pytest.raises(ArgumentError, match="double\\(\\): "):
        ev.evaluate("double()")
    ev.define_function("triple", Function("triple", lambda v: v * 3, 1, 1))
    assert ev.evaluate("triple(2)") == 6


def test_evaluator_without_builtins():
    ev = Evaluator(use_builtins=False)
    with pytest.raises(UndefinedNameError, match="undefined function 'max'"):
        ev.evaluate("max(1, 2)")
    assert Evaluator().evaluate("max(1, 2)") == 2


def test_scope_shadowing_and_restoring():
    single = Scope()
    single.set("a", 1)
    assert single.lookup("a") == 1
    scope = Scope({"x": 1, "y": 2})
    with scope.push({"x": 10}):
        assert scope.lookup("x") == 10
        assert scope.lookup("y") == 2
        scope.set("z", 3)
        assert "z" in scope
    assert scope.lookup("x") == 1
    assert "z" not in scope
    assert "y" in scope
    with pytest.raises(UndefinedNameError, match="undefined variable 'z' at position 7"):
        scope.lookup("z", 7)


def test_temporary_bindings_survive_errors():
    ev = Evaluator({"rate": 2})
    with ev.bindings(rate=5, n=4):
        assert ev.evaluate("rate * n") == 20
    assert ev.evaluate("rate") == 2
    with pytest.raises(ZeroDivisionError):
        with ev.bindings(n=1):
            raise ZeroDivisionError
    with pytest.raises(UndefinedNameError):
        ev.evaluate("n")


def test_errors_carry_source_and_pointer():
    with pytest.raises(ParseError) as info:
        evaluate("1 + * 2")
    assert info.value.pointer() == "1 + * 2\n    ^"
    with pytest.raises(TypeMismatchError) as info:
        Evaluator().evaluate(ast.UnaryOp("-", ast.Literal("s")))
    assert info.value.source is None
    assert info.value.pointer() == "bad operand type for unary -: string at position 0"


def test_generic_visit_rejects_unknown_nodes():
    class Weird(ast.Node):
        pass

    with pytest.raises(EvaluationError, match="cannot evaluate Weird"):
        Evaluator().evaluate(Weird(position=3))


def test_compiled_expression_reuse():
    expr = Expression("price * (1 + tax) - discount")
    assert expr.variables() == ["discount", "price", "tax"]
    assert expr.evaluate({"price": 100, "tax": 0.25, "discount": 5}) == 120.0
    assert expr.evaluate({"price": 10, "tax": 0, "discount": 0}) == 10
    with pytest.raises(UndefinedNameError) as info:
        expr.evaluate({"price": 1})
    assert info.value.source == "price * (1 + tax) - discount"
    assert repr(expr) == "Expression('price * (1 + tax) - discount')"
