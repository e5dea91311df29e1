"""The Python side of targets/duckdbpy.

The Go side puts the wheel's folder first on sys.path before this text. The server opens one
in-memory DuckDB database, reads requests from standard input, each a line with the length of a
program in bytes and the program, and runs each program through the relation API (con.sql, or
con.query before 0.8), so that the result's column types are known; INSERT, UPDATE and DELETE run
through execute, which answers with the count of rows they changed, as the Go binding does. It answers with one line per
row ("R", then a tab before each value, escaped), then "OK"; or with one line "E", a tab, the
error's type as DuckDB names it ("Binder", "Out of Range", "Internal"; "driver" for an error of
the binding), a raw tab and the escaped message without its "<type> Error: " prefix. The program
RESET (a NUL byte and "reset") replaces the database by a new, empty one.

Values are written with a tag the Go side turns into the canonical form: NULL, B:true|false,
i:<int>, d:<Decimal>, r:<repr of a DOUBLE>, f:<repr of a FLOAT>, t:<text>, b:<hex>, and x:<text>
for the other types (dates, times, lists, structs, maps), in the text form of targets/duckdb.
Escaping writes \\ as \\\\, tab as \\t, newline as \\n and carriage return as \\r.

rowserver.StartPython puts rowserver's serve.py (serve, missing, failure, answer_rows, ESCAPES)
before this program.
"""

import datetime
import decimal

try:
    import duckdb
except ImportError as e:
    missing("duckdb", e)

# DuckDB's error types by the name of the Python exception that carries them.
CLASSES = {
    "BinderException": "Binder", "CatalogException": "Catalog", "ConnectionException": "Connection",
    "ConstraintException": "Constraint", "ConversionException": "Conversion",
    "DependencyException": "Dependency", "FatalException": "Fatal", "HTTPException": "HTTP",
    "IOException": "IO", "InternalException": "Internal", "InterruptException": "Interrupt",
    "InvalidInputException": "Invalid Input", "InvalidTypeException": "Invalid Type",
    "NotImplementedException": "Not Implemented", "OutOfMemoryException": "Out of Memory",
    "OutOfRangeException": "Out of Range", "ParserException": "Parser",
    "PermissionException": "Permission", "SequenceException": "Sequence",
    "SerializationException": "Serialization", "SyntaxException": "Syntax",
    "TransactionException": "Transaction", "TypeMismatchException": "Mismatch Type",
}
# The same types by the prefix of a message ("INTERNAL Error: ..."), lower-cased, for errors that
# come as a generic class.
PREFIXES = {v.lower(): v for v in CLASSES.values()}
PREFIXES.update({"decimal": "Conversion", "transactioncontext": "Transaction", "not implemented": "Not Implemented",
                 "invalid type": "Invalid Type", "divide by zero": "Divide by Zero", "optimizer": "Optimizer",
                 "expression": "Expression", "planner": "Planner", "executor": "Executor",
                 "mismatch type": "Mismatch Type", "nullpointer": "Null Pointer", "index": "Index"})


def gofloat(f):
    """The text of a float as Go's strconv.FormatFloat(f, 'g', -1, 64) writes it."""
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "+Inf" if f > 0 else "-Inf"
    sign = "-" if str(f).startswith("-") else ""
    digits, exp = shortest(abs(f))
    point = exp + 1  # digits before the point
    if exp < -4 or exp >= 6:
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return "%s%se%s%02d" % (sign, mant, "-" if exp < 0 else "+", abs(exp))
    if point <= 0:
        return sign + "0." + "0" * -point + digits
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return sign + digits[:point] + "." + digits[point:]


def shortest(f):
    """The shortest digits that read back as f, and the decimal exponent of the first."""
    if f == 0:
        return "0", 0
    m, _, e = ("%r" % f).partition("e")
    exp = int(e) if e else 0
    whole, _, frac = m.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    exp += len(whole) - 1 - (len(whole + frac) - len((whole + frac).lstrip("0")))
    return digits.rstrip("0") or "0", exp


def decimal_text(d):
    """A Decimal as the shortest plain decimal of the same value (fuzz.Decimal without its prefix)."""
    if d.is_nan():
        return "NaN"
    if d.is_infinite():
        return "+Inf" if d > 0 else "-Inf"
    s = format(d.normalize(), "f")
    return "0" if s in ("-0", "0") else s


def text(v, typ=""):
    """The text of a value nested in a list, struct or map, or of a type without a tag."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if typ in ("FLOAT", "REAL"):
            return gofloat32(v)
        return gofloat(v)
    if isinstance(v, decimal.Decimal):
        return decimal_text(v)
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, datetime.datetime):
        s = v.strftime("%Y-%m-%d %H:%M:%S") + fraction(v.microsecond)
        if v.tzinfo is not None:
            s = v.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S") + fraction(v.microsecond) + "+00"
        return s
    if isinstance(v, datetime.date):
        return v.strftime("%Y-%m-%d")
    if isinstance(v, datetime.time):
        return v.strftime("%H:%M:%S") + fraction(v.microsecond)
    if isinstance(v, datetime.timedelta):
        return "0 months %d days %d microseconds" % (v.days, v.seconds * 1000000 + v.microseconds)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(text(e) for e in v) + "]"
    if isinstance(v, dict):
        if set(v.keys()) == {"key", "value"} and isinstance(v["key"], list):  # a MAP before 0.9
            return "{" + ", ".join("%s=%s" % (text(k), text(x)) for k, x in zip(v["key"], v["value"])) + "}"
        if typ.startswith("MAP"):
            return "{" + ", ".join("%s=%s" % (text(k), text(x)) for k, x in v.items()) + "}"
        return "{" + ", ".join("'%s': %s" % (k, text(v[k])) for k in sorted(v)) + "}"
    return str(v)


def gofloat32(f):
    """A FLOAT's value (a double holding a float32) as Go's FormatFloat(f, 'g', -1, 32)."""
    import struct

    if f != f or f in (float("inf"), float("-inf")):
        return gofloat(f)
    for p in range(1, 10):  # the fewest significant digits that read back as the same float32
        s = "%.*e" % (p - 1, f)
        if struct.unpack("f", struct.pack("f", float(s)))[0] == f:
            return gofloat(float(s))
    return gofloat(f)


def fraction(us):
    return ("." + ("%06d" % us).rstrip("0")) if us else ""


def value(v, typ):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "B:true" if v else "B:false"
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, float):
        return ("f:" if typ in ("FLOAT", "REAL") else "r:") + repr(v)
    if isinstance(v, decimal.Decimal):
        return "d:" + str(v)
    if isinstance(v, str):
        return "t:" + v.translate(ESCAPES)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "b:" + bytes(v).hex()
    return "x:" + text(v, typ).translate(ESCAPES)


# The relation API wraps an error of the query's execution in one of its own; the query's error is
# the one execute would raise.
WRAPPED = "Invalid Input Error: Attempting to execute an unsuccessful or closed pending query result\nError: "


def error_type(e):
    """DuckDB's error type of an exception, and its message without the type's prefix."""
    msg = str(e)
    code = CLASSES.get(type(e).__name__)
    if msg.startswith(WRAPPED):
        msg, code = msg[len(WRAPPED):], None
    prefix, sep, rest = msg.partition(" Error: ")
    known = sep and "\n" not in prefix and len(prefix) < 40
    if code is None and known:
        code = PREFIXES.get(prefix.lower())
    if code is None:
        code = "driver" if not isinstance(e, duckdb.Error) else type(e).__name__
    if known:
        msg = rest
    return code, msg


def connect():
    return duckdb.connect(":memory:")


# First words of statements that answer with the count of rows they changed, which the relation
# API does not give: they run through execute, and their one BIGINT column needs no type.
COUNTED = ("INSERT", "UPDATE", "DELETE")


def answer(con, prog):
    try:
        if prog.lstrip().upper().startswith(COUNTED) and ";" not in prog.strip().rstrip(";"):
            rows = con.execute(prog).fetchall()
            types = ["BIGINT"] * (len(rows[0]) if rows else 0)
        else:
            rel = (getattr(con, "sql", None) or con.query)(prog)
            if rel is None:
                return "OK\n"
            types = [str(t) for t in rel.types]
            rows = rel.fetchall()
    except Exception as e:  # an engine error, or a value the binding cannot convert
        return failure(*error_type(e))
    return answer_rows([value(v, types[i]) for i, v in enumerate(row)] for row in rows)


def main():
    state = {"con": connect()}
    version = state["con"].execute("SELECT version()").fetchall()[0][0]

    def reset():
        try:
            state["con"].close()
        except Exception:
            pass
        state["con"] = connect()

    # An exception that escapes answer is the binding itself failing: the engine is not usable.
    serve("polyfuzz-duckdb %s %s" % (duckdb.__version__, version), lambda prog: answer(state["con"], prog),
          "duckdb failed", "surrogateescape", reset=reset)


main()
