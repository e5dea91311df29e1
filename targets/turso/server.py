"""The Python side of targets/turso.

The server opens one in-memory Turso database through the low-level API of the pyturso binding
(module turso._turso: prepare_first, step, row), reads requests from standard input, each a line
with the length of a program in bytes and the program, and runs the program's statements one
after the other; the last statement's rows are the answer. It answers with one line per row ("R",
then a tab before each value, escaped), then "OK"; or with one line "E", a tab, the SQLite result
code that the binding's exception class stands for (SQLITE_ERROR, SQLITE_CONSTRAINT, ...), a raw
tab and the escaped message. The program RESET (a NUL byte and "reset") replaces the database by a
new, empty one.

Values are written with a tag the Go side turns into the canonical form: NULL, i:<int>, r:<repr
of a float>, t:<text> and b:<hex>, the storage classes of SQLite. Escaping writes \\ as \\\\, tab
as \\t, newline as \\n and carriage return as \\r.

A Rust panic in the engine reaches Python as pyo3's PanicException, a BaseException that answer
does not catch: serve reports it on standard error and exits, which the Go side reports as a
crash. rowserver.StartPython puts rowserver's serve.py (serve, missing, failure, answer_rows,
ESCAPES) before this program.
"""

import os

# A panic's message, not a backtrace, ends standard error: the Go side quotes its last lines.
os.environ["RUST_BACKTRACE"] = "0"

try:
    import turso._turso as T
except ImportError as e:
    missing("turso", e)

ROW, IO = T.PyTursoStatusCode.Row, T.PyTursoStatusCode.Io

# SQLite's primary result codes by the binding's exception classes.
CODES = {
    "Busy": "SQLITE_BUSY", "Constraint": "SQLITE_CONSTRAINT", "Corrupt": "SQLITE_CORRUPT",
    "DatabaseFull": "SQLITE_FULL", "Error": "SQLITE_ERROR", "Interrupt": "SQLITE_INTERRUPT",
    "Misuse": "SQLITE_MISUSE", "NotAdb": "SQLITE_NOTADB", "Readonly": "SQLITE_READONLY",
}


def value(v):
    if v is None:
        return "NULL"
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, float):
        return "r:" + repr(v)
    if isinstance(v, str):
        return "t:" + v.translate(ESCAPES)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "b:" + bytes(v).hex()
    return "t:" + str(v).translate(ESCAPES)


def connect():
    db = T.py_turso_database_open(T.PyTursoDatabaseConfig(path=":memory:"))
    return db, db.connect()


def run(stmt):
    """Steps a statement to its end and returns its rows."""
    rows = []
    while True:
        s = stmt.step()
        if s == ROW:
            rows.append(stmt.row())
        elif s == IO:
            stmt.run_io()
        else:
            return rows


def answer(con, prog):
    rows = []
    try:
        rest = prog
        while True:
            first = con.prepare_first(rest)  # its tail is a byte offset
            if first is None:
                break
            stmt, tail = first
            try:
                rows = run(stmt)
            finally:
                try:
                    stmt.finalize()
                except Exception:
                    pass
            rest = rest[tail:] if rest.isascii() else rest.encode()[tail:].decode()
    except Exception as e:  # an engine error; a panic is a BaseException and escapes
        return failure(CODES.get(type(e).__name__, "driver"), str(e))
    return answer_rows([value(v) for v in row] for row in rows)


def main():
    state = {}
    state["db"], state["con"] = connect()
    version = run(state["con"].prepare_single("SELECT sqlite_version()"))[0][0]

    def reset():
        try:
            state["con"].close()
        except Exception:
            pass
        state["db"], state["con"] = connect()

    serve("polyfuzz-turso %s %s" % (T.__version__, version), lambda prog: answer(state["con"], prog),
          "turso failed", reset=reset)


main()
