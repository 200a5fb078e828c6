"""Visual Studio solution files (.sln): projects, solution configurations,
each project's configuration in each of them, and ProjectDependencies."""
import os
import re

from .msbuild import VsError, winpath, resolve_path

CPP_TYPE = "8BC9CEB8-8B4A-11D0-8D11-00A0C91BC942"
FOLDER_TYPE = "2150E333-8FDC-42A3-9474-1A3956D46DE8"
KNOWN_TYPES = {
    "FAE04EC0-301F-11D3-BF4B-00C04F79EFBC": "C#",
    "9A19103F-16F7-4668-BE54-9A1E7A4F7556": "C# (SDK-style)",
    "F184B08F-C81C-45F6-A57F-5ABD9991F28F": "Visual Basic",
    "778DAE3C-4631-46EA-AA77-85C1314464D9": "Visual Basic (SDK-style)",
    "F2A71F9B-5D33-465A-A702-920D77279786": "F#",
    "888888A0-9F3D-457C-B088-3A5042F75D52": "Python",
    "911E67C6-3D85-4FCE-B560-20A9C3E3FF48": "Fortran/exe",
    "930C7802-8A8C-48F9-8165-68863BCCD9DD": "WiX installer",
    "54435603-DBB4-11D2-8724-00A0C9A8B90C": "Visual Studio installer",
}

_PROJECT = re.compile(r'^Project\("\{([^}]*)\}"\)\s*=\s*"([^"]*)"\s*,\s*"([^"]*)"\s*,\s*"\{([^}]*)\}"')
_SECTION = re.compile(r"^(Project|Global)Section\((\w+)\)")


class SlnProject:
    def __init__(self, type_guid, name, relpath, guid, sln_dir):
        self.type_guid, self.name, self.guid = type_guid.upper(), name, guid.upper()
        self.relpath = relpath
        self.path = resolve_path(os.path.normpath(os.path.join(sln_dir, winpath(relpath))))
        self.depends = []      # GUIDs from ProjectDependencies (build order)
        self.configs = {}      # solution config -> (project config, built?)

    @property
    def is_cpp(self):
        return self.type_guid == CPP_TYPE or self.path.lower().endswith(".vcxproj")


class Solution:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        self.name = os.path.splitext(os.path.basename(self.path))[0]
        self.projects, self.configs = [], []
        try:
            with open(self.path, encoding="utf-8-sig", errors="replace") as f:
                lines = [l.strip() for l in f]
        except OSError as e:
            raise VsError(f"{path}: cannot read: {e.strerror}") from None
        if not any(l.startswith("Microsoft Visual Studio Solution File") for l in lines[:5]):
            raise VsError(f"{path}: not a Visual Studio solution file (no 'Microsoft Visual Studio Solution File' header)")
        cur, section, active, built = None, None, {}, set()
        for n, line in enumerate(lines, 1):
            m = _PROJECT.match(line)
            if m:
                cur = SlnProject(*m.groups(), self.dir)
                self.projects.append(cur)
                continue
            if line == "EndProject":
                cur = None
                continue
            m = _SECTION.match(line)
            if m:
                section = m.group(2)
                continue
            if line in ("EndProjectSection", "EndGlobalSection"):
                section = None
                continue
            if "=" not in line or section is None:
                continue
            key, val = (s.strip() for s in line.split("=", 1))
            if section == "ProjectDependencies" and cur is not None:
                cur.depends.append(key.strip("{}").upper())
            elif section == "SolutionConfigurationPlatforms":
                self.configs.append(key)
            elif section == "ProjectConfigurationPlatforms":
                m = re.match(r"\{([^}]*)\}\.(.+)\.(ActiveCfg|Build\.0)$", key)
                if not m:
                    continue
                guid, scfg, what = m.group(1).upper(), m.group(2), m.group(3)
                if what == "ActiveCfg":
                    active[(guid, scfg)] = val
                else:
                    built.add((guid, scfg))
        for p in self.projects:
            for scfg in self.configs:
                if (p.guid, scfg) in active:
                    p.configs[scfg] = (active[(p.guid, scfg)], (p.guid, scfg) in built)

    def pick_config(self, wanted):
        """The solution configuration named WANTED ('Release|x64'; 'Win32' and
        'x86' are the same platform), or the default: Release|x64, else the
        first Release one, else the first one."""
        if not self.configs:
            raise VsError(f"{self.path}: the solution lists no configurations (SolutionConfigurationPlatforms)")
        if wanted:
            norm = lambda c: c.lower().replace("win32", "x86")
            for c in self.configs:
                if norm(c) == norm(wanted):
                    return c
            raise VsError(f"{self.path}: no configuration '{wanted}'; the solution has: {', '.join(self.configs)}")
        for c in self.configs:
            if c.lower() == "release|x64":
                return c
        return next((c for c in self.configs if c.lower().startswith("release|")), self.configs[0])
