"""The Python side of targets/chdb.

The Go side puts a line SETTINGS = [...] (the session settings polyfuzz owns, as SET statements)
before this text. The server opens one chDB session on a temporary folder, creates the database
polyfuzz in it, applies SETTINGS, and answers requests (see rowserver's serve.py, which
StartPython puts before this text): each program is
one statement, run with the output format TabSeparatedWithNamesAndTypes so that the result's
column types are known. It answers with one line per row ("R", then a tab before each value,
escaped), then "OK"; or with one line "E", a tab, ClickHouse's error name (ILLEGAL_DIVISION,
"driver" for an error that is not ClickHouse's), a raw tab and the escaped message without its
"Code: N. DB::Exception: " prefix and its "(NAME)" suffix.

The program RESET (a NUL byte and "reset") drops the database polyfuzz and everything in it,
creates it again, sets every setting a program changed back to its default, and applies SETTINGS.

Values are written with a tag the Go side turns into the canonical form: NULL, B:true|false,
i:<int>, d:<decimal>, r:<Float64 as ClickHouse prints it>, f:<Float32 as ClickHouse prints it>
(inf, -inf and nan for every NaN, which Go's strconv.ParseFloat reads),
t:<String or FixedString>, and x:<text> for the other types (dates, arrays, tuples) as ClickHouse
prints them in TSV. Escaping writes \\ as \\\\, tab as \\t, newline as \\n and carriage return as \\r.
"""

import re

try:
    from chdb import session as chsession
    import chdb
except ImportError as e:
    missing("clickhouse", e)

DATABASE = "polyfuzz"
FORMAT = "TabSeparatedWithNamesAndTypes"

# ClickHouse's TSV escapes (the Escaped format), undone field by field.
TSV = {"b": "\b", "f": "\f", "r": "\r", "n": "\n", "t": "\t", "0": "\0", "'": "'", "\\": "\\", "a": "\a", "v": "\v", "e": "\x1b"}
TSV_ESC = re.compile(r"\\(.)", re.S)

ERROR = re.compile(r"^Code: (\d+)\. DB::Exception: (.*?)(?: \(([A-Z0-9_]+)\))?(?: \(version [^)]*\))?\s*$", re.S)
SETTING = re.compile(r"\s*SET\s+(.*)$", re.S | re.I)
SETTING_NAME = re.compile(r"(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s*=")


def unescape(field):
    if "\\" not in field:
        return field
    return TSV_ESC.sub(lambda m: TSV.get(m.group(1), "\\" + m.group(1)), field)


def base_type(t):
    """A column's type without Nullable(...) and LowCardinality(...)."""
    while True:
        for w in ("Nullable(", "LowCardinality("):
            if t.startswith(w) and t.endswith(")"):
                t = t[len(w):-1]
                break
        else:
            return t


def value(field, typ):
    if field == "\\N":
        return "NULL"
    t = base_type(typ)
    if t.startswith(("Int", "UInt")):
        return "i:" + field
    if t == "Float64":
        return "r:" + field
    if t in ("Float32", "BFloat16"):
        return "f:" + field
    if t.startswith("Decimal"):
        return "d:" + field
    if t == "Bool":
        return "B:" + field
    if t == "Nothing":
        return "NULL"
    if t == "String" or t.startswith("FixedString"):
        return "t:" + unescape(field).translate(ESCAPES)
    return "x:" + unescape(field).translate(ESCAPES)


def error(e):
    msg = str(e).strip()
    m = ERROR.match(msg)
    if not m:
        return failure("driver", msg)
    return failure(m.group(3) or ("CODE_" + m.group(1)), m.group(2))


def answer(sess, prog, changed):
    m = SETTING.match(prog)
    if m:
        changed.update(SETTING_NAME.findall(m.group(1)))
    try:
        res = sess.query(prog, FORMAT)
        data = res.bytes() if res is not None else b""
    except Exception as e:  # chdb raises ChdbError (RuntimeError before 3.0) for ClickHouse's errors
        # A statement that fails while it runs leaves the part of its output written so far (its
        # header) in the session, ahead of the next statement's: a statement of our own takes it.
        try:
            sess.query("SELECT 1", FORMAT)
        except Exception:
            pass
        return error(e)
    if not data:
        return "OK\n"
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 2:
        return "OK\n"
    types = lines[1].split("\t")
    return answer_rows([value(f, types[i] if i < len(types) else "") for i, f in enumerate(line.split("\t"))]
                       for line in lines[2:])


def must(sess, stmt):
    res = sess.query(stmt, FORMAT)
    return res.bytes().decode() if res is not None else ""


def fresh(sess, changed):
    """Drops and creates the database, restores the settings programs changed and applies SETTINGS."""
    must(sess, "USE default")
    must(sess, "DROP DATABASE IF EXISTS %s SYNC" % DATABASE)
    must(sess, "CREATE DATABASE %s ENGINE = Atomic" % DATABASE)
    must(sess, "USE %s" % DATABASE)
    for name in sorted(changed):
        try:
            must(sess, "SET %s = DEFAULT" % name)
        except Exception:
            pass  # not a setting: the program that named it failed
    changed.clear()
    for s in SETTINGS:
        must(sess, s)


def main():
    sess = chsession.Session()
    changed = set()
    fresh(sess, changed)
    version = must(sess, "SELECT version()").strip().split("\n")[-1]

    # An exception that escapes answer is chDB itself failing: the engine is not usable.
    serve("polyfuzz-clickhouse %s %s" % (version, chdb.__version__), lambda prog: answer(sess, prog, changed),
          "chdb failed", "surrogateescape", reset=lambda: fresh(sess, changed))


main()
