"""The Python side of targets/kuzu.

The server keeps one Kùzu database in memory (kuzu.Database(":memory:"), one thread) and one
connection, reads requests from standard input, each a line with the length of a program in bytes
and the program, and runs each through Connection.execute. A program may hold several statements
separated by ';' (the Go side loads a graph with one program); the rows are the last statement's.
It answers with one line per row ("R", then a tab before each value), then "OK"; or with one line
"E", a tab, the error's class, a raw tab and the escaped message. The program RESET replaces the
database by a new, empty one.

Values are written as "j:" and JSON: null, true/false, integers as JSON numbers (INT128 too),
strings as JSON strings, floats as {"f": repr}, lists as arrays, structs and maps as {"m": {...}},
nodes as {"n": table, "p": {...}}, relationships as {"r": table, "p": {...}}, paths as
{"path": [node, rel, node, ...]} and any other value (dates, UUIDs, blobs) as {"t": str(value)}.
The Go side turns them into cypherval values.

Errors: Kùzu raises RuntimeError with "<Class> exception: message" (Binder, Parser, Catalog,
Runtime, Overflow, Conversion, ...); the class is that word in lower case. A statement that ran
over the connection's query timeout answers "Interrupted." and has class "timeout".

rowserver.StartPython puts rowserver's serve.py (serve, missing, failure, answer_rows, ESCAPES)
before this program, and the Go side puts TIMEOUT_MS (0 for none) and BUFFER_BYTES before that.
"""

import decimal
import json
import re

try:
    import kuzu
except ImportError as e:
    missing("kuzu", e)

CLASS = re.compile(r"^([A-Za-z ]+?) exception: ")


def enc(v):
    """A Python value of the binding as the JSON-ready form the module's documentation gives."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    if isinstance(v, dict):
        if "_nodes" in v and "_rels" in v:
            nodes, rels = v["_nodes"], v["_rels"]
            out = []
            for i, n in enumerate(nodes):
                if i > 0:
                    out.append(enc(rels[i - 1]))
                out.append(enc(n))
            return {"path": out}
        if "_label" in v and "_id" in v:
            props = {k: enc(x) for k, x in v.items() if not k.startswith("_") and x is not None}
            if "_src" in v:
                return {"r": v["_label"], "p": props}
            return {"n": v["_label"], "p": props}
        return {"m": {str(k): enc(x) for k, x in v.items()}}
    if isinstance(v, decimal.Decimal) and v.is_finite() and v == v.to_integral_value():
        return int(v)  # INT128, the type of sum over integers
    return {"t": str(v)}


def classify(e):
    """The class and message of an exception of the binding."""
    msg = str(e)
    if msg.strip() == "Interrupted.":
        return "timeout", msg
    m = CLASS.match(msg)
    if m:
        return m.group(1).lower().replace(" ", "-"), msg
    return "error", msg


def answer(conn, prog):
    try:
        results = conn.execute(prog)
        # The results of a multi-statement program are chained: reading the last one after the
        # first is freed crashes Kùzu 0.11.3's binding, so the list stays referenced until read.
        res = results[-1] if isinstance(results, list) else results
        rows = []
        while res.has_next():
            rows.append(["j:" + json.dumps(enc(v), ensure_ascii=False).translate(ESCAPES) for v in res.get_next()])
    except RuntimeError as e:
        return failure(*classify(e))
    return answer_rows(rows)


def main():
    def open_db():
        db = kuzu.Database(":memory:", buffer_pool_size=BUFFER_BYTES, max_num_threads=1)
        conn = kuzu.Connection(db, num_threads=1)
        if TIMEOUT_MS > 0:
            conn.set_query_timeout(TIMEOUT_MS)
        return db, conn

    state = {}
    state["db"], state["conn"] = open_db()

    def reset():
        state["conn"].close()
        state["db"].close()
        state["db"], state["conn"] = open_db()

    # An exception other than the engine's RuntimeError is the binding itself failing: a crash.
    serve("polyfuzz-kuzu %s" % kuzu.__version__, lambda prog: answer(state["conn"], prog), "kuzu failed",
          reset=reset)


main()
