"""The Python side of targets/datafusion.

The server keeps one DataFusion SessionContext (in-memory tables), reads requests from standard
input, each a line with the length of a program in bytes and the program (one SQL statement),
and runs each through SessionContext.sql and DataFrame.collect. It answers with one line per row
("R", then a tab before each value, escaped), then "OK"; or with one line "E", a tab, the
error's class, a raw tab and the escaped message. The program RESET (a NUL byte and "reset")
replaces the context by a new one, which drops every table, view and setting.

Values are written with a tag the Go side turns into the canonical form, chosen by the Arrow type
of the result column: NULL, B:true|false, i:<int> (every integer width, signed or not),
d:<Decimal>, r:<repr of a Float64>, f:<repr of a Float32 or Float16> (-nan for a NaN whose sign
bit is set), t:<text> (Utf8, LargeUtf8,
Utf8View), b:<hex> (the binary types), and x:<text> for the other types (dates, times, lists).
Escaping writes \\ as \\\\, tab as \\t, newline as \\n and carriage return as \\r.

Errors: DataFusion's Python binding raises its errors as Exception or ValueError with the text of
the Rust DataFusionError. The class is the error's variant as the text names it (Plan,
Execution, NotImplemented, Internal, Schema, SQL/Parser, ...; an Arrow error as Arrow/ and
Arrow's own kind: Arrow/Cast, Arrow/DivideByZero, ...). Context wrappers ("Optimizer rule 'x'
failed\\ncaused by\\n...") are unwrapped: the message is the innermost error, followed on later
lines by the contexts it came through. A Rust panic (pyo3's PanicException) has class Panic,
which the Go side reports as a crash.

rowserver.StartPython puts rowserver's serve.py (serve, missing, failure, answer_rows, ESCAPES)
before this program.
"""

import math

try:
    import datafusion
    import pyarrow as pa
    from datafusion import SessionContext
except ImportError as e:
    missing("datafusion", e)

# DataFusionError's variants by the start of their text.
VARIANTS = (
    ("Arrow error: ", "Arrow"),
    ("SQL error: ", "SQL"),
    ("This feature is not implemented: ", "NotImplemented"),
    ("Internal error: ", "Internal"),
    ("Error during planning: ", "Plan"),
    ("Invalid or Unsupported Configuration: ", "Configuration"),
    ("Schema error: ", "Schema"),
    ("Execution error: ", "Execution"),
    ("Resources exhausted: ", "ResourcesExhausted"),
    ("External error: ", "External"),
    ("Join Error: ", "ExecutionJoin"),
    ("IO error: ", "IO"),
    ("Object Store error: ", "ObjectStore"),
    ("Substrait error: ", "Substrait"),
)

# Arrow's error kinds by the start of their text (arrow_schema::ArrowError's Display).
ARROW = (
    ("Cast error: ", "Cast"),
    ("Divide by zero error", "DivideByZero"),
    ("Compute error: ", "Compute"),
    ("Arithmetic overflow: ", "ArithmeticOverflow"),
    ("Invalid argument error: ", "InvalidArgument"),
    ("Parser error: ", "Parse"),
    ("Schema error: ", "Schema"),
    ("Not yet implemented: ", "NotYetImplemented"),
    ("External error: ", "External"),
    ("Memory error: ", "Memory"),
)

CAUSED = "\ncaused by\n"


def classify(e):
    """The class and message of an exception of the binding (see the module's documentation)."""
    if type(e).__name__ == "PanicException":
        return "Panic", str(e)
    msg = str(e)
    if msg.startswith("DataFusion error: "):
        msg = msg[len("DataFusion error: "):]
    contexts = []
    while CAUSED in msg:
        ctx, _, msg = msg.partition(CAUSED)
        contexts.append(ctx)
    code = None
    for prefix, name in VARIANTS:
        if msg.startswith(prefix):
            code = name
            rest = msg[len(prefix):]
            if name == "Arrow":
                for aprefix, kind in ARROW:
                    if rest.startswith(aprefix):
                        code = "Arrow/" + kind
                        break
            elif name == "SQL":
                code = "SQL/" + rest.split("(", 1)[0].strip()
            break
    if code is None:
        code = "driver" if isinstance(e, (TypeError, AttributeError, KeyError)) else "DataFusion"
    if contexts:
        msg += "\n" + "\n".join("(in %s)" % c for c in reversed(contexts))
    return code, msg


def floatrepr(v):
    """repr of a float, and -nan for a NaN whose sign bit is set: DataFusion orders and groups
    floats by IEEE 754's total order, where -NaN and NaN are different values."""
    if v != v and math.copysign(1.0, v) < 0:
        return "-nan"
    return repr(v)


def tagger(t):
    """The function that writes a value of Arrow type t with its tag."""
    if pa.types.is_boolean(t):
        return lambda v: "B:true" if v else "B:false"
    if pa.types.is_integer(t):
        return lambda v: "i:%d" % v
    if pa.types.is_float64(t):
        return lambda v: "r:" + floatrepr(v)
    if pa.types.is_floating(t):
        return lambda v: "f:" + floatrepr(float(v))
    if pa.types.is_decimal(t):
        return lambda v: "d:" + str(v)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or str(t) == "string_view":
        return lambda v: "t:" + v.translate(ESCAPES)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t) or str(t) == "binary_view":
        return lambda v: "b:" + bytes(v).hex()
    return lambda v: "x:" + str(v).translate(ESCAPES)


def answer(ctx, prog):
    try:
        batches = ctx.sql(prog).collect()
    except BaseException as e:  # an engine error, or a Rust panic (PanicException is a BaseException)
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return failure(*classify(e))
    rows = []
    for batch in batches:
        cols = []
        for i in range(batch.num_columns):
            col = batch.column(i)
            tag = tagger(col.type)
            cols.append(["NULL" if v is None else tag(v) for v in col.to_pylist()])
        rows.extend(zip(*cols) if cols else [()] * batch.num_rows)
    return answer_rows(rows)


def main():
    state = {"ctx": SessionContext()}
    version = state["ctx"].sql("SELECT version()").collect()[0].column(0)[0].as_py()
    version = version.replace("Apache DataFusion ", "").split(",")[0]

    def reset():
        state["ctx"] = SessionContext()

    # An exception that escapes answer is the binding itself failing: the engine is not usable.
    serve("polyfuzz-datafusion %s %s" % (datafusion.__version__, version),
          lambda prog: answer(state["ctx"], prog), "datafusion failed", reset=reset)


main()
