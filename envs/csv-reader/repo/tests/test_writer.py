import io

import pytest

from csvreader import (
    QUOTE_ALL,
    QUOTE_NONE,
    QUOTE_NONNUMERIC,
    DictWriter,
    WriteError,
    Writer,
    dicts_to_string,
    read_rows,
    to_string,
)


def test_minimal_quoting():
    assert to_string([["a", "b,c", 'say "hi"', "x\ny", "plain"]]) == (
        'a,"b,c","say ""hi""","x\ny",plain\r\n')


def test_value_formatting():
    assert to_string([[None, True, False, 3, 2.5, 1e20, "s"]]) == ",true,false,3,2.5,1e+20,s\r\n"


def test_lone_empty_field_is_quoted():
    assert to_string([[""], [None], ["", ""]]) == '""\r\n""\r\n,\r\n'
    assert to_string([[]]) == "\r\n"


def test_quote_all_and_nonnumeric():
    assert to_string([["a", 1, None]], quoting=QUOTE_ALL) == '"a","1",""\r\n'
    assert to_string([["a", 1, 2.5, None, True]], quoting=QUOTE_NONNUMERIC) == '"a",1,2.5,,"true"\r\n'


def test_quote_none_needs_escapechar():
    assert to_string([["a,b", "c"]], quoting=QUOTE_NONE, escapechar="\\") == "a\\,b,c\r\n"
    assert to_string([["ok", "fine"]], quoting=QUOTE_NONE) == "ok,fine\r\n"
    assert to_string([["a\\b", 'q"']], quoting=QUOTE_NONE, escapechar="\\") == 'a\\\\b,q\\"\r\n'
    assert to_string([["x\ny"]], quoting=QUOTE_NONE, quotechar=None, escapechar="\\") == "x\\\ny\r\n"
    with pytest.raises(WriteError, match="need an escapechar to write ','"):
        to_string([["a,b"]], quoting=QUOTE_NONE)


def test_escaped_quotes_without_doublequote():
    assert to_string([['a"b']], doublequote=False, escapechar="\\") == '"a\\"b"\r\n'
    assert to_string([["back\\slash"]], escapechar="\\") == "back\\\\slash\r\n"
    with pytest.raises(WriteError):
        to_string([['a"b']], doublequote=False)


def test_quotes_for_comment_and_leading_space():
    assert to_string([["#x", "y"]], comment="#") == '"#x",y\r\n'
    assert to_string([[" a", "b "]], skipinitialspace=True) == '" a",b \r\n'
    assert to_string([[" a"]]) == " a\r\n"
    assert to_string([["a|b"]], lineterminator="|") == '"a|b"|'
    assert to_string([["a\rb"]], lineterminator="\n") == '"a\rb"\n'


def test_custom_dialect_output():
    text = to_string([["a", "b;c"], ["d", "e"]], delimiter=";", quotechar="'", lineterminator="\n")
    assert text == "a;'b;c'\nd;e\n"


def test_writer_counts_and_streams():
    out = io.StringIO()
    writer = Writer(out)
    assert writer.write_row(["ab", "c"]) == 6
    assert writer.write_rows([["x"], ["y", "z"]]) == 8
    assert writer.rows_written == 3
    assert out.getvalue() == "ab,c\r\nx\r\ny,z\r\n"
    with pytest.raises(WriteError, match="only available without an output stream"):
        writer.getvalue()
    own = Writer(lineterminator="\n")
    own.write_row([1, 2])
    assert own.getvalue() == "1,2\n"


def test_round_trip_through_reader():
    rows = [["id", "note"], ["1", 'he said "no, thanks"\nthen left'], ["2", ""], ["3", "  spaced  "]]
    assert read_rows(to_string(rows)) == rows
    unix = to_string(rows, "unix")
    assert unix.startswith('"id","note"\n')
    assert read_rows(unix, "unix") == rows


def test_dict_writer():
    out = io.StringIO()
    writer = DictWriter(out, ["a", "b", "c"], restval="-")
    writer.write_header()
    writer.write_row({"a": 1, "c": "x,y"})
    writer.write_rows([{"b": 2}])
    assert out.getvalue() == 'a,b,c\r\n1,-,"x,y"\r\n-,2,-\r\n'
    with pytest.raises(WriteError, match=r"not in fieldnames: \['z'\]"):
        writer.write_row({"a": 1, "z": 2})


def test_dict_writer_options():
    writer = DictWriter(None, ["a"], extrasaction="ignore", lineterminator="\n")
    writer.write_row({"a": 5, "zzz": 6})
    assert writer.getvalue() == "5\n"
    with pytest.raises(ValueError, match="extrasaction must be 'raise' or 'ignore', not 'drop'"):
        DictWriter(None, ["a"], extrasaction="drop")
    with pytest.raises(WriteError, match="at least one field name"):
        DictWriter(None, [])


def test_dicts_to_string():
    rows = [{"x": 1, "y": 2}, {"y": 3, "z": 4}]
    assert dicts_to_string(rows, lineterminator="\n") == "x,y,z\n1,2,\n,3,4\n"
    assert dicts_to_string(rows, ["y"], extrasaction="ignore", header=False, lineterminator="\n") == "2\n3\n"
