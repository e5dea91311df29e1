"""The Python side of targets/cozo.

It opens one in-memory CozoDB database, reads requests from standard input, each a line with the
length of a CozoScript program in bytes and the program, runs each, and answers with one line per
row of the program's result ("R", then a tab before each value, escaped), then "OK"; or with one
line "E", a tab and the escaped text of cozo's error ("CODE: message"). A row's null values are
left out (a translated program pads the rows of its shorter relations with null); integers are
written in decimal, strings as their text, other values as their JSON text. Escaping writes \\
as \\\\, tab as \\t, newline as \\n and carriage return as \\r. A panic of the engine ends the
process with status 70 after it wrote the panic's message on standard error.

rowserver.StartPython puts rowserver's serve.py (serve, ESCAPES) before this program.
"""

import json
import sys

try:
    import cozo_embedded
except ImportError as e:
    print("polyfuzz-cozo-missing %s" % e, flush=True)
    sys.exit(3)



def version():
    try:
        from importlib import metadata

        return metadata.version("cozo-embedded")
    except Exception:  # an installation without metadata
        return "unknown"


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v.translate(ESCAPES)
    return json.dumps(v).translate(ESCAPES)


def error(msg):
    return "E\t" + msg.strip().translate(ESCAPES) + "\n"


def message(e):
    a = e.args[0] if e.args else e
    if isinstance(a, dict):
        text = a.get("message") or a.get("display") or repr(a)
        if a.get("code"):
            text = "%s: %s" % (a["code"], text)
        return text
    return "%s: %s" % (type(e).__name__, a)


def answer(db, text):
    try:
        res = db.run_script(text, {}, False)
    except Exception as e:  # cozo raises Exception with its error as a dict
        return error(message(e))
    lines = []
    for row in res.get("rows", []):
        lines.append("".join("\t" + value(v) for v in row if v is not None))
    return "".join("R" + line + "\n" for line in lines) + "OK\n"


def main():
    db = cozo_embedded.CozoDbPy("mem", "", "{}")
    # An exception that escapes answer is pyo3's PanicException: the engine panicked.
    serve("polyfuzz-cozo %s" % version(), lambda text: answer(db, text), "cozo panicked")


main()
