"""The Python side of targets/clingo.

It reads requests from standard input, each a line with the length of a program in bytes and
the program, grounds and solves each with a new clingo.Control, and answers with one line per
shown symbol of the answer set ("R", then a tab before each field, escaped), then "OK"; or with
one line "E", a tab and the escaped text of the first error. A shown tuple's fields are its
elements, a shown function's its name and arguments. Escaping writes \\ as \\\\, tab as \\t,
newline as \\n and carriage return as \\r.

rowserver.StartPython puts rowserver's serve.py (serve, ESCAPES) before this program.
"""

import sys

try:
    import clingo
except ImportError as e:
    print("polyfuzz-clingo-missing %s" % e, flush=True)
    sys.exit(3)

try:
    # clingo decodes each message as strict UTF-8 before it calls the logger, and aborts the
    # process when that fails (a lexer error quotes one byte of a multi-byte character); decode
    # leniently instead.
    from clingo import core as _core, _internal

    _core._to_str = lambda c: _internal._ffi.string(c).decode("utf-8", "replace")
except (ImportError, AttributeError):
    pass



def value(sym):
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    if sym.type == clingo.SymbolType.String:
        return sym.string.translate(ESCAPES)
    return str(sym).translate(ESCAPES)


def row(sym):
    if sym.type == clingo.SymbolType.Function:
        fields = [value(a) for a in sym.arguments]
        return fields if sym.name == "" else [sym.name] + fields
    return [value(sym)]


def error(msg):
    return "E\t" + msg.strip().translate(ESCAPES) + "\n"


def answer(text):
    errors = []

    def logger(code, msg):
        if code == clingo.MessageCode.RuntimeError and not errors:
            errors.append(msg)

    try:
        ctl = clingo.Control(["--models=2"], logger=logger)
        ctl.add("base", [], text)
        ctl.ground([("base", [])])
        models = []
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                models.append(model.symbols(shown=True))
    except Exception as e:  # clingo raises RuntimeError after it logged the error
        return error(errors[0] if errors else "%s: %s" % (type(e).__name__, e))
    if len(models) != 1:
        return error("%s answer sets; a stratified program has exactly one" % ("no" if not models else "several"))
    lines = ["R\t" + "\t".join(row(s)) + "\n" for s in models[0]]
    lines.append("OK\n")
    return "".join(lines)


def main():
    serve("polyfuzz-clingo %s" % clingo.__version__, answer, "clingo failed")


main()
