"""A child virtual environment that sees exactly what the test's own interpreter sees.

The acceptance tests (a scaffolded plugin, the quick job from a wheel) install into a fresh virtual
environment. ``venv``'s ``system_site_packages`` exposes the *base* interpreter's packages, which is not where
the packages are when the test suite itself runs in a user's virtual environment (the README's
``python3 -m venv … && pip install -e ".[test]" && python -m pytest``). Instead, the child gets a ``.pth`` file
that calls :func:`site.addsitedir` on every site folder of the running interpreter, *after* its own: what the
child installs (a wheel, an editable plugin) comes first, everything else (NumPy, matplotlib, pip, an editable
theorycheck) is found where the parent found it, ``.pth`` files included.
"""
from __future__ import annotations

import os
import site
import sysconfig
import venv
from pathlib import Path


def parent_site_dirs() -> list[str]:
    """The site folders of this interpreter, in its own order (virtual environment first, then the base)."""
    dirs = []
    cands = list(site.getsitepackages()) + [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
        cands.append(site.getusersitepackages())
    for d in cands:
        if os.path.isdir(d) and d not in dirs:
            dirs.append(d)
    return dirs


def child_venv(env_dir: Path) -> tuple[str, dict]:
    """Create a virtual environment at ``env_dir`` inheriting this interpreter's packages.

    Returns ``(python, env)``: the child's interpreter and an environment for subprocesses (its ``bin`` first on
    ``PATH``, no ``PYTHONPATH``, no user site)."""
    env_dir = Path(env_dir)
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(env_dir), "platbase": str(env_dir)}))
    purelib.mkdir(parents=True, exist_ok=True)
    lines = [f"import site; site.addsitedir({d!r})" for d in parent_site_dirs()]
    (purelib / "zz_theorycheck_parent_env.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = dict(os.environ, PATH=f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}", PYTHONNOUSERSITE="1")
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONHOME", None)
    return str(py), env
