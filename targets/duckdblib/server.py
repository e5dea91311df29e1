"""The Python side of targets/duckdblib.

The Go side puts INIT (the statement that attaches the empty database of targets/duckdb's Swap)
before this text, and rowserver.StartLib's prelude before that: NAME, LIB (the library's path),
TIMEOUT (seconds per statement, 0 for none), serve.py (failure, answer_rows, ESCAPES) and lib.py
(load, serve_lib). The server loads the library with load, which refuses one that is not DuckDB
or that the process did not load from LIB, opens one in-memory database and answers each program as targets/duckdb does through
the Go binding: the statements of the text are extracted, each prepared and executed, the rows of
the last one are the answer. Values are written with the tags rowserver.Canonical reads: NULL,
B:true|false, i:<integer>, d:<decimal text>, r:<repr of a DOUBLE>, f:<repr of a FLOAT>, t:<text>,
b:<hex of the bytes>, and x:<text> for dates, times and timestamps (DuckDB's own text of the
value) and intervals (as targets/duckdb writes them). Values of other types (lists, structs, maps,
UUIDs, enums) are not read: their result is an error of code "driver". An error is one line "E", a tab, "error" (or
"timeout" when the statement ran past TIMEOUT and was interrupted), a raw tab and the escaped message as DuckDB
writes it ("Binder Error: ..."), whose prefix the Go side reads. The program RESET (a NUL byte and
"reset") replaces the database by a new, empty one (a new instance).
"""

import ctypes
import threading

lib = load("DuckDB", ["duckdb_library_version", "duckdb_extract_statements"])

P = ctypes.c_void_p
IDX = ctypes.c_uint64


class Result(ctypes.Structure):
    """duckdb_result: its deprecated fields, then the internal data."""
    _fields_ = [("column_count", IDX), ("row_count", IDX), ("rows_changed", IDX), ("columns", P),
                ("error_message", P), ("internal_data", P)]


class Blob(ctypes.Structure):
    _fields_ = [("data", P), ("size", IDX)]


class String(ctypes.Structure):
    _fields_ = [("data", P), ("size", IDX)]


class Interval(ctypes.Structure):
    _fields_ = [("months", ctypes.c_int32), ("days", ctypes.c_int32), ("micros", ctypes.c_int64)]


R = ctypes.POINTER(Result)
for name, res, args in [
    ("duckdb_library_version", ctypes.c_char_p, []),
    ("duckdb_open", ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(P)]),
    ("duckdb_close", None, [ctypes.POINTER(P)]),
    ("duckdb_connect", ctypes.c_int, [P, ctypes.POINTER(P)]),
    ("duckdb_disconnect", None, [ctypes.POINTER(P)]),
    ("duckdb_interrupt", None, [P]),
    ("duckdb_extract_statements", IDX, [P, ctypes.c_char_p, ctypes.POINTER(P)]),
    ("duckdb_extract_statements_error", ctypes.c_char_p, [P]),
    ("duckdb_destroy_extracted", None, [ctypes.POINTER(P)]),
    ("duckdb_prepare_extracted_statement", ctypes.c_int, [P, P, IDX, ctypes.POINTER(P)]),
    ("duckdb_prepare_error", ctypes.c_char_p, [P]),
    ("duckdb_destroy_prepare", None, [ctypes.POINTER(P)]),
    ("duckdb_execute_prepared", ctypes.c_int, [P, R]),
    ("duckdb_result_error", ctypes.c_char_p, [R]),
    ("duckdb_destroy_result", None, [R]),
    ("duckdb_column_count", IDX, [R]),
    ("duckdb_row_count", IDX, [R]),
    ("duckdb_column_type", ctypes.c_int, [R, IDX]),
    ("duckdb_value_is_null", ctypes.c_bool, [R, IDX, IDX]),
    ("duckdb_value_boolean", ctypes.c_bool, [R, IDX, IDX]),
    ("duckdb_value_int64", ctypes.c_int64, [R, IDX, IDX]),
    ("duckdb_value_uint64", ctypes.c_uint64, [R, IDX, IDX]),
    ("duckdb_value_float", ctypes.c_float, [R, IDX, IDX]),
    ("duckdb_value_double", ctypes.c_double, [R, IDX, IDX]),
    ("duckdb_value_interval", Interval, [R, IDX, IDX]),
    ("duckdb_value_varchar", P, [R, IDX, IDX]),
    ("duckdb_value_string", String, [R, IDX, IDX]),
    ("duckdb_value_blob", Blob, [R, IDX, IDX]),
    ("duckdb_free", None, [P]),
]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args

# duckdb_type values of the C API.
BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT = 1, 2, 3, 4, 5
UTINYINT, USMALLINT, UINTEGER, UBIGINT = 6, 7, 8, 9
FLOAT, DOUBLE, INTERVAL, HUGEINT, VARCHAR, BLOB, DECIMAL, UHUGEINT = 10, 11, 15, 16, 17, 18, 19, 32
# Types read as DuckDB's text of the value (duckdb_value_varchar): timestamps, dates and times.
TEXTUAL = {12, 13, 14, 20, 21, 22, 30, 31}
# Names of types that are not read: the deprecated value functions do not read nested values, and
# duckdb_value_varchar of a UUID crashes 1.2.2.
UNREAD = {23: "ENUM", 24: "LIST", 25: "STRUCT", 26: "MAP", 27: "UUID", 28: "UNION", 29: "BIT", 33: "ARRAY", 35: "VARINT"}


class Unread(Exception):
    """A value of a type the server does not read."""
SIGNED = (TINYINT, SMALLINT, INTEGER, BIGINT)
UNSIGNED = (UTINYINT, USMALLINT, UINTEGER, UBIGINT)


def owned(p):
    """The text of a string DuckDB allocated, which is then freed."""
    if not p:
        return ""
    try:
        return ctypes.string_at(p).decode("utf-8", "surrogateescape")
    finally:
        lib.duckdb_free(p)


class Database:
    def __init__(self):
        self.db, self.conn = P(), P()
        if lib.duckdb_open(None, ctypes.byref(self.db)) != 0:
            raise RuntimeError("duckdb_open of an in-memory database failed")
        if lib.duckdb_connect(self.db, ctypes.byref(self.conn)) != 0:
            raise RuntimeError("duckdb_connect failed")
        self.timed_out = False
        if self.statements(INIT.encode()) != "OK\n":
            raise RuntimeError("%s failed" % INIT)

    def close(self):
        lib.duckdb_disconnect(ctypes.byref(self.conn))
        lib.duckdb_close(ctypes.byref(self.db))

    def interrupt(self):
        self.timed_out = True
        lib.duckdb_interrupt(self.conn)

    def error(self, msg):
        return failure("timeout" if self.timed_out else "error", (msg or b"").decode("utf-8", "replace"))

    def run(self, prog):
        self.timed_out = False
        timer = None
        if TIMEOUT > 0:
            timer = threading.Timer(TIMEOUT, self.interrupt)
            timer.daemon = True
            timer.start()
        try:
            return self.statements(prog.encode("utf-8", "surrogateescape"))
        finally:
            if timer is not None:
                timer.cancel()

    def statements(self, text):
        ext = P()
        n = lib.duckdb_extract_statements(self.conn, text, ctypes.byref(ext))
        try:
            if n == 0:
                return self.error(lib.duckdb_extract_statements_error(ext))
            out = ""
            for i in range(n):
                prep = P()
                try:
                    if lib.duckdb_prepare_extracted_statement(self.conn, ext, i, ctypes.byref(prep)) != 0:
                        return self.error(lib.duckdb_prepare_error(prep))
                    res = Result()
                    try:
                        if lib.duckdb_execute_prepared(prep, ctypes.byref(res)) != 0:
                            return self.error(lib.duckdb_result_error(ctypes.byref(res)))
                        if i == n - 1:
                            out = self.rows(ctypes.byref(res))
                    finally:
                        lib.duckdb_destroy_result(ctypes.byref(res))
                finally:
                    lib.duckdb_destroy_prepare(ctypes.byref(prep))
            return out
        finally:
            lib.duckdb_destroy_extracted(ctypes.byref(ext))

    @staticmethod
    def rows(res):
        cols = lib.duckdb_column_count(res)
        types = [lib.duckdb_column_type(res, c) for c in range(cols)]
        try:
            return answer_rows([[value(res, c, r, types[c]) for c in range(cols)] for r in range(lib.duckdb_row_count(res))])
        except Unread as e:
            return failure("driver", "values of type %s are not read through the C API's value functions" % e)


def value(res, c, r, t):
    if lib.duckdb_value_is_null(res, c, r):
        return "NULL"
    if t == BOOLEAN:
        return "B:true" if lib.duckdb_value_boolean(res, c, r) else "B:false"
    if t in SIGNED:
        return "i:%d" % lib.duckdb_value_int64(res, c, r)
    if t in UNSIGNED:
        return "i:%d" % lib.duckdb_value_uint64(res, c, r)
    if t in (HUGEINT, UHUGEINT):
        return "i:" + owned(lib.duckdb_value_varchar(res, c, r))
    if t == DECIMAL:
        return "d:" + owned(lib.duckdb_value_varchar(res, c, r))
    if t == FLOAT:
        return "f:" + repr(lib.duckdb_value_float(res, c, r))
    if t == DOUBLE:
        return "r:" + repr(lib.duckdb_value_double(res, c, r))
    if t == VARCHAR:
        s = lib.duckdb_value_string(res, c, r)
        try:
            data = ctypes.string_at(s.data, s.size) if s.data else b""
        finally:
            lib.duckdb_free(s.data)
        return "t:" + data.decode("utf-8", "surrogateescape").translate(ESCAPES)
    if t == BLOB:
        b = lib.duckdb_value_blob(res, c, r)
        try:
            return "b:" + (ctypes.string_at(b.data, b.size).hex() if b.data else "")
        finally:
            lib.duckdb_free(b.data)
    if t == INTERVAL:
        v = lib.duckdb_value_interval(res, c, r)
        return "x:%d months %d days %d microseconds" % (v.months, v.days, v.micros)
    if t in TEXTUAL:
        return "x:" + owned(lib.duckdb_value_varchar(res, c, r)).translate(ESCAPES)
    raise Unread(UNREAD.get(t, "number %d" % t))


version = lib.duckdb_library_version().decode()
serve_lib(Database, "SELECT version()", version, version)
