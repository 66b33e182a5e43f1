"""The PostgreSQL server a test run starts is gone when the run ends, however it ends.

Each case runs a child pytest on a tiny test file that takes the suite's ``postgres`` fixture
(``tests/conftest.py``), writes down the server's process id and data folder, and then passes,
fails, or blocks until the parent interrupts it with Ctrl-C (SIGINT) or SIGTERM, as a developer or
a CI runner would. Once the child has exited, no process of that server may remain and its data
folder must be gone. Waits are for what the child wrote and for its exit, with a generous limit
that only catches a hang.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
HANG_LIMIT = 120.0

CHILD_TEST = """
import json
import os
import time
from pathlib import Path


def test_holds_the_server(postgres):
    record = {"pid": postgres.pid, "data_dir": str(postgres.data_dir)}
    Path(os.environ["SERVER_RECORD"]).write_text(json.dumps(record))
    ending = os.environ["CHILD_ENDING"]
    if ending == "fail":
        raise AssertionError("this test fails on purpose")
    if ending == "block":
        while True:
            time.sleep(1)
"""


def server_processes(pid: int, data_dir: str) -> list[psutil.Process]:
    """The server's processes still running: its postmaster, or anything serving its data folder."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        if proc.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        cmdline = " ".join(proc.info["cmdline"] or [])
        if proc.info["pid"] == pid or data_dir in cmdline:
            found.append(proc)
    return found


def wait_for(path: Path, child: subprocess.Popen[bytes]) -> dict[str, object]:
    """What the child's test wrote, once it is written (the server is then running)."""
    deadline = time.monotonic() + HANG_LIMIT
    while time.monotonic() < deadline:
        if path.exists() and path.read_text():
            record: dict[str, object] = json.loads(path.read_text())
            return record
        if child.poll() is not None:
            break
        time.sleep(0.05)
    child.kill()
    output = child.communicate()[0].decode(errors="replace")
    raise AssertionError(f"the child run never reported its server:\n{output}")


ENDINGS: dict[str, tuple[str, int | None]] = {
    "passed": ("pass", None),
    "failed": ("fail", None),
    "ctrl-c": ("block", signal.SIGINT),
    "sigterm": ("block", signal.SIGTERM),
}
"""How each child run ends: what its test does, then the signal the parent sends it (if any)."""
EXIT_CODES = {"passed": 0, "failed": 1, "ctrl-c": 2, "sigterm": 2}
"""pytest's exit status for each ending (2: an interrupted run)."""


def start_child(folder: Path, ending: str) -> subprocess.Popen[bytes]:
    folder.mkdir()
    (folder / "test_child.py").write_text(CHILD_TEST)
    env = {
        **os.environ,
        "SERVER_RECORD": str(folder / "server.json"),
        "CHILD_ENDING": ending,
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(folder),
            "--basetemp",
            str(folder / "base"),
            str(folder / "test_child.py"),
        ],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=_interruptible,
    )


def _interruptible() -> None:
    """Give the child run Ctrl-C as a terminal would. A parallel test worker (pytest-xdist) ignores
    SIGINT, children inherit an ignored signal, and Python only turns SIGINT into KeyboardInterrupt
    when it starts with the default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_the_server_stops_however_the_run_ends(tmp_path: Path) -> None:
    """The four runs go side by side: each server takes seconds to start and to stop."""
    children = {name: start_child(tmp_path / name, ending) for name, (ending, _sig) in ENDINGS.items()}
    outputs: dict[str, str] = {}
    records: dict[str, dict[str, object]] = {}
    try:
        for name, child in children.items():
            records[name] = wait_for(tmp_path / name / "server.json", child)
        for name, (_ending, sig) in ENDINGS.items():
            if sig is not None:
                children[name].send_signal(sig)
        for name, child in children.items():
            outputs[name] = child.communicate(timeout=HANG_LIMIT)[0].decode(errors="replace")
    finally:
        for child in children.values():
            if child.poll() is None:
                child.kill()
                child.wait()
    for name, child in children.items():
        pid, data_dir = int(str(records[name]["pid"])), str(records[name]["data_dir"])
        assert server_processes(pid, data_dir) == [], f"{name}: the server still runs\n{outputs[name]}"
        assert not Path(data_dir).exists(), f"{name}: the server's data is left\n{outputs[name]}"
        assert child.returncode == EXIT_CODES[name], f"{name}: exit {child.returncode}\n{outputs[name]}"
