import io

import pytest

from csvreader import (
    CsvError,
    DictReader,
    FieldCountError,
    Reader,
    TypeInferrer,
    normalize_header,
    read_dicts,
    read_rows,
    read_table,
)


def test_read_rows_skips_blank_lines():
    assert read_rows("a,b\n\n1,2\n\n") == [["a", "b"], ["1", "2"]]
    assert read_rows("a\n\nb\n", skip_blank_lines=False) == [["a"], [""], ["b"]]


def test_reader_sources():
    assert read_rows(io.StringIO("x;y\n"), delimiter=";") == [["x", "y"]]
    assert read_rows(["a,b\n", "c,d\n"]) == [["a", "b"], ["c", "d"]]
    with pytest.raises(TypeError, match="text mode"):
        read_rows(io.BytesIO(b"a,b"))
    with pytest.raises(TypeError, match="cannot read CSV from int"):
        read_rows(5)


def test_reader_tracks_line_numbers_and_counts():
    reader = Reader('a,b\n"multi\nline",c\n\nz,w\n')
    assert next(reader) == ["a", "b"]
    assert reader.line_num == 1
    assert next(reader) == ["multi\nline", "c"]
    assert reader.line_num == 2
    assert next(reader) == ["z", "w"]
    assert reader.line_num == 5
    assert reader.rows_read == 3
    with pytest.raises(StopIteration):
        next(reader)


def test_type_inference_leaves_quoted_fields_as_text():
    rows = read_rows('1,"2",true,"true",,""\n', infer_types=True)
    assert rows == [[1, "2", True, "true", None, ""]]


def test_custom_inferrer_turns_inference_on():
    inferrer = TypeInferrer(null_values=("", "-"))
    assert read_rows("-,4\n", inferrer=inferrer) == [[None, 4]]
    assert read_rows("-,4\n") == [["-", "4"]]


def test_dict_reader_uses_header():
    rows = read_dicts("name,age\nann,31\nbob,27\n")
    assert rows == [{"name": "ann", "age": "31"}, {"name": "bob", "age": "27"}]


def test_dict_reader_short_and_long_rows():
    reader = DictReader("a,b,c\n1\n1,2,3,4,5\n", restkey="extra", restval="?")
    assert reader.fieldnames == ["a", "b", "c"]
    assert next(reader) == {"a": "1", "b": "?", "c": "?"}
    assert next(reader) == {"a": "1", "b": "2", "c": "3", "extra": ["4", "5"]}
    assert reader.header_line == 1
    assert reader.rows_read == 2


def test_dict_reader_strict_field_count():
    reader = DictReader("a,b\n1,2\n\n3\n", strict_fields=True)
    assert next(reader) == {"a": "1", "b": "2"}
    with pytest.raises(FieldCountError) as info:
        next(reader)
    assert (info.value.expected, info.value.actual, info.value.line) == (2, 1, 4)
    assert str(info.value) == "expected 2 fields, got 1 (line 4)"


def test_dict_reader_with_given_fieldnames_and_inference():
    rows = read_dicts("1,x\n2,y\n", fieldnames=["n", "s"], infer_types=True)
    assert rows == [{"n": 1, "s": "x"}, {"n": 2, "s": "y"}]
    reader = DictReader("1,x\n", fieldnames=("n", "s"))
    assert reader.header_line is None
    assert reader.fieldnames == ["n", "s"]


def test_dict_reader_on_empty_input():
    reader = DictReader("")
    assert reader.fieldnames is None
    assert list(reader) == []


def test_normalize_header():
    assert normalize_header([" id ", "", "name", "name", "name_2", "name"]) == [
        "id", "column_2", "name", "name_2", "name_2_2", "name_3"]


def test_read_table_converts_columns():
    header, rows = read_table("id,score,ok\n1,2,true\n2,3.5,\n", infer_types=True)
    assert header == ["id", "score", "ok"]
    assert rows == [[1, 2.0, True], [2, 3.5, None]]
    assert read_table("a\n1\n") == (["a"], [["1"]])
    with pytest.raises(CsvError, match="no header row"):
        read_table("\n\n")
