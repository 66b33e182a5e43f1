"""Who holds a claim in the store, and when its holder is provably gone.

A process names itself in the claims it takes (``Announcer.claimed``) with an owner that says where
it runs and which start it is: its host (the host name and the process-id namespace, so that a
process id means the same process on both sides), its process id, the shards it serves (its
*scope*), the number of its start among the processes of that scope (a generation counted in the
store), and a random part. A starting process takes at once the claims of a predecessor that is
provably gone, instead of waiting out their lease:

- on the same host, a process id that no longer runs, or that is this process's own (a restarted
  container is often process 1 again): process ids are unique among the processes alive on a host;
- in the same scope, an earlier generation: one process serves a set of shards at a time, so the
  process that starts for them replaces the one before;
- and, for a bot that runs unsharded (one process in all), any claim found at start-up.

Anything else (a claim of a live process, of another scope on another host, written by an older
version of the bot) lapses with its lease.

A game's posts (handover posts and edits, catch-ups, reminders, the deadline's notice) are made under the
game's claim: a row of ``claims`` (``game:<id>``, the owning process, an expiry) written by one statement that
succeeds only when the row is free, expired or already the process's own (``Store.claim``, ``Store.release``).
The announcer takes it around each announcement (``Announcer.claimed``), renews it every third of its lease
while the work lasts (a board slow to draw, a post Discord holds), checks it once more just before posting (in
the store when it was last taken more than half a lease ago: a process stalled that long may have lost it),
and releases it when done. A process that finds the claim taken leaves the game alone: the holder reads the
store again before it lets go, and whatever is still unannounced is picked up by the next tick's catch-up, by
any process. A reminder and a deadline's policy are written under the claim too, so that their writes never
fall between another process's post and the record of it (which would make that process post again).

The lease (``LEASE_SECONDS``, 60 s) is how long a claim outlives a process that stops renewing it and that
nothing proves gone, read on the database's clock so that the processes' clocks need not agree. The generation
is counted in the store's ``meta`` (``Store.next_generation``); the claims of predecessors provably gone are
taken at start-up, before the first tick (``Announcer.take_over``), and a clean stop gives up all its claims
(``Announcer.release_all``). A SQLite file serves one process, so its claims are cleared when it is opened.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass

ALL_SHARDS = "all"
"""The scope of a bot that runs unsharded: one process serves every server."""


def shard_scope(count: int | None, ids: Sequence[int] | None) -> str:
    """The scope of a process running ``ids`` (all when None) of ``count`` shards (unsharded: None)."""
    if count is None:
        return ALL_SHARDS
    shards = sorted(ids) if ids is not None else range(count)
    return f"{','.join(map(str, shards))}/{count}"


def this_host() -> str:
    """The host name, with the process-id namespace where the system tells it (Linux): two containers
    may share a host name (host networking) but never a namespace in which their ids mean the same."""
    namespace = ""
    with contextlib.suppress(OSError):
        namespace = os.readlink("/proc/self/ns/pid").removeprefix("pid:").strip("[]")
    name = socket.gethostname() or "localhost"
    return f"{name}@{namespace}" if namespace else name


@dataclass(frozen=True)
class Owner:
    """A process as it names itself in its claims (``str``), read back by ``parse``."""

    host: str
    pid: int
    scope: str = ALL_SHARDS
    generation: int = 0
    token: str = ""

    def __str__(self) -> str:
        return f"{self.host} {self.pid} {self.scope} {self.generation} {self.token}"

    @classmethod
    def parse(cls, text: str) -> Owner | None:
        """The owner a claim names; None for a name this version does not write (an older bot's)."""
        parts = text.split(" ")
        if len(parts) != 5 or not parts[1].isdigit() or not parts[3].isdigit():
            return None
        return cls(parts[0], int(parts[1]), parts[2], int(parts[3]), parts[4])

    @classmethod
    def here(cls, scope: str = ALL_SHARDS, generation: int = 0) -> Owner:
        """This process, at its ``generation`` among the starts of ``scope``."""
        return cls(this_host(), os.getpid(), scope, generation, secrets.token_hex(4))

    def replaces(self, other: Owner) -> bool:
        """Whether ``other`` (another owner than this one) is provably gone, seen from this process."""
        if other == self:
            return False
        if other.host == self.host and (other.pid == self.pid or not running(other.pid)):
            return True
        return other.scope == self.scope and other.generation < self.generation


def running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (one of another user counts: it runs)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def stale(found: Sequence[str], me: Owner, *, sole: bool) -> list[str]:
    """Of the claim owners ``found`` in the store, those this starting process may take over at once:
    all but itself when it is the ``sole`` process of the bot, else those provably gone."""
    mine = str(me)
    gone = []
    for text in found:
        if text == mine:
            continue
        other = Owner.parse(text)
        if sole or (other is not None and me.replaces(other)):
            gone.append(text)
    return gone
