import pytest

from csvreader import Dialect, SniffError, Sniffer, sniff
from csvreader.sniffer import count_outside_quotes


def test_count_outside_quotes():
    assert count_outside_quotes('a,"b,c",d', ",") == 2
    assert count_outside_quotes("a,'b,c',d", ",") == 2
    assert count_outside_quotes('"x,\'y",z,w', ",") == 2
    assert count_outside_quotes("no delimiters", ";") == 0
    assert count_outside_quotes('x,"a,,b",y', ",") == 2


def test_guess_delimiter():
    s = Sniffer()
    assert s.guess_delimiter("a;b;c\n1;2;3\n4;5;6\n") == ";"
    assert s.guess_delimiter("a\tb\n1\t2\n") == "\t"
    assert s.guess_delimiter("a|b|c\n1|2|3\n") == "|"
    assert s.guess_delimiter('name,desc\nx,"a;b;c;d"\ny,"e;f"\n') == ","


def test_consistency_beats_frequency():
    sample = "a,b;c;d\nf;g;h\ni,j;k\nl,m;n;o;p\n"
    s = Sniffer()
    assert s.score(s._lines(sample), ",") == (0.75, 1)
    assert s.score(s._lines(sample), ";") == (0.5, 2)
    assert s.guess_delimiter(sample) == ","


def test_candidate_order_breaks_ties():
    assert Sniffer(";,").guess_delimiter("a,b;c\n") == ";"
    assert Sniffer(",;").guess_delimiter("a,b;c\n") == ","


def test_sniff_errors():
    with pytest.raises(SniffError, match="empty sample"):
        Sniffer().guess_delimiter("\n  \n")
    with pytest.raises(SniffError, match="could not determine"):
        Sniffer().guess_delimiter("just words\nmore words\n")
    with pytest.raises(ValueError, match="candidate"):
        Sniffer("")
    with pytest.raises(ValueError, match="max_lines"):
        Sniffer(max_lines=0)


def test_has_header_votes_are_weighed_per_column():
    s = Sniffer()
    # a length vote for, a numeric vote against: a tie is not a header
    assert s.has_header("name,10\nann,20\nbob,30\n") is False
    # a numeric vote for, a length vote against
    assert s.has_header("id,abc\n1,xyz\n2,def\n") is False
    assert s.has_header("name,10,place\nann,20,rome\nbob,30,oslo\n") is True
    assert s.has_header("id,abc,7\n1,xyz,5\n2,def,6\n") is False
    # columns missing from short rows are skipped
    assert s.has_header("a,b,c\n1,2\n3,4\n") is True


def test_guess_quotechar():
    s = Sniffer()
    assert s.guess_quotechar("a,b\n", ",") == '"'
    assert s.guess_quotechar("a,'b'\nc,d\n", ",") == "'"
    assert s.guess_quotechar("'a','b'\n\"c\",d\n", ",") == "'"
    assert s.guess_quotechar("it's,x\n", ",") == '"'


def test_sniff_builds_a_dialect():
    assert sniff("a, b, c\n1, 2, 3\n") == Dialect(skipinitialspace=True)
    d = sniff("a;'x;y'\n'b';c\n")
    assert (d.delimiter, d.quotechar, d.skipinitialspace) == (";", "'", False)
    assert sniff('"a","b"\n1, 2\n').skipinitialspace is False
    assert sniff("a, b\n").skipinitialspace is True
    assert sniff("a,\nb,\n").skipinitialspace is False
    assert sniff("x, y\n1,2\n").skipinitialspace is False


def test_max_lines_limits_the_sample():
    sample = "a;b\n" * 3 + "c,d,e\n" * 5
    assert Sniffer(max_lines=3).guess_delimiter(sample) == ";"
    assert Sniffer(max_lines=20).guess_delimiter(sample) == ","
    assert Sniffer(max_lines=1).guess_delimiter("a;b\nc,d\n") == ";"
    # the header plus max_lines rows are considered
    assert Sniffer(max_lines=2).has_header("a,b\n1,2\n3,4\nxx,yy\n") is True
    assert Sniffer(max_lines=3).has_header("a,b\n1,2\n3,4\nxx,yy\n") is False


def test_has_header():
    s = Sniffer()
    assert s.has_header("name,age\nann,31\nbob,27\n") is True
    assert s.has_header("1,2\n3,4\n") is False
    assert s.has_header("code,city\nAB1,paris\nCD2,rome\n") is True
    assert s.has_header("abc,x\ndef,y\n") is False
    assert s.has_header("only one row\n") is False
    assert s.has_header("name\nann\nbob\n") is False
    assert s.has_header('a,"b\n') is False
    assert s.has_header("id;val\n1;2.5\n2;\n", Dialect(delimiter=";")) is True
