"""csvreader: a CSV reader and writer written from scratch."""

from .dialect import (
    EXCEL,
    EXCEL_TAB,
    QUOTE_ALL,
    QUOTE_MINIMAL,
    QUOTE_NONE,
    QUOTE_NONNUMERIC,
    UNIX,
    Dialect,
    get_dialect,
    list_dialects,
    register_dialect,
    resolve_dialect,
    unregister_dialect,
)
from .errors import CsvError, DialectError, FieldCountError, ParseError, SniffError, WriteError
from .infer import TypeInferrer, infer_row, infer_value, merge_kinds
from .lexer import Lexer, Record, tokenize
from .reader import DictReader, Reader, normalize_header, read_dicts, read_rows, read_table
from .sniffer import Sniffer, sniff
from .writer import DictWriter, Writer, dicts_to_string, to_string

__all__ = [
    "EXCEL", "EXCEL_TAB", "UNIX", "QUOTE_ALL", "QUOTE_MINIMAL", "QUOTE_NONE", "QUOTE_NONNUMERIC",
    "Dialect", "get_dialect", "list_dialects", "register_dialect", "resolve_dialect",
    "unregister_dialect", "CsvError", "DialectError", "FieldCountError", "ParseError",
    "SniffError", "WriteError", "TypeInferrer", "infer_row", "infer_value", "merge_kinds",
    "Lexer", "Record", "tokenize", "DictReader", "Reader", "normalize_header", "read_dicts",
    "read_rows", "read_table", "Sniffer", "sniff", "DictWriter", "Writer", "dicts_to_string",
    "to_string",
]
