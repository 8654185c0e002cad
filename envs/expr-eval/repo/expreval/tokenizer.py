"""Turns expression text into a list of tokens."""

from dataclasses import dataclass
from enum import Enum

from .errors import TokenizeError


class TokenKind(Enum):
    NUMBER = "number"
    STRING = "string"
    BOOLEAN = "boolean"
    NAME = "name"
    OPERATOR = "operator"
    LPAREN = "("
    RPAREN = ")"
    COMMA = ","
    EOF = "end of input"


@dataclass(frozen=True)
class Token:
    kind: TokenKind
    value: object
    position: int

    def is_op(self, *values):
        return self.kind is TokenKind.OPERATOR and self.value in values


# Longest operators first so that "**" wins over "*".
OPERATORS = ("**", "//", "==", "!=", "<=", ">=", "&&", "||",
             "+", "-", "*", "/", "%", "<", ">", "!", "?", ":", "^")
ALIASES = {"&&": "and", "||": "or", "!": "not", "^": "**"}
WORD_OPERATORS = {"and", "or", "not"}
BOOLEANS = {"true": True, "false": False}
DIGITS = "0123456789"
HEX_DIGITS = "0123456789abcdefABCDEF"
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "0": "\0"}


class Tokenizer:
    def __init__(self, source):
        if not isinstance(source, str):
            raise TypeError("expression source must be a string")
        self.source = source
        self.pos = 0

    def _peek(self, offset=0):
        index = self.pos + offset
        if index < len(self.source):
            return self.source[index]
        return ""

    def tokens(self):
        result = []
        while True:
            token = self.next_token()
            result.append(token)
            if token.kind is TokenKind.EOF:
                return result

    def next_token(self):
        while self._peek().isspace():
            self.pos += 1
        start = self.pos
        ch = self._peek()
        if ch == "":
            return Token(TokenKind.EOF, None, start)
        if ch.isdigit() or (ch == "." and self._peek(1).isdigit()):
            return self._read_number()
        if ch.isalpha() or ch == "_":
            return self._read_name()
        if ch in "'\"":
            return self._read_string(ch)
        simple = {"(": TokenKind.LPAREN, ")": TokenKind.RPAREN, ",": TokenKind.COMMA}
        if ch in simple:
            self.pos += 1
            return Token(simple[ch], ch, start)
        for op in OPERATORS:
            if self.source.startswith(op, start):
                self.pos += len(op)
                return Token(TokenKind.OPERATOR, ALIASES.get(op, op), start)
        raise TokenizeError(f"unexpected character {ch!r}", start, self.source)

    def _read_digits(self, allow_hex=False):
        """Read digits with optional single "_" separators between them."""
        start = self.pos
        valid = HEX_DIGITS if allow_hex else DIGITS
        while True:
            ch = self._peek()
            if ch != "" and ch in valid:
                self.pos += 1
            elif ch == "_" and self.pos > start and self._peek(1) != "" and self._peek(1) in valid:
                self.pos += 1
            else:
                break
        return self.source[start:self.pos].replace("_", "")

    def _read_number(self):
        start = self.pos
        if self._peek() == "0" and self._peek(1) in ("x", "X"):
            self.pos += 2
            digits = self._read_digits(allow_hex=True)
            if digits == "":
                raise TokenizeError("hexadecimal literal needs digits", start, self.source)
            return Token(TokenKind.NUMBER, int(digits, 16), start)
        text = self._read_digits()
        is_float = False
        if self._peek() == "." and self._peek(1).isdigit():
            self.pos += 1
            text += "." + self._read_digits()
            is_float = True
        if self._peek() in ("e", "E"):
            mark = self.pos
            self.pos += 1
            sign = ""
            if self._peek() in ("+", "-"):
                sign = self._peek()
                self.pos += 1
            exponent = self._read_digits()
            if exponent == "":
                raise TokenizeError("malformed exponent", mark, self.source)
            text += "e" + sign + exponent
            is_float = True
        if self._peek().isalpha() or self._peek() == "_":
            raise TokenizeError("invalid character in number", self.pos, self.source)
        value = float(text) if is_float else int(text)
        return Token(TokenKind.NUMBER, value, start)

    def _read_name(self):
        start = self.pos
        while self._peek().isalnum() or self._peek() == "_":
            self.pos += 1
        word = self.source[start:self.pos]
        if word in BOOLEANS:
            return Token(TokenKind.BOOLEAN, BOOLEANS[word], start)
        if word in WORD_OPERATORS:
            return Token(TokenKind.OPERATOR, word, start)
        return Token(TokenKind.NAME, word, start)

    def _read_string(self, quote):
        start = self.pos
        self.pos += 1
        chars = []
        while True:
            ch = self._peek()
            if ch == "":
                raise TokenizeError("unterminated string", start, self.source)
            if ch == quote:
                self.pos += 1
                return Token(TokenKind.STRING, "".join(chars), start)
            if ch == "\\":
                escaped = self._peek(1)
                if escaped not in ESCAPES:
                    raise TokenizeError(f"unknown escape \\{escaped}", self.pos, self.source)
                chars.append(ESCAPES[escaped])
                self.pos += 2
            else:
                chars.append(ch)
                self.pos += 1


def tokenize(source):
    """Return the list of tokens for `source`, ending with an EOF token."""
    return Tokenizer(source).tokens()
