# The part every library server shares (see rowserver.StartLib): StartLib puts NAME (the engine's
# name), GREETING ("polyfuzz-NAME", which also marks the process's command line), LIB (the
# library's path) and TIMEOUT (seconds per statement, 0 for none) before it, and serve.py before
# that; the server's own program comes after, loads the library with load and
# answers with serve_lib.
import ctypes
import os
import sys


def refuse(why):
    """Greets with "GREETING-refused" and why, which StartLib turns into an error, and exits."""
    print("%s-refused %s" % (GREETING, why), flush=True)
    sys.exit(3)


def loaded_from(lib, symbol):
    """The file the process mapped symbol of lib from, or None when it cannot tell."""
    addr = ctypes.cast(getattr(lib, symbol), ctypes.c_void_p).value
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                if lo <= addr < hi and len(parts) == 6:
                    return parts[5].strip()
    except OSError:
        pass
    return None


def load(engine, symbols):
    """Loads LIB with ctypes and returns it. It refuses a file that cannot be loaded, one without
    each of symbols (it is not a library of engine, "DuckDB"), and one the process did not load
    from LIB (a library of the same name loaded before) as far as /proc tells."""
    try:
        lib = ctypes.CDLL(LIB)
    except OSError as e:
        refuse("cannot load %s: %s" % (LIB, e))
    absent = [s for s in symbols if not hasattr(lib, s)]
    if absent:
        refuse("%s is not a %s library: it has no %s" % (LIB, engine, " and ".join(absent)))
    where = loaded_from(lib, symbols[0])
    if where is not None and os.path.realpath(where) != os.path.realpath(LIB):
        refuse("the process loaded %s from %s, not from %s" % (engine, where, LIB))
    return lib


def serve_lib(database, probe, version, hello):
    """Serves the databases that database() makes, one at a time, each with run(prog) and close().
    The first must answer the statement probe with the one text value version (what the library
    says its version is), else the library is refused; then it greets with "GREETING hello",
    answers each program with run, and replaces the database by a new one on RESET."""
    state = {"db": database()}
    got = state["db"].run(probe)
    if got != "R\tt:%s\nOK\n" % version:
        refuse("%s on %s answers %r, its library version %s" % (probe, LIB, got, version))

    def reset():
        state["db"].close()
        state["db"] = database()

    serve("%s %s" % (GREETING, hello), lambda prog: state["db"].run(prog), NAME + " failed", "surrogateescape",
          reset=reset)
