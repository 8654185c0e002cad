import pytest

from expreval.errors import TokenizeError
from expreval.tokenizer import Token, TokenKind, Tokenizer, tokenize


def kinds_values(source):
    return [(t.kind, t.value) for t in tokenize(source)]


def test_integers_and_floats():
    assert kinds_values("42 3.5 .25") == [
        (TokenKind.NUMBER, 42),
        (TokenKind.NUMBER, 3.5),
        (TokenKind.NUMBER, 0.25),
        (TokenKind.EOF, None),
    ]
    assert isinstance(tokenize("42")[0].value, int)
    assert isinstance(tokenize("42.0")[0].value, float)


def test_exponents_underscores_and_hex():
    values = [t.value for t in tokenize("1e3 2.5E-2 4e+1 1_000_000 0xFF 0x1_0")[:-1]]
    assert values == [1000.0, 0.025, 40.0, 1000000, 255, 16]


def test_malformed_numbers():
    with pytest.raises(TokenizeError) as info:
        tokenize("1e+")
    assert info.value.message == "malformed exponent"
    assert info.value.position == 1
    with pytest.raises(TokenizeError, match="invalid character in number at position 2"):
        tokenize("12abc")
    with pytest.raises(TokenizeError, match="hexadecimal literal needs digits"):
        tokenize("0x")
    with pytest.raises(TokenizeError, match="invalid character in number at position 1"):
        tokenize("1__0")


def test_trailing_dot_is_not_part_of_number():
    with pytest.raises(TokenizeError, match="unexpected character '.' at position 1"):
        tokenize("1.")


def test_positions_are_recorded():
    tokens = tokenize("  ab +\t7")
    assert [t.position for t in tokens] == [2, 5, 7, 8]


def test_operators_longest_match_first():
    values = [t.value for t in tokenize("** // == != <= >= * / < > % ? :")[:-1]]
    assert values == ["**", "//", "==", "!=", "<=", ">=", "*", "/", "<", ">", "%", "?", ":"]
    assert all(t.kind is TokenKind.OPERATOR for t in tokenize("+ -")[:-1])


def test_symbolic_aliases_and_word_operators():
    assert [t.value for t in tokenize("&& || ! ^ and or not")[:-1]] == [
        "and", "or", "not", "**", "and", "or", "not"]
    assert tokenize("!x")[0] == Token(TokenKind.OPERATOR, "not", 0)


def test_names_booleans_and_punctuation():
    assert kinds_values("foo_1(true, false)") == [
        (TokenKind.NAME, "foo_1"),
        (TokenKind.LPAREN, "("),
        (TokenKind.BOOLEAN, True),
        (TokenKind.COMMA, ","),
        (TokenKind.BOOLEAN, False),
        (TokenKind.RPAREN, ")"),
        (TokenKind.EOF, None),
    ]
    assert tokenize("_x")[0].value == "_x"
    assert tokenize("android")[0].kind is TokenKind.NAME
    assert tokenize("True")[0].kind is TokenKind.NAME


def test_strings_with_both_quotes_and_escapes():
    assert tokenize("'it''s'")[0].value == "it"
    assert tokenize('"say \\"hi\\""')[0].value == 'say "hi"'
    assert tokenize(r"'a\nb\tc\\'")[0].value == "a\nb\tc\\"
    assert tokenize("'x' 'y'")[1] == Token(TokenKind.STRING, "y", 4)
    assert tokenize('""')[0].value == ""


def test_string_errors():
    with pytest.raises(TokenizeError) as info:
        tokenize("1 + 'abc")
    assert str(info.value) == "unterminated string at position 4"
    with pytest.raises(TokenizeError, match=r"unknown escape \\q at position 2"):
        tokenize("'a\\q'")


def test_unexpected_character_and_bad_input():
    with pytest.raises(TokenizeError) as info:
        tokenize("1 + $")
    assert info.value.position == 4
    assert info.value.source == "1 + $"
    with pytest.raises(TypeError):
        Tokenizer(5)


def test_empty_source_yields_only_eof():
    assert tokenize("") == [Token(TokenKind.EOF, None, 0)]
    assert tokenize("   ") == [Token(TokenKind.EOF, None, 3)]


def test_token_is_op():
    token = tokenize("<=")[0]
    assert token.is_op("<", "<=")
    assert not token.is_op("<")
    assert not tokenize("x")[0].is_op("x")
