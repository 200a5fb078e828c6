"""The backends list (backends.txt, beside this file): every reader of backend
names goes through it.

  python3 -m amp_driver backends [--kind host|gpu] [--name N] [--device D] [--build B] [--embedded]
                                 [--field COLUMN]
      the names (or another column) of the matching rows, one a line
      (also python3 backends.py ..., for scripts/deps.sh)
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
        if a == "--embedded":
            rows = [b for b in rows if b.embedded]
        elif a[2:] in Backend._fields and i + 1 < len(argv):  # --kind, --name, --device, --build VALUE
            rows = [b for b in rows if getattr(b, a[2:]) == argv[i + 1]]
            i += 1
        elif a == "--field" and i + 1 < len(argv):
            field = argv[i + 1]
            i += 1
        else:
            raise SystemExit(f"backends: unknown argument {a}")
        i += 1
    print("\n".join(str(getattr(b, field)) for b in rows))
    return 0

if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
