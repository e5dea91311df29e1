# The part every bridge shares: splitting the input into commands and printing errors. The Go
# side puts it before each bridge's own program.


def commands(text):
    """Splits text into top-level S-expressions; returns them and the unfinished rest."""
    cmds, depth, start, i, n = [], 0, None, 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == '"':
            i += 1
            while i < n and not (text[i] == '"' and not (i + 1 < n and text[i + 1] == '"')):
                i += 2 if text[i] == '"' else 1
        elif c == "|":
            j = text.find("|", i + 1)
            i = n if j < 0 else j
        elif c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and start is not None:
                cmds.append(text[start : i + 1])
                start = None
            depth = max(depth, 0)
        i += 1
    return cmds, (text[start:] if start is not None else "")


def error(e):
    return '(error "%s")\n' % str(e).replace('"', "'").replace("\n", " ")


