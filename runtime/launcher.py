"""bot.py started by a Python that lacks the bot's packages: run it with the project's .venv.

The README's commands (``python bot.py health``, ``python bot.py ratings rebuild``) are typed
with whatever ``python`` the shell finds, often the system's, while ``make install`` (and
``make run``) put discord.py and the rest in ``.venv`` beside bot.py. When bot.py's first such
import fails, it calls :func:`use_project_environment`: the same command is run again by
``.venv``'s Python if there is one (what the self-hoster meant); if there is none, or it lacks
the packages too, one line says what to type instead and the exit code is 2, as for any other
reason the bot cannot start. The Docker image has no .venv and its packages are installed for
its only Python, so none of this happens there.

Standard library only, since it runs exactly when the packages are missing.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

EXIT_CANNOT_START = 2  # lifecycle.EXIT_CANNOT_START (lifecycle itself needs the packages)
VENV = ".venv"  # the Makefile's VENV
# Set for the second run: if .venv's Python lacks the packages too, say so instead of looping.
RERUN_MARK = "CARDTABLE_RERUN_IN_VENV"
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"  # every line the bot logs

log = logging.getLogger("bot")


def venv_python(project: Path) -> Path:
    if os.name == "nt":
        return project / VENV / "Scripts" / "python.exe"
    return project / VENV / "bin" / "python"


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it (as a user would type)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _runs_in(venv: Path) -> bool:
    try:
        return Path(sys.prefix).resolve() == venv.resolve()
    except OSError:
        return False


def use_project_environment(missing: ImportError, name: str, script: str) -> None:
    """Called by bot.py when importing one of its packages failed.

    Imported as a module (``name`` is not ``"__main__"``): returns, and bot.py re-raises the
    error. Run as a program: runs it again under .venv's Python with the same arguments and
    never returns, or logs one line and exits 2.
    """
    if name != "__main__":
        return
    project = Path(script).resolve().parent
    python = venv_python(project)
    if python.is_file() and RERUN_MARK not in os.environ and not _runs_in(project / VENV):
        _run_again(python, Path(script).resolve())
    _explain(missing, project, python)


def _run_again(python: Path, script: Path) -> None:
    """Replace this process by ``python script args`` (Windows has no exec: run and wait).
    Returns only if ``python`` could not be run."""
    argv = [str(python), str(script), *sys.argv[1:]]
    env = {**os.environ, RERUN_MARK: "1"}
    try:
        if os.name == "nt":
            sys.exit(subprocess.call(argv, env=env))
        os.execve(argv[0], argv, env)
    except OSError as exc:  # not executable, another architecture...: explained next
        logging.basicConfig(format=LOG_FORMAT)
        log.warning("Cannot run %s: %s", python, exc)


def _explain(missing: ImportError, project: Path, python: Path) -> NoReturn:
    """One line: which Python lacks what, and the command that works; exit 2."""
    logging.basicConfig(format=LOG_FORMAT)
    command = shlex.join([_shown(python), _shown(Path(sys.argv[0]).absolute()), *sys.argv[1:]])
    where = "" if project == Path.cwd() else f" in {project}"
    if python.is_file():  # .venv is there but incomplete (or this is it)
        fix = f"run `make install`{where}, then `{command}`"
    else:
        fix = f"start the bot with `make run`{where}, or run `make install` once, then `{command}`"
    log.error(
        "Cannot start: %s does not have the bot's packages (%s): %s.", sys.executable, missing, fix
    )
    sys.exit(EXIT_CANNOT_START)
