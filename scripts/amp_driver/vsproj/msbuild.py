"""The part of MSBuild that Visual C++ project files need: properties,
conditions, imports, item definitions and items.

Evaluation follows MSBuild's passes: every property (in document order,
imports included), then item definitions, then items, so a condition on an
item sees the final value of every property. What this evaluator does not
know (property functions, item transforms) is an error naming the construct,
never a silent empty string.
"""
import glob
import os
import re
import xml.etree.ElementTree as ET

NS = "{http://schemas.microsoft.com/developer/msbuild/2003}"


class VsError(Exception):
    """Bad or unsupported input; the message names the file and the cause."""


def tag(elem):
    """The element's local name (project files may or may not use the MSBuild namespace)."""
    return elem.tag[len(NS):] if elem.tag.startswith(NS) else elem.tag.split("}")[-1]


def winpath(text):
    """A path written for Windows, as this system spells it."""
    return text.replace("\\", "/")


def resolve_path(path):
    """PATH, or the existing file that differs from it only in letter case
    (Windows file names are case-insensitive); PATH itself when none does."""
    if os.path.exists(path):
        return path
    parts = os.path.normpath(path).split(os.sep)
    cur = os.sep if path.startswith(os.sep) else "."
    for part in parts:
        if part in ("", "."):
            continue
        nxt = os.path.join(cur, part)
        if not os.path.exists(nxt) and part != "..":
            try:
                match = [e for e in os.listdir(cur) if e.lower() == part.lower()]
            except OSError:
                return path
            if len(match) != 1:
                return path
            nxt = os.path.join(cur, match[0])
        cur = nxt
    return os.path.normpath(cur)


class Props(dict):
    """MSBuild properties: names are case-insensitive."""

    def __getitem__(self, k):
        return dict.__getitem__(self, k.lower())

    def __setitem__(self, k, v):
        dict.__setitem__(self, k.lower(), v)

    def __contains__(self, k):
        return dict.__contains__(self, k.lower())

    def get(self, k, d=None):
        return dict.get(self, k.lower(), d)


_PROP = re.compile(r"\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_META = re.compile(r"%\(([A-Za-z_][\w.-]*)\)")
_NAME = re.compile(r"^[A-Za-z_][\w-]*$")


def expand(text, props, meta=None, where=""):
    """TEXT with $(Property) and, when META is given, %(Metadata) replaced.
    Unknown properties are empty, as in MSBuild. META maps lower-case
    metadata names to values (unknown: empty)."""
    if text is None:
        return ""

    def prop(m):
        name = m.group(1).strip()
        if name.startswith("Registry:"):
            return ""
        if not _NAME.match(name):
            raise VsError(f"{where}: property functions are not supported: $({name})")
        return props.get(name, "")

    out = _PROP.sub(prop, text)
    if meta is not None:
        out = _META.sub(lambda m: meta.get(m.group(1).lower(), ""), out)
    if "@(" in out:
        raise VsError(f"{where}: item lists/transforms are not supported: {text.strip()}")
    return out


# ---- conditions -------------------------------------------------------------
_TOKEN = re.compile(r"""\s*(?:
    (?P<str>'[^']*') |
    (?P<op>==|!=|<=|>=|<|>|\(|\)|!|,) |
    (?P<prop>\$\([^()]*(?:\([^()]*\)[^()]*)*\)) |
    (?P<word>[^\s'=!<>(),]+)
)""", re.X)


class _Cond:
    """Recursive-descent evaluation of one Condition attribute:
    or / and / ! / ( ) / == != < > <= >= / Exists() / HasTrailingSlash()."""

    def __init__(self, text, props, basedir, where):
        self.text, self.props, self.basedir, self.where = text, props, basedir, where
        self.toks, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                self.fail(f"cannot read at '{text[pos:]}'")
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0

    def fail(self, why):
        raise VsError(f"{self.where}: condition \"{self.text}\": {why}")

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, value=None):
        kind, val = self.peek()
        if kind is None or (value is not None and val.lower() != value):
            self.fail(f"expected '{value}'" if value else "unexpected end")
        self.i += 1
        return kind, val

    def run(self):
        v = self.or_()
        if self.i != len(self.toks):
            self.fail(f"unexpected '{self.toks[self.i][1]}'")
        return v

    def or_(self):
        v = self.and_()
        while self.peek()[0] == "word" and self.peek()[1].lower() == "or":
            self.take()
            r = self.and_()
            v = v or r
        return v

    def and_(self):
        v = self.unary()
        while self.peek()[0] == "word" and self.peek()[1].lower() == "and":
            self.take()
            r = self.unary()
            v = v and r
        return v

    def unary(self):
        if self.peek() == ("op", "!"):
            self.take()
            return not self.unary()
        return self.primary()

    def value(self, kind, tok):
        if kind == "str":
            tok = tok[1:-1]
        return expand(tok, self.props, where=self.where)

    def primary(self):
        kind, tok = self.peek()
        if (kind, tok) == ("op", "("):
            self.take()
            v = self.or_()
            self.take(")")
            return v
        if kind == "word" and self.i + 1 < len(self.toks) and self.toks[self.i + 1] == ("op", "("):
            return self.function()
        if kind not in ("str", "prop", "word"):
            self.fail(f"unexpected '{tok}'")
        self.take()
        left = self.value(kind, tok)
        k2, op = self.peek()
        if k2 == "op" and op in ("==", "!=", "<", ">", "<=", ">="):
            self.take()
            k3, t3 = self.take()
            if k3 not in ("str", "prop", "word"):
                self.fail(f"unexpected '{t3}'")
            return self.compare(left, op, self.value(k3, t3))
        if left.lower() in ("true", "on", "yes"):
            return True
        if left.lower() in ("false", "off", "no"):
            return False
        self.fail(f"'{left}' is not a boolean")

    def compare(self, a, op, b):
        if op in ("==", "!="):
            return (a.lower() == b.lower()) == (op == "==")
        try:
            x, y = float(a), float(b)
        except ValueError:
            self.fail(f"'{a}' {op} '{b}' compares non-numbers")
        return {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]

    def function(self):
        _, name = self.take()
        self.take("(")
        args = []
        while self.peek() != ("op", ")"):
            kind, tok = self.take()
            if kind not in ("str", "prop", "word"):
                self.fail(f"unexpected '{tok}' in {name}()")
            args.append(self.value(kind, tok))
            if self.peek() == ("op", ","):
                self.take()
        self.take(")")
        lname = name.lower()
        if lname == "exists" and len(args) == 1:
            p = winpath(args[0].strip())
            if not p:
                return False
            return os.path.exists(resolve_path(os.path.join(self.basedir, p)))
        if lname == "hastrailingslash" and len(args) == 1:
            return args[0].endswith(("/", "\\"))
        self.fail(f"function {name}() is not supported")


def condition(text, props, basedir, where):
    """Whether a Condition attribute holds (no attribute: true)."""
    if text is None or not text.strip():
        return True
    return _Cond(text, props, basedir, where).run()


# ---- project evaluation -----------------------------------------------------
class Item:
    def __init__(self, itype, include, meta, basedir):
        self.type, self.include, self.meta, self.basedir = itype, include, meta, basedir

    def path(self):
        """The item as a path on this system (relative to its project file)."""
        return resolve_path(os.path.normpath(os.path.join(self.basedir, winpath(self.include))))

    def get(self, name, default=""):
        return self.meta.get(name.lower(), default)


class Project:
    """One evaluated MSBuild project file for one configuration.

    props: final properties; definitions: item type -> metadata (lower-case
    names); items: Item list in document order; notes: what was skipped."""

    def __init__(self, path, global_props, env=None):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        self.notes = []
        self.props = Props()
        for k, v in (os.environ if env is None else env).items():
            if _NAME.match(k):
                self.props[k] = v
        stem = os.path.splitext(os.path.basename(self.path))[0]
        builtins = {
            "MSBuildProjectDirectory": self.dir,
            "MSBuildProjectFile": os.path.basename(self.path),
            "MSBuildProjectFullPath": self.path,
            "MSBuildProjectName": stem,
            "MSBuildProjectExtension": os.path.splitext(self.path)[1],
            "ProjectDir": self.dir + "/",
            "ProjectPath": self.path,
            "ProjectFileName": os.path.basename(self.path),
            "ProjectName": stem,
            "ProjectExt": os.path.splitext(self.path)[1],
            "TargetName": stem,
        }
        for k, v in builtins.items():
            self.props[k] = v
        self.globals = set()
        for k, v in global_props.items():
            self.props[k] = v
            self.globals.add(k.lower())
        if "platform" in self.props and "PlatformTarget" not in global_props:
            self.props["PlatformTarget"] = "x86" if self.props["Platform"].lower() == "win32" else self.props["Platform"]
        self._idgs, self._igs = [], []
        self._walk(self.path, set())
        self.definitions = {}
        for elem, base, where in self._idgs:
            self._definitions(elem, base, where)
        self.items = []
        for elem, base, where in self._igs:
            self._item_group(elem, base, where)

    # pass 1: properties (and the list of item definition groups / item groups)
    def _load(self, path):
        try:
            return ET.parse(path).getroot()
        except ET.ParseError as e:
            raise VsError(f"{path}: not a valid XML file: {e}") from None
        except OSError as e:
            raise VsError(f"{path}: cannot read: {e.strerror}") from None

    def _walk(self, path, seen):
        root = self._load(path)
        if tag(root) != "Project":
            raise VsError(f"{path}: not an MSBuild project (root element <{tag(root)}>)")
        base = os.path.dirname(path)
        saved = (self.props.get("MSBuildThisFileDirectory"), self.props.get("MSBuildThisFile"))
        self.props["MSBuildThisFileDirectory"] = base + "/"
        self.props["MSBuildThisFile"] = os.path.basename(path)
        self._children(root, base, path, seen | {path})
        if saved[0] is not None:
            self.props["MSBuildThisFileDirectory"], self.props["MSBuildThisFile"] = saved

    def _cond(self, elem, base, where):
        return condition(elem.get("Condition"), self.props, base, f"{where}:<{tag(elem)}>")

    def _children(self, parent, base, where, seen):
        for elem in parent:
            if not isinstance(elem.tag, str):
                continue  # comments
            t = tag(elem)
            if t == "Choose":
                self._choose(elem, base, where, seen)
                continue
            if not self._cond(elem, base, where):
                continue
            if t == "PropertyGroup":
                for p in elem:
                    if isinstance(p.tag, str) and self._cond(p, base, where) and tag(p).lower() not in self.globals:
                        self.props[tag(p)] = expand(p.text or "", self.props, where=where).strip()
            elif t == "ItemDefinitionGroup":
                self._idgs.append((elem, base, where))
            elif t == "ItemGroup":
                self._igs.append((elem, base, where))
            elif t == "ImportGroup":
                for imp in elem:
                    if isinstance(imp.tag, str) and tag(imp) == "Import" and self._cond(imp, base, where):
                        self._import(imp, base, where, seen)
            elif t == "Import":
                self._import(elem, base, where, seen)
            elif t == "Target":
                self.notes.append(f"skipped: custom target '{elem.get('Name')}' ({os.path.basename(where)}): "
                                  "MSBuild targets are not run")

    def _choose(self, elem, base, where, seen):
        for branch in elem:
            if not isinstance(branch.tag, str):
                continue
            if tag(branch) == "Otherwise" or self._cond(branch, base, where):
                self._children(branch, base, where, seen)
                return

    def _import(self, elem, base, where, seen):
        raw = elem.get("Project", "")
        if "vctargetspath" in raw.lower() or "msbuildextensionspath" in raw.lower() \
                or "msbuildtoolspath" in raw.lower():
            return  # Visual Studio's own build logic: what it sets is mapped by the caller
        target = expand(raw, self.props, where=where).strip()
        pattern = os.path.normpath(os.path.join(base, winpath(target)))
        paths = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?") else [resolve_path(pattern)]
        for p in paths:
            if not os.path.isfile(p):
                if re.search(r"(^|/)packages/", winpath(target), re.I):
                    self.notes.append(f"skipped: NuGet import {raw} (packages are not restored here; "
                                      "Google Test from NuGet is mapped to Debian's GoogleTest)")
                else:
                    self.notes.append(f"skipped: import {raw}: {p} does not exist")
                continue
            if p in seen:
                raise VsError(f"{where}: import cycle through {p}")
            self._walk(p, seen)

    # pass 2: item definitions
    def _definitions(self, elem, base, where):
        for it in elem:
            if not isinstance(it.tag, str) or not self._cond(it, base, where):
                continue
            d = self.definitions.setdefault(tag(it), {})
            for m in it:
                if isinstance(m.tag, str) and self._cond(m, base, where):
                    d[tag(m).lower()] = expand(m.text or "", self.props, d, where).strip()

    # pass 3: items
    def _item_group(self, elem, base, where):
        for it in elem:
            if not isinstance(it.tag, str) or not self._cond(it, base, where):
                continue
            t = tag(it)
            if it.get("Remove") is not None:
                gone = {os.path.normcase(Item(t, s, {}, base).path())
                        for s in self._split(it.get("Remove"), base, where)}
                self.items = [i for i in self.items if not (i.type == t and os.path.normcase(i.path()) in gone)]
                continue
            if it.get("Update") is not None:
                targets = {os.path.normcase(Item(t, s, {}, base).path())
                           for s in self._split(it.get("Update"), base, where)}
                for i in self.items:
                    if i.type == t and os.path.normcase(i.path()) in targets:
                        self._metadata(i, it, base, where)
                continue
            excl = {os.path.normcase(Item(t, s, {}, base).path())
                    for s in self._split(it.get("Exclude", ""), base, where)}
            for inc in self._split(it.get("Include", ""), base, where):
                item = Item(t, inc, dict(self.definitions.get(t, {})), base)
                if os.path.normcase(item.path()) in excl:
                    continue
                self._metadata(item, it, base, where)
                self.items.append(item)

    def _split(self, spec, base, where):
        out = []
        for part in expand(spec, self.props, where=where).split(";"):
            part = part.strip()
            if not part:
                continue
            if any(c in part for c in "*?"):
                pat = os.path.join(base, winpath(part))
                for p in sorted(glob.glob(pat, recursive=True)):
                    out.append(os.path.relpath(p, base))
            else:
                out.append(part)
        return out

    def _metadata(self, item, elem, base, where):
        name = os.path.basename(winpath(item.include))
        wellknown = {"identity": item.include, "filename": os.path.splitext(name)[0],
                     "extension": os.path.splitext(name)[1], "fullpath": item.path()}
        for m in elem:
            if isinstance(m.tag, str) and self._cond(m, base, where):
                item.meta[tag(m).lower()] = expand(m.text or "", self.props, {**item.meta, **wellknown}, where).strip()
        for k, v in elem.attrib.items():  # metadata as attributes (MSBuild 15)
            if k not in ("Include", "Exclude", "Remove", "Update", "Condition", "Label"):
                item.meta[k.lower()] = expand(v, self.props, {**item.meta, **wellknown}, where).strip()

    def items_of(self, itype):
        return [i for i in self.items if i.type == itype]
