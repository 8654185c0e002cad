import pytest

from csvreader import Dialect, Lexer, ParseError, tokenize


def test_simple_records():
    assert tokenize("a,b,c\n1,2,3\n") == [["a", "b", "c"], ["1", "2", "3"]]


def test_all_line_terminators_and_missing_final_newline():
    assert tokenize("a,b\r\nc,d\re,f\ng,h") == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]


def test_empty_fields_and_trailing_delimiter():
    assert tokenize(",a,,\n") == [["", "a", "", ""]]
    assert tokenize("x,") == [["x", ""]]
    assert tokenize("") == []


def test_quoted_fields_with_delimiters_newlines_and_doubled_quotes():
    text = 'id,text\n1,"a, b"\n2,"line one\r\nline two"\n3,"say ""hi"""\n4,""\n'
    assert tokenize(text) == [
        ["id", "text"], ["1", "a, b"], ["2", "line one\r\nline two"], ["3", 'say "hi"'], ["4", ""]]


def test_record_lines_and_quoted_flags():
    records = list(Lexer('a,"b"\n"x\ny",z\r\nlast,\n'))
    assert [r.line for r in records] == [1, 2, 4]
    assert [r.index for r in records] == [1, 2, 3]
    assert records[0].quoted == [False, True]
    assert records[1].quoted == [True, False]
    assert len(records[2]) == 2
    assert repr(records[0]) == "Record(line=1, fields=['a', 'b'])"


def test_record_lines_with_bare_carriage_returns():
    records = list(Lexer("a\rb\r\nc\n\rd"))
    assert [r.fields for r in records] == [["a"], ["b"], ["c"], [""], ["d"]]
    assert [r.line for r in records] == [1, 2, 3, 4, 5]


def test_blank_record_detection():
    records = list(Lexer('\n""\n'))
    assert records[0].fields == [""]
    assert records[0].is_blank() is True
    assert records[1].is_blank() is False


def test_custom_delimiter_quote_and_terminator():
    dialect = Dialect(delimiter=";", quotechar="'", lineterminator="|")
    assert tokenize("a;'b;c'|d;'it''s'|", dialect) == [["a", "b;c"], ["d", "it's"]]
    assert tokenize("a;b\nc;d", dialect) == [["a", "b"], ["c", "d"]]


def test_escape_character():
    assert tokenize(r'a\,b,c', escapechar="\\") == [["a,b", "c"]]
    assert tokenize('"x\\"y",z', escapechar="\\", doublequote=False) == [['x"y', "z"]]
    assert tokenize('a\\\nb', escapechar="\\") == [["a\nb"]]


def test_escape_at_end_of_input_reports_position():
    with pytest.raises(ParseError) as info:
        tokenize("ab,c\\", escapechar="\\")
    assert (info.value.line, info.value.column) == (1, 5)
    assert str(info.value) == "escape character at end of input (line 1, column 5)"


def test_skipinitialspace():
    assert tokenize('a, b,  "c, d"', skipinitialspace=True) == [["a", "b", "c, d"]]
    assert tokenize("a, b") == [["a", " b"]]


def test_comment_lines_are_skipped():
    text = "# header comment\na,b\n#another\n\n1,2\n"
    assert tokenize(text, comment="#") == [["a", "b"], [""], ["1", "2"]]
    assert tokenize("x,#y\n", comment="#") == [["x", "#y"]]
    assert tokenize("a\n# no newline at the end", comment="#") == [["a"]]


def test_unterminated_quote_points_at_the_opening_quote():
    with pytest.raises(ParseError) as info:
        tokenize('a,b\nc,"open\nstill open\n')
    assert info.value.line == 2
    assert info.value.column == 3
    assert info.value.message == "unterminated quoted field"


def test_text_after_closing_quote():
    assert tokenize('"ab"cd,e\n') == [["abcd", "e"]]
    assert tokenize('"a"', strict=True) == [["a"]]
    assert tokenize('"a",\n"b"', strict=True) == [["a", ""], ["b"]]
    with pytest.raises(ParseError, match=r"unexpected 'c' after closing quote \(line 2, column 5\)"):
        tokenize('x\n"ab"cd,e\n', strict=True)


def test_strict_rejects_stray_quotes():
    assert tokenize('ab"c') == [['ab"c']]
    with pytest.raises(ParseError, match=r"quote character inside an unquoted field \(line 1, column 3\)"):
        tokenize('ab"c', strict=True)


def test_quote_none_treats_quotes_as_data():
    assert tokenize('"a","b"', quoting="none") == [['"a"', '"b"']]
    assert tokenize('a"b', quoting="none", strict=True) == [['a"b']]


def test_column_counting_across_lines():
    lexer = Lexer('ab,"c\nd"\r\nxyz')
    first = lexer.next_record()
    assert first.fields == ["ab", "c\nd"]
    assert (lexer.line, lexer.column) == (3, 1)
    lexer.next_record()
    assert (lexer.line, lexer.column) == (3, 4)
    assert lexer.next_record() is None


def test_rejects_non_text():
    with pytest.raises(TypeError, match="expected str, got bytes"):
        Lexer(b"a,b")
