"""Pratt parser: tokens -> syntax tree.

Precedence, loosest first:
    ?:  (right associative)
    or
    and
    not
    == != < <= > >=  (chains: a < b < c)
    + -
    * / // %
    unary - +
    **  (right associative, binds tighter than unary minus on its left)
"""

from contextlib import contextmanager

from . import ast
from .errors import ParseError
from .tokenizer import TokenKind, tokenize

TERNARY_BP = 1
OR_BP = 2
AND_BP = 3
NOT_BP = 4
COMPARE_BP = 5
ADD_BP = 6
MUL_BP = 7
UNARY_BP = 8
POWER_BP = 9

BINARY_BP = {
    "+": ADD_BP, "-": ADD_BP,
    "*": MUL_BP, "/": MUL_BP, "//": MUL_BP, "%": MUL_BP,
    "**": POWER_BP,
}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
DEFAULT_MAX_DEPTH = 100


class Parser:
    def __init__(self, tokens, source="", max_depth=DEFAULT_MAX_DEPTH):
        self.tokens = tokens
        self.source = source
        self.index = 0
        self.depth = 0
        self.max_depth = max_depth

    # -- token helpers -------------------------------------------------
    def peek(self):
        return self.tokens[self.index]

    def advance(self):
        token = self.tokens[self.index]
        if token.kind is not TokenKind.EOF:
            self.index += 1
        return token

    def error(self, message, token):
        return ParseError(message, token.position, self.source)

    def expect(self, kind, what):
        token = self.peek()
        if token.kind is not kind:
            raise self.error(f"expected {what} but found {describe(token)}", token)
        return self.advance()

    @contextmanager
    def nested(self, token):
        self.depth += 1
        try:
            if self.depth > self.max_depth:
                raise self.error("expression nested too deeply", token)
            yield
        finally:
            self.depth -= 1

    # -- grammar -------------------------------------------------------
    def parse(self):
        node = self.expression(0)
        token = self.peek()
        if token.kind is not TokenKind.EOF:
            raise self.error(f"unexpected {describe(token)}", token)
        return node

    def expression(self, rbp):
        token = self.advance()
        with self.nested(token):
            left = self.prefix(token)
            while rbp < self.left_bp(self.peek()):
                left = self.infix(self.advance(), left)
        return left

    def left_bp(self, token):
        if token.kind is not TokenKind.OPERATOR:
            return 0
        if token.value in BINARY_BP:
            return BINARY_BP[token.value]
        if token.value in COMPARISONS:
            return COMPARE_BP
        if token.value == "and":
            return AND_BP
        if token.value == "or":
            return OR_BP
        if token.value == "?":
            return TERNARY_BP
        return 0

    def prefix(self, token):
        kind = token.kind
        if kind in (TokenKind.NUMBER, TokenKind.STRING, TokenKind.BOOLEAN):
            return ast.Literal(token.value, position=token.position)
        if kind is TokenKind.NAME:
            if self.peek().kind is TokenKind.LPAREN:
                return self.call(token)
            return ast.Name(token.value, position=token.position)
        if kind is TokenKind.LPAREN:
            inner = self.expression(0)
            self.expect(TokenKind.RPAREN, "')'")
            return inner
        if token.is_op("-", "+"):
            operand = self.expression(UNARY_BP)
            return ast.UnaryOp(token.value, operand, position=token.position)
        if token.is_op("not"):
            operand = self.expression(NOT_BP)
            return ast.UnaryOp("not", operand, position=token.position)
        if kind is TokenKind.EOF:
            raise self.error("unexpected end of input", token)
        raise self.error(f"unexpected {describe(token)}", token)

    def infix(self, token, left):
        op = token.value
        if op in COMPARISONS:
            return self.comparison(token, left)
        if op == "?":
            then = self.expression(0)
            self.expect_op(":")
            otherwise = self.expression(TERNARY_BP - 1)
            return ast.Conditional(left, then, otherwise, position=token.position)
        if op in ("and", "or"):
            right = self.expression(self.left_bp(token))
            return ast.LogicalOp(op, left, right, position=token.position)
        bp = BINARY_BP[op]
        # "**" is right associative: parse its right side with a lower bp.
        right = self.expression(bp - 1 if op == "**" else bp)
        return ast.BinaryOp(op, left, right, position=token.position)

    def expect_op(self, value):
        token = self.peek()
        if not token.is_op(value):
            raise self.error(f"expected '{value}' but found {describe(token)}", token)
        return self.advance()

    def comparison(self, token, left):
        ops = [token.value]
        operands = [left, self.expression(COMPARE_BP)]
        while self.peek().is_op(*COMPARISONS):
            ops.append(self.advance().value)
            operands.append(self.expression(COMPARE_BP))
        return ast.Comparison(ops, operands, position=token.position)

    def call(self, name_token):
        self.advance()  # "("
        args = []
        if self.peek().kind is not TokenKind.RPAREN:
            while True:
                args.append(self.expression(0))
                if self.peek().kind is TokenKind.COMMA:
                    self.advance()
                    continue
                break
        self.expect(TokenKind.RPAREN, "')' after arguments")
        return ast.Call(name_token.value, args, position=name_token.position)


def describe(token):
    if token.kind is TokenKind.EOF:
        return "end of input"
    if token.kind is TokenKind.OPERATOR:
        return f"operator '{token.value}'"
    if token.kind in (TokenKind.LPAREN, TokenKind.RPAREN, TokenKind.COMMA):
        return f"'{token.value}'"
    return f"{token.kind.value} {token.value!r}"


def parse(source, max_depth=DEFAULT_MAX_DEPTH):
    """Parse expression text into a syntax tree."""
    try:
        return Parser(tokenize(source), source, max_depth).parse()
    except ParseError as err:
        raise err.with_source(source)
