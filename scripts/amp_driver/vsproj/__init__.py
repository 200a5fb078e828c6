"""Visual Studio solutions and projects on amp_compat (./amp build, ./amp import, bin/amp-vs)."""
