"""expreval: a small arithmetic and boolean expression evaluator."""

from .ast import (BinaryOp, Call, Comparison, Conditional, Literal, LogicalOp,
                  Name, Node, UnaryOp)
from .errors import (ArgumentError, DivisionByZeroError, EvaluationError,
                     ExprError, ParseError, TokenizeError, TypeMismatchError,
                     UndefinedNameError)
from .evaluator import BUILTINS, Evaluator, Expression, Function, Scope, evaluate
from .parser import Parser, parse
from .tokenizer import Token, TokenKind, Tokenizer, tokenize

__all__ = [
    "BinaryOp", "Call", "Comparison", "Conditional", "Literal", "LogicalOp",
    "Name", "Node", "UnaryOp", "ArgumentError", "DivisionByZeroError",
    "EvaluationError", "ExprError", "ParseError", "TokenizeError",
    "TypeMismatchError", "UndefinedNameError", "BUILTINS", "Evaluator",
    "Expression", "Function", "Scope", "evaluate", "Parser", "parse", "Token",
    "TokenKind", "Tokenizer", "tokenize",
]
