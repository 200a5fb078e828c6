"""The backends list (backends.txt, beside this file): every reader of backend
names goes through it.

  python3 -m amp_driver backends [--kind host|gpu] [--embedded] [--field NAME]
      the names (or another column) of the matching rows, one a line
  python3 -m amp_driver backends --builds
      the build kinds (host, cuda, hip), once each
"""
from collections import namedtuple
from pathlib import Path

Backend = namedtuple("Backend", "name kind device build embedded")
LIST = Path(__file__).resolve().parent / "backends.txt"


def read(path=LIST):
    out = []
    for line in Path(path).read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            name, kind, device, build, embedded = words
            out.append(Backend(name, kind, device, build, embedded == "yes"))
    return out


def builds(rows=None):
    return list(dict.fromkeys(b.build for b in rows or read()))


def main(argv):
    rows = read()
    if "--builds" in argv:
        print("\n".join(builds(rows)))
        return 0
    field = "name"
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--kind":
            rows = [b for b in rows if b.kind == argv[i + 1]]
            i += 1
        elif a == "--embedded":
            rows = [b for b in rows if b.embedded]
        elif a == "--field":
            field = argv[i + 1]
            i += 1
        else:
            raise SystemExit(f"backends: unknown argument {a}")
        i += 1
    print("\n".join(str(getattr(b, field)) for b in rows))
    return 0
