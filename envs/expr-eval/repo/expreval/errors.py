"""Exception hierarchy for expreval. Every error may carry the position
(0-based character offset) in the source where it happened."""


class ExprError(Exception):
    """Base class of every error raised by expreval."""

    def __init__(self, message, position=None, source=None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.source = source

    def __str__(self):
        if self.position is None:
            return self.message
        return f"{self.message} at position {self.position}"

    def with_source(self, source):
        """Attach the expression text (kept if one is already set)."""
        if self.source is None:
            self.source = source
        return self

    def pointer(self):
        """The source line with a caret under the error position."""
        if self.source is None or self.position is None:
            return str(self)
        return f"{self.source}\n{' ' * self.position}^"


class TokenizeError(ExprError):
    """Raised for characters or literals the tokenizer cannot read."""


class ParseError(ExprError):
    """Raised when the token stream does not form a valid expression."""


class EvaluationError(ExprError):
    """Raised while evaluating a syntactically valid expression."""


class UndefinedNameError(EvaluationError):
    def __init__(self, name, position=None, kind="variable"):
        super().__init__(f"undefined {kind} '{name}'", position)
        self.name = name


class ArgumentError(EvaluationError):
    """Wrong number or kind of arguments passed to a function."""


class DivisionByZeroError(EvaluationError):
    def __init__(self, position=None):
        super().__init__("division by zero", position)


class TypeMismatchError(EvaluationError):
    """An operator was applied to values of unsupported types."""
