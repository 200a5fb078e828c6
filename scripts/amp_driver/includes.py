"""The #include walk the passes share: the files a compile's sources reach,
each read once (launcher.closure: the project files the passes edit;
passes/windows.include_shims: the includes spelled the Windows way)."""
import re
from pathlib import Path

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


def walk(start, follow):
    """Walks the includes from the files start: follow(file, kind, name)
    (kind '"' or '<') returns the files an include leads to. Returns (the
    files reached, in the order reached, starting files included; {file:
    text} of those that could be read)."""
    order, texts, seen, todo = [], {}, set(), list(start)
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        order.append(f)
        try:
            txt = Path(f).read_text(errors="replace")
        except OSError:
            continue
        texts[f] = txt
        for kind, name in INCLUDE_RE.findall(txt):
            todo.extend(follow(f, kind, name))
    return order, texts
