import pytest

from csvreader import CsvError, TypeInferrer, infer_row, infer_value, merge_kinds
from csvreader.infer import looks_like_float, looks_like_int


def test_looks_like_int():
    assert looks_like_int("0")
    assert looks_like_int("42")
    assert looks_like_int("-17")
    assert looks_like_int("+3")
    assert not looks_like_int("007")
    assert not looks_like_int("")
    assert not looks_like_int("-")
    assert not looks_like_int("1.0")
    assert not looks_like_int("12a")
    assert not looks_like_int("\u0663")


def test_looks_like_float():
    for text in ("1.5", "-.5", "2.", "1e3", "6.02E+23", "+0.25", "3e-2", "0.5"):
        assert looks_like_float(text), text
    for text in (".", "e5", "1e", "1e+", "1.2.3", "--1", "1,5", "00.5", "inf", ""):
        assert not looks_like_float(text), text


def test_infer_value_types():
    assert infer_value("12") == 12
    assert type(infer_value("12")) is int
    assert infer_value("-4.25") == -4.25
    assert infer_value("1e2") == 100.0
    assert type(infer_value("1e2")) is float
    assert infer_value("TRUE") is True
    assert infer_value("false") is False
    assert infer_value("") is None
    assert infer_value("   ") is None
    assert infer_value(" 8 ") == 8
    assert infer_value("007") == "007"
    assert infer_value("hello") == "hello"
    assert infer_value(None) is None


def test_infer_row():
    assert infer_row(["1", "x", "", "2.0", "True"]) == [1, "x", None, 2.0, True]


def test_custom_vocabularies():
    inferrer = TypeInferrer(true_values=("yes", "Y"), false_values=("no", "n"),
                            null_values=("", "NA", "null"))
    assert inferrer.infer("Yes") is True
    assert inferrer.infer("y") is True
    assert inferrer.infer("N") is False
    assert inferrer.infer("na") is None
    assert inferrer.infer("true") == "true"
    with pytest.raises(CsvError, match="both true and false"):
        TypeInferrer(true_values=("on",), false_values=("ON",))


def test_strip_can_be_disabled():
    inferrer = TypeInferrer(strip=False)
    assert inferrer.kind(" 5") == "str"
    assert inferrer.kind("5") == "int"
    assert inferrer.kind(" ") == "str"


def test_kind_names():
    inferrer = TypeInferrer()
    assert [inferrer.kind(v) for v in ["", "true", "3", "3.5", "abc", None]] == [
        "null", "bool", "int", "float", "str", "null"]


def test_merge_kinds():
    assert merge_kinds("int", "int") == "int"
    assert merge_kinds("null", "float") == "float"
    assert merge_kinds("bool", "null") == "bool"
    assert merge_kinds("int", "float") == "float"
    assert merge_kinds("float", "int") == "float"
    assert merge_kinds("int", "bool") == "str"
    assert merge_kinds("str", "int") == "str"


def test_column_kinds_and_convert_rows():
    inferrer = TypeInferrer()
    rows = [["1", "a", "", "true"], ["2.5", "b", "", "false"], ["3", "", "", ""]]
    assert inferrer.column_kinds(rows) == ["float", "str", "null", "bool"]
    assert inferrer.convert_rows(rows) == [
        [1.0, "a", None, True], [2.5, "b", None, False], [3.0, "", None, None]]
    assert inferrer.column_kinds([["1"], ["2", "x"]]) == ["int", "str"]
    assert inferrer.convert_rows(iter([("1",), ("2.5",)])) == [[1.0], [2.5]]
    assert inferrer.convert_rows([["1", "2", "extra"]], kinds=["int", "str"]) == [[1, "2", "extra"]]


def test_convert_errors():
    inferrer = TypeInferrer()
    assert inferrer.convert(" 4 ", "int") == 4
    assert inferrer.convert(" 4 ", "str") == " 4 "
    assert inferrer.convert("", "int") is None
    with pytest.raises(CsvError, match="cannot convert 'x' to int"):
        inferrer.convert("x", "int")
    with pytest.raises(CsvError, match="cannot convert '1.5x' to float"):
        inferrer.convert("1.5x", "float")
    with pytest.raises(CsvError, match="'maybe' is not a boolean"):
        inferrer.convert("maybe", "bool")
    with pytest.raises(CsvError, match="'x' is not empty"):
        inferrer.convert("x", "null")
    with pytest.raises(CsvError, match="unknown type 'date'"):
        inferrer.convert("x", "date")
