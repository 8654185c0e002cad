import pytest

from csvreader import (
    EXCEL,
    EXCEL_TAB,
    QUOTE_ALL,
    QUOTE_MINIMAL,
    QUOTE_NONE,
    QUOTE_NONNUMERIC,
    UNIX,
    Dialect,
    DialectError,
    get_dialect,
    list_dialects,
    register_dialect,
    resolve_dialect,
    unregister_dialect,
)
from csvreader.dialect import parse_quoting


def test_defaults_match_excel():
    d = Dialect()
    assert d.delimiter == ","
    assert d.quotechar == '"'
    assert d.escapechar is None
    assert d.doublequote is True
    assert d.skipinitialspace is False
    assert d.lineterminator == "\r\n"
    assert d.quoting == QUOTE_MINIMAL
    assert d.strict is False
    assert d.comment is None
    assert d == EXCEL


def test_predefined_dialects():
    assert EXCEL_TAB.delimiter == "\t"
    assert UNIX.lineterminator == "\n"
    assert UNIX.quoting == QUOTE_ALL
    assert list_dialects() == ["excel", "excel-tab", "unix"]


def test_single_character_options_are_checked():
    with pytest.raises(DialectError, match="delimiter must be a single character"):
        Dialect(delimiter=";;")
    with pytest.raises(DialectError, match="delimiter must be set"):
        Dialect(delimiter=None)
    with pytest.raises(DialectError, match="quotechar cannot be a line break"):
        Dialect(quotechar="\n")
    with pytest.raises(DialectError, match="escapechar must be a single character"):
        Dialect(escapechar="")
    with pytest.raises(DialectError, match="comment must be a single character, got '##'"):
        Dialect(comment="##")


def test_conflicting_options_are_rejected():
    with pytest.raises(DialectError, match="delimiter and quotechar must differ"):
        Dialect(delimiter='"')
    with pytest.raises(DialectError, match="escapechar must differ from delimiter and quotechar"):
        Dialect(escapechar=",")
    with pytest.raises(DialectError, match="comment must differ from delimiter and quotechar"):
        Dialect(comment='"')
    with pytest.raises(DialectError, match="quotechar is required"):
        Dialect(quotechar=None)
    with pytest.raises(DialectError, match="cannot contain the delimiter"):
        Dialect(delimiter="|", lineterminator="|\n")
    with pytest.raises(DialectError, match="non-empty string"):
        Dialect(lineterminator="")
    with pytest.raises(DialectError, match="unknown quoting mode 7"):
        Dialect(quoting=7)
    assert Dialect(quotechar=None, quoting=QUOTE_NONE).quotechar is None


def test_quoting_by_name():
    assert parse_quoting(" ALL ") == QUOTE_ALL
    assert parse_quoting("nonnumeric") == QUOTE_NONNUMERIC
    assert Dialect(quoting="none").quoting == QUOTE_NONE
    with pytest.raises(DialectError, match="unknown quoting mode 'some'"):
        parse_quoting("some")


def test_dialects_are_immutable_and_replace_copies():
    d = Dialect(delimiter=";")
    with pytest.raises(AttributeError, match="immutable"):
        d.delimiter = ","
    e = d.replace(quotechar="'", strict=True)
    assert (e.delimiter, e.quotechar, e.strict) == (";", "'", True)
    assert d.quotechar == '"'
    assert e != d
    assert d.replace() == d
    assert hash(d.replace()) == hash(d)
    with pytest.raises(DialectError, match="unknown dialect option"):
        d.replace(separator="|")


def test_repr_lists_every_option():
    text = repr(Dialect(delimiter="|"))
    assert text.startswith("Dialect(delimiter='|', quotechar='\"', escapechar=None")
    assert text.endswith("strict=False, comment=None)")
    assert (Dialect() == "excel") is False


def test_registry_round_trip():
    created = register_dialect("pipes", delimiter="|", quoting=QUOTE_ALL)
    try:
        assert get_dialect("pipes") is created
        assert created.delimiter == "|"
        assert "pipes" in list_dialects()
        derived = register_dialect("pipes-unix", "pipes", lineterminator="\n")
        assert (derived.delimiter, derived.lineterminator) == ("|", "\n")
        unregister_dialect("pipes-unix")
    finally:
        unregister_dialect("pipes")
    with pytest.raises(DialectError, match="unknown dialect 'pipes'"):
        get_dialect("pipes")
    with pytest.raises(DialectError, match="unknown dialect"):
        unregister_dialect("pipes")
    with pytest.raises(DialectError, match="non-empty string"):
        register_dialect("")
    assert register_dialect("plain") is EXCEL
    unregister_dialect("plain")


def test_resolve_dialect():
    assert resolve_dialect() is EXCEL
    assert resolve_dialect("unix") is UNIX
    assert resolve_dialect(EXCEL_TAB) is EXCEL_TAB
    assert resolve_dialect("excel", delimiter=";").delimiter == ";"
    with pytest.raises(DialectError, match="cannot use int as a dialect"):
        resolve_dialect(3)
