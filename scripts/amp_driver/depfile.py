"""Dependency files (-MD, -MMD, -MF) naming the user's files, not the
launcher's copies.

The source passes compile copies: the restrict pass's overlay, the host
tile compiler's rewritten sources and headers, the Windows spellings'
shims (`#include "Inc\\VH.h"` reaches a shim that includes the real file).
The compiler's dependency file names the files it opened, so without this
module it named those copies: make and Ninja then watched files that the
next compile rewrites (an edit of the user's header rebuilt nothing: a stale
object) or that were gone with a temporary folder (make: "No rule to make
target"; Ninja: a rebuild every time). After a successful compile,
`restore(job)` rewrites each dependency file the compile wrote with every
copy replaced by its original, shims by the files they include.

Under -MMD the project's headers a shim reaches are missing (GCC leaves out
what a system header includes, and the shims' folder is a system one):
they are added from the launcher's reading of the includes (job.headers).

The passes register the folders of their copies as they make them
(`copies(folder, original)`: a copy is folder + rest, its original
original + rest; `shims(folder)`), for the compile of this process; the
file format is GCC's
(Clang writes the same): `targets: deps` rules, `\\` line continuations,
spaces escaped `\\ `, `#` escaped `\\#`, `$` written `$$`.
"""
import os


def paths(job):
    """The dependency files job's compile writes: -MF's, else for -MD/-MMD
    the output's name with `.d` for its suffix, or with no -o each source's
    base name with `.d`, in the working folder (GCC's and Clang's rule)."""
    from .job import scan
    named, wanted = None, False
    for _, opt, value in scan(job.args):
        if opt == "-MF" and value is not None:
            named = value
        elif opt is not None and opt.startswith("-MF") and len(opt) > 3:
            named = opt[3:]
        elif opt in ("-MD", "-MMD"):
            wanted = True
    if named:
        return [named]
    if not wanted:
        return []
    if job.out:
        return [os.path.splitext(job.out)[0] + ".d"]
    return [os.path.splitext(os.path.basename(job.args[k]))[0] + ".d" for k in job.sources]


def parse(text):
    """[(targets, deps)] of a dependency file's text (names unescaped)."""
    rules, words, word, targets = [], [], None, None
    k, n = 0, len(text)

    def end_word():
        nonlocal word
        if word is not None:
            words.append(word)
            word = None

    def end_rule():
        nonlocal targets, words
        end_word()
        if targets is not None:
            rules.append((targets, words))
        elif words:
            rules.append((words, []))
        targets, words = None, []
    while k < n:
        c = text[k]
        if c == "\\" and k + 1 < n and text[k + 1] == "\n":
            end_word()
            k += 2
            continue
        if c == "\\" and k + 2 < n and text[k + 1] == "\r" and text[k + 2] == "\n":
            end_word()
            k += 3
            continue
        if c == "\\" and k + 1 < n and text[k + 1] in " #":
            word = (word or "") + text[k + 1]
            k += 2
            continue
        if c == "$" and k + 1 < n and text[k + 1] == "$":
            word = (word or "") + "$"
            k += 2
            continue
        if c == "\n":
            end_rule()
        elif c in " \t\r":
            end_word()
        elif c == ":" and targets is None and (k + 1 == n or text[k + 1] in " \t\r\n"):
            end_word()
            targets, words = words, []
        else:
            word = (word or "") + c
        k += 1
    end_rule()
    return rules


def escape(name):
    return name.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def render(rules):
    """The text of rules, as GCC lays it out (one dependency per line)."""
    out = []
    for targets, deps in rules:
        head = " ".join(escape(t) for t in targets) + ":"
        out.append(" \\\n ".join([head] + [escape(d) for d in deps]) if deps else head)
    return "\n".join(out) + "\n"


def original(name, copies, shim_dirs, shim_target):
    """The user's file a dependency stands for (name itself when it is not
    a copy); None for a shim whose target is not a file (nothing to watch)."""
    full = os.path.abspath(name)
    for folder, orig in copies:
        if full.startswith(folder + "/"):
            full = orig + full[len(folder):]
            name = full
            break
    for d in shim_dirs:
        if full.startswith(d + "/"):
            target = shim_target(full)
            return target if target and os.path.isfile(target) else None
    return name


def restore_file(path, copies, shim_dirs, shim_target, headers=()):
    """Rewrites the dependency file path (when there is one) with the
    originals of the copies it names, and the headers (the project's,
    which -MMD left out: reached through a shim, a system header for the
    compiler) added to its first rule; whether it changed."""
    try:
        with open(path, errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        return False
    rules = []
    for targets, deps in parse(text):
        seen, mapped = set(), []
        for d in deps:
            o = original(d, copies, shim_dirs, shim_target)
            if o is not None and o not in seen:
                seen.add(o)
                mapped.append(o)
        if not deps:  # -MP's empty rule for one header: its original's, once
            ts = [o for o in (original(t, copies, shim_dirs, shim_target) for t in targets) if o is not None]
            if not ts or any(ts == r[0] for r in rules):
                continue
            targets = ts
        if not rules:
            mapped += [h for h in headers if h not in seen]
        rules.append((targets, mapped))
    new = render(rules)
    if new == text:
        return False
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", errors="surrogateescape") as f:
        f.write(new)
    os.replace(tmp, path)
    return True


_COPIES, _SHIMS = [], []


def copies(folder, original=""):
    """folder holds copies of files whose originals are original + their
    path under it ("": the copy of /a/b.h is folder/a/b.h)."""
    entry = (os.path.abspath(folder), os.path.abspath(original) if original else "")
    if entry not in _COPIES:
        _COPIES.append(entry)


def shims(folder):
    """folder holds Windows spellings' shims (passes/windows.py)."""
    if os.path.abspath(folder) not in _SHIMS:
        _SHIMS.append(os.path.abspath(folder))


def needed(job):
    """Whether job's dependency files could name a copy (restore has work)."""
    return job.writes_depfiles and bool(_COPIES or _SHIMS)


def restore(job):
    """After job's successful compile: its dependency files name the user's
    files (see the module comment)."""
    if not needed(job):
        return
    from .job import scan
    from .passes.windows import shim_target
    # -MMD leaves out what a system header includes, and the shims' folder
    # is a system one (-idirafter): the project's headers are added back.
    opts = {o for _, o, _ in scan(job.args)}
    mmd = bool(_SHIMS) and "-MMD" in opts and "-MD" not in opts
    headers = [h for h in job.headers if os.path.isfile(h)] if mmd else []
    for p in paths(job):
        restore_file(p, _COPIES, _SHIMS, shim_target, headers)
