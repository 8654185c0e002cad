"""Syntax tree node classes produced by the parser.

Nodes compare equal by structure; the source position is not compared.
`to_source()` renders a fully parenthesised form, handy for checking
precedence.
"""

from dataclasses import dataclass, field


@dataclass(eq=True)
class Node:
    position: int = field(default=0, compare=False, kw_only=True)

    def accept(self, visitor):
        method = getattr(visitor, f"visit_{type(self).__name__}", None)
        if method is None:
            method = visitor.generic_visit
        return method(self)

    def children(self):
        return []

    def walk(self):
        """Yield this node and all its descendants, depth first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children()))

    def names(self):
        """Sorted variable names referenced anywhere in the tree."""
        return sorted({node.name for node in self.walk() if isinstance(node, Name)})

    def depth(self):
        kids = self.children()
        if not kids:
            return 1
        return 1 + max(child.depth() for child in kids)

    def to_source(self):
        raise NotImplementedError


@dataclass(eq=True)
class Literal(Node):
    value: object = None

    def to_source(self):
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        if isinstance(self.value, str):
            escaped = self.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            return f'"{escaped}"'
        return repr(self.value)


@dataclass(eq=True)
class Name(Node):
    name: str = ""

    def to_source(self):
        return self.name


@dataclass(eq=True)
class UnaryOp(Node):
    op: str = "-"
    operand: Node = None

    def children(self):
        return [self.operand]

    def to_source(self):
        spacer = " " if self.op == "not" else ""
        return f"({self.op}{spacer}{self.operand.to_source()})"


@dataclass(eq=True)
class BinaryOp(Node):
    op: str = "+"
    left: Node = None
    right: Node = None

    def children(self):
        return [self.left, self.right]

    def to_source(self):
        return f"({self.left.to_source()} {self.op} {self.right.to_source()})"


class LogicalOp(BinaryOp):
    """`and` / `or`: evaluated with short-circuiting."""


@dataclass(eq=True)
class Comparison(Node):
    """A comparison chain such as `a < b <= c`: ops has one entry fewer
    than operands."""
    ops: list = field(default_factory=list)
    operands: list = field(default_factory=list)

    def children(self):
        return list(self.operands)

    def to_source(self):
        parts = [self.operands[0].to_source()]
        for op, operand in zip(self.ops, self.operands[1:]):
            parts.append(op)
            parts.append(operand.to_source())
        return "(" + " ".join(parts) + ")"


@dataclass(eq=True)
class Call(Node):
    name: str = ""
    args: list = field(default_factory=list)

    def children(self):
        return list(self.args)

    def to_source(self):
        return f"{self.name}({', '.join(arg.to_source() for arg in self.args)})"


@dataclass(eq=True)
class Conditional(Node):
    condition: Node = None
    then: Node = None
    otherwise: Node = None

    def children(self):
        return [self.condition, self.then, self.otherwise]

    def to_source(self):
        return f"({self.condition.to_source()} ? {self.then.to_source()} : {self.otherwise.to_source()})"
