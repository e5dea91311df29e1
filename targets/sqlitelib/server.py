"""The Python side of targets/sqlitelib.

rowserver.StartLib puts its prelude before this text: NAME, LIB (the library's path), TIMEOUT
(seconds per statement, 0 for none), serve.py (failure, answer_rows, ESCAPES) and lib.py (load,
serve_lib). The server loads the library with load, which refuses one that is not SQLite or that
the process did not load from LIB, opens one
in-memory database and answers each program as targets/sqlite does through go-sqlite3: every
statement of the text is prepared and stepped once, the last one to its end; its rows are the
answer. Values are written with the tags rowserver.Canonical reads: NULL, i:<integer>, r:<repr of
the double>, t:<text> (its very bytes: a text that is not UTF-8 is decoded with surrogateescape,
which serve encodes back), b:<hex of the bytes>. An error is one line "E", a tab, the extended result code in
decimal (or "timeout" when the statement ran past TIMEOUT and was interrupted), a raw tab and the
escaped message of sqlite3_errmsg. The program RESET (a NUL byte and "reset") replaces the
database by a new, empty one.
"""

import ctypes
import time

lib = load("SQLite", ["sqlite3_libversion", "sqlite3_prepare_v2"])

P = ctypes.c_void_p
for name, res, args in [
    ("sqlite3_libversion", ctypes.c_char_p, []),
    ("sqlite3_sourceid", ctypes.c_char_p, []),
    ("sqlite3_open_v2", ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(P), ctypes.c_int, ctypes.c_char_p]),
    ("sqlite3_close_v2", ctypes.c_int, [P]),
    ("sqlite3_prepare_v2", ctypes.c_int, [P, P, ctypes.c_int, ctypes.POINTER(P), ctypes.POINTER(P)]),
    ("sqlite3_step", ctypes.c_int, [P]),
    ("sqlite3_finalize", ctypes.c_int, [P]),
    ("sqlite3_column_count", ctypes.c_int, [P]),
    ("sqlite3_column_type", ctypes.c_int, [P, ctypes.c_int]),
    ("sqlite3_column_int64", ctypes.c_int64, [P, ctypes.c_int]),
    ("sqlite3_column_double", ctypes.c_double, [P, ctypes.c_int]),
    ("sqlite3_column_text", P, [P, ctypes.c_int]),
    ("sqlite3_column_blob", P, [P, ctypes.c_int]),
    ("sqlite3_column_bytes", ctypes.c_int, [P, ctypes.c_int]),
    ("sqlite3_errmsg", ctypes.c_char_p, [P]),
    ("sqlite3_extended_errcode", ctypes.c_int, [P]),
]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args

PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, P)
lib.sqlite3_progress_handler.restype = None
lib.sqlite3_progress_handler.argtypes = [P, ctypes.c_int, PROGRESS, P]

SQLITE_ROW, SQLITE_DONE, SQLITE_INTERRUPT = 100, 101, 9
INTEGER, FLOAT, TEXT, BLOB = 1, 2, 3, 4
# READWRITE | CREATE | FULLMUTEX, as go-sqlite3 opens.
OPEN_FLAGS = 0x2 | 0x4 | 0x10000


class Database:
    def __init__(self):
        self.db = P()
        rc = lib.sqlite3_open_v2(b":memory:", ctypes.byref(self.db), OPEN_FLAGS, None)
        if rc != 0:
            raise RuntimeError("sqlite3_open_v2 failed with code %d" % rc)
        self.deadline = 0.0
        self.timed_out = False

        def progress(_):
            if self.deadline and time.monotonic() > self.deadline:
                self.timed_out = True
                return 1
            return 0

        self.progress = PROGRESS(progress)  # kept: SQLite holds the pointer
        lib.sqlite3_progress_handler(self.db, 1000, self.progress, None)

    def close(self):
        lib.sqlite3_close_v2(self.db)

    def error(self):
        code = "timeout" if self.timed_out else str(lib.sqlite3_extended_errcode(self.db))
        return failure(code, (lib.sqlite3_errmsg(self.db) or b"").decode("utf-8", "replace"))

    def run(self, prog):
        text = prog.encode("utf-8", "surrogateescape")
        buf = ctypes.create_string_buffer(text)
        base, end = ctypes.addressof(buf), ctypes.addressof(buf) + len(text)
        pos = base
        self.timed_out = False
        self.deadline = time.monotonic() + TIMEOUT if TIMEOUT > 0 else 0.0
        try:
            rows = []
            while pos < end:
                stmt, tail = P(), P()
                if lib.sqlite3_prepare_v2(self.db, pos, end - pos, ctypes.byref(stmt), ctypes.byref(tail)) != 0:
                    return self.error()
                pos = tail.value or end
                if not stmt.value:
                    continue  # only spaces or a comment
                last = not text[pos - base:].strip()
                rows = []
                try:
                    while True:
                        rc = lib.sqlite3_step(stmt)
                        if rc == SQLITE_DONE:
                            break
                        if rc != SQLITE_ROW:
                            return self.error()
                        if not last:
                            break
                        rows.append(self.row(stmt))
                finally:
                    lib.sqlite3_finalize(stmt)
            return answer_rows(rows)
        finally:
            self.deadline = 0.0

    @staticmethod
    def row(stmt):
        fields = []
        for i in range(lib.sqlite3_column_count(stmt)):
            t = lib.sqlite3_column_type(stmt, i)
            if t == INTEGER:
                fields.append("i:%d" % lib.sqlite3_column_int64(stmt, i))
            elif t == FLOAT:
                fields.append("r:" + repr(lib.sqlite3_column_double(stmt, i)))
            elif t == TEXT:
                p = lib.sqlite3_column_text(stmt, i)
                text = ctypes.string_at(p, lib.sqlite3_column_bytes(stmt, i)) if p else b""
                fields.append("t:" + text.decode("utf-8", "surrogateescape").translate(ESCAPES))
            elif t == BLOB:
                p = lib.sqlite3_column_blob(stmt, i)
                fields.append("b:" + (ctypes.string_at(p, lib.sqlite3_column_bytes(stmt, i)).hex() if p else ""))
            else:
                fields.append("NULL")
        return fields


version = lib.sqlite3_libversion().decode()
serve_lib(Database, "SELECT sqlite_version()", version, "%s %s" % (version, lib.sqlite3_sourceid().decode()))
