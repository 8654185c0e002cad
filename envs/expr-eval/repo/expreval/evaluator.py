"""Evaluates syntax trees against variables and functions."""

import math
from contextlib import contextmanager

from . import ast
from .errors import (ArgumentError, DivisionByZeroError, EvaluationError,
                     ExprError, TypeMismatchError, UndefinedNameError)
from .parser import parse

MAX_EXPONENT = 1000


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def type_name(value):
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


def truthy(value):
    if isinstance(value, bool):
        return value
    if is_number(value):
        return value != 0
    if isinstance(value, str):
        return value != ""
    raise TypeMismatchError(f"cannot use {type_name(value)} as a condition")


class Function:
    """A callable with an arity range; max_args None means variadic."""

    def __init__(self, name, impl, min_args, max_args=None):
        self.name = name
        self.impl = impl
        self.min_args = min_args
        self.max_args = max_args

    def check_arity(self, count, position=None):
        if count < self.min_args:
            raise ArgumentError(
                f"{self.name}() takes at least {self.min_args} argument(s), got {count}", position)
        if self.max_args is not None and count > self.max_args:
            raise ArgumentError(
                f"{self.name}() takes at most {self.max_args} argument(s), got {count}", position)

    def __call__(self, args, position=None):
        self.check_arity(len(args), position)
        try:
            return self.impl(*args)
        except ExprError:
            raise
        except (TypeError, ValueError, OverflowError) as err:
            raise ArgumentError(f"{self.name}(): {err}", position) from err


def _numbers(values):
    for value in values:
        if not is_number(value):
            raise TypeError(f"expected numbers, got {type_name(value)}")
    return values


def _round(value, digits=0):
    _numbers([value, digits])
    if not isinstance(digits, int):
        raise ValueError("digits must be an integer")
    magnitude = abs(value)
    # Round half away from zero, unlike Python's banker's rounding.
    if digits < 0:
        step = 10 ** -digits
        result = math.floor(magnitude / step + 0.5) * step
    else:
        factor = 10 ** digits
        result = math.floor(magnitude * factor + 0.5) / factor
        if digits == 0:
            result = int(result)
    return -result if value < 0 else result


def _clamp(value, low, high):
    _numbers([value, low, high])
    if low > high:
        raise ValueError("lower bound is greater than upper bound")
    return min(max(value, low), high)


def _avg(*values):
    _numbers(values)
    return sum(values) / len(values)


def _sqrt(value):
    _numbers([value])
    if value < 0:
        raise ValueError("square root of a negative number")
    return math.sqrt(value)


def _sign(value):
    _numbers([value])
    if value > 0:
        return 1
    if value < 0:
        return -1
    return 0


BUILTINS = {
    "abs": Function("abs", lambda x: abs(_numbers([x])[0]), 1, 1),
    "min": Function("min", lambda *xs: min(_numbers(xs)), 1),
    "max": Function("max", lambda *xs: max(_numbers(xs)), 1),
    "round": Function("round", _round, 1, 2),
    "floor": Function("floor", lambda x: math.floor(_numbers([x])[0]), 1, 1),
    "ceil": Function("ceil", lambda x: math.ceil(_numbers([x])[0]), 1, 1),
    "sqrt": Function("sqrt", _sqrt, 1, 1),
    "sign": Function("sign", _sign, 1, 1),
    "clamp": Function("clamp", _clamp, 3, 3),
    "sum": Function("sum", lambda *xs: sum(_numbers(xs)), 0),
    "avg": Function("avg", _avg, 1),
    "len": Function("len", lambda s: len(s) if isinstance(s, str) else len(str(s)), 1, 1),
}


class Scope:
    """Variables in nested scopes; inner bindings shadow outer ones."""

    def __init__(self, variables=None):
        self.frames = [dict(variables or {})]

    def lookup(self, name, position=None):
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        raise UndefinedNameError(name, position)

    def set(self, name, value):
        self.frames[-1][name] = value

    def __contains__(self, name):
        return any(name in frame for frame in self.frames)

    @contextmanager
    def push(self, bindings):
        self.frames.append(dict(bindings))
        try:
            yield self
        finally:
            self.frames.pop()


class Evaluator:
    def __init__(self, variables=None, functions=None, use_builtins=True):
        self.scope = Scope(variables)
        self.functions = dict(BUILTINS) if use_builtins else {}
        for name, impl in (functions or {}).items():
            self.define_function(name, impl)

    def define_function(self, name, impl, min_args=0, max_args=None):
        if isinstance(impl, Function):
            self.functions[name] = impl
        else:
            self.functions[name] = Function(name, impl, min_args, max_args)

    def bindings(self, **values):
        """Context manager adding temporary variables."""
        return self.scope.push(values)

    def evaluate(self, expression):
        node = parse(expression) if isinstance(expression, str) else expression
        try:
            return node.accept(self)
        except ExprError as err:
            if isinstance(expression, str):
                err.with_source(expression)
            raise

    # -- visitors ------------------------------------------------------
    def generic_visit(self, node):
        raise EvaluationError(f"cannot evaluate {type(node).__name__}", node.position)

    def visit_Literal(self, node):
        return node.value

    def visit_Name(self, node):
        return self.scope.lookup(node.name, node.position)

    def visit_UnaryOp(self, node):
        value = node.operand.accept(self)
        if node.op == "not":
            return not truthy(value)
        if not is_number(value):
            raise TypeMismatchError(f"bad operand type for unary {node.op}: {type_name(value)}", node.position)
        return -value if node.op == "-" else value

    def visit_LogicalOp(self, node):
        left = truthy(node.left.accept(self))
        if node.op == "and" and not left:
            return False
        if node.op == "or" and left:
            return True
        return truthy(node.right.accept(self))

    def visit_BinaryOp(self, node):
        left = node.left.accept(self)
        right = node.right.accept(self)
        return self.arithmetic(node.op, left, right, node.position)

    def arithmetic(self, op, left, right, position):
        if op == "+" and isinstance(left, str) and isinstance(right, str):
            return left + right
        if not (is_number(left) and is_number(right)):
            raise TypeMismatchError(
                f"unsupported operand types for {op}: {type_name(left)} and {type_name(right)}", position)
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op in ("/", "//", "%") and right == 0:
            raise DivisionByZeroError(position)
        if op == "/":
            result = left / right
            return int(result) if result.is_integer() and isinstance(left, int) and isinstance(right, int) else result
        if op == "//":
            return left // right
        if op == "%":
            return left % right
        if op == "**":
            if abs(right) > MAX_EXPONENT:
                raise EvaluationError("exponent too large", position)
            if left == 0 and right < 0:
                raise DivisionByZeroError(position)
            return left ** right
        raise EvaluationError(f"unknown operator {op}", position)

    def compare(self, op, left, right, position):
        if op == "==":
            return left == right and type_name(left) == type_name(right)
        if op == "!=":
            return left != right or type_name(left) != type_name(right)
        both_numbers = is_number(left) and is_number(right)
        both_strings = isinstance(left, str) and isinstance(right, str)
        if not (both_numbers or both_strings):
            raise TypeMismatchError(
                f"cannot compare {type_name(left)} and {type_name(right)} with {op}", position)
        if op == "<":
            return left < right
        if op == "<=":
            return left <= right
        if op == ">":
            return left > right
        return left >= right

    def visit_Comparison(self, node):
        left = node.operands[0].accept(self)
        for op, operand in zip(node.ops, node.operands[1:]):
            right = operand.accept(self)
            if not self.compare(op, left, right, node.position):
                return False
            left = right
        return True

    def visit_Conditional(self, node):
        if truthy(node.condition.accept(self)):
            return node.then.accept(self)
        return node.otherwise.accept(self)

    def visit_Call(self, node):
        function = self.functions.get(node.name)
        if function is None:
            raise UndefinedNameError(node.name, node.position, kind="function")
        args = [arg.accept(self) for arg in node.args]
        return function(args, node.position)


class Expression:
    """A parsed expression that can be evaluated many times."""

    def __init__(self, source):
        self.source = source
        self.tree = parse(source)

    def variables(self):
        return self.tree.names()

    def evaluate(self, variables=None, functions=None):
        evaluator = Evaluator(variables, functions)
        try:
            return evaluator.evaluate(self.tree)
        except ExprError as err:
            raise err.with_source(self.source)

    def __repr__(self):
        return f"Expression({self.source!r})"


def evaluate(source, variables=None, functions=None):
    """Parse and evaluate `source` in one step."""
    return Evaluator(variables, functions).evaluate(source)
