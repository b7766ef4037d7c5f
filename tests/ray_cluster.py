"""A real two-node Ray cluster on this machine, for the Ray tests and benchmarks.

``make test-ray`` and CI run ``python -m tests.ray_cluster -- COMMAND ...``: it starts the
cluster, runs COMMAND with ``RAY_ADDRESS`` (and the cluster's token) in its environment,
and stops the cluster again, also when COMMAND fails or the run is interrupted.  The Ray
tests start the same cluster themselves when ``RAY_ADDRESS`` is not set
(``TwoNodeCluster`` as a context manager).

The cluster is two ``ray start --block`` processes, each with a raylet of its own, so
tasks really cross nodes: a head (``--head --num-cpus=1``) and a second node
(``--address=HEAD --num-cpus=1``).  Several Rays share this machine (other checkouts,
other users), so everything is private to one cluster:

- every port a node opens (GCS, node manager, object manager, the dashboard agent's two,
  the runtime-env agent, metrics, the head's minimal dashboard) is one the system just
  handed out as free; workers take free ports of their own;
- a temporary directory of its own (short: Ray's Unix socket paths must fit in 107
  bytes), also as ``RAY_TMPDIR``, so that no ``/tmp/ray/ray_current_cluster`` file points
  another ``ray.init()`` on this machine at this cluster;
- a token of its own (``RAY_AUTH_MODE=token``, ``RAY_AUTH_TOKEN``), never the user's
  ``~/.ray/auth_token``: only this run can use the cluster;
- no dashboard, no usage stats.

Each ``ray start --block`` runs in a session of its own and is stopped by its process
group id (SIGTERM, then SIGKILL after a grace period), never with ``ray stop``, which
would stop every Ray on the machine.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

#: Seconds to wait for a node to come up, and for a stopped node to go.
START_SECONDS = 120
STOP_SECONDS = 20
_READY = "This command will now block forever"


def _free_ports(count: int) -> list[int]:
    """``count`` distinct ports that are free right now (held open until all are chosen)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _node_ports(ports: list[int]) -> list[str]:
    names = ["--node-manager-port", "--object-manager-port", "--dashboard-agent-listen-port",
             "--dashboard-agent-grpc-port", "--runtime-env-agent-port",
             "--metrics-export-port"]
    return [f"{name}={port}" for name, port in zip(names, ports, strict=True)]


class TwoNodeCluster:
    """Start a head and a second node (1 CPU each) on entry, stop both on exit.

    ``address`` is the head's GCS address and ``env`` the variables a driver needs
    (``RAY_ADDRESS``, ``RAY_AUTH_MODE``, ``RAY_AUTH_TOKEN``).
    """

    def __init__(self, ray: str | None = None) -> None:
        found = ray or shutil.which("ray", path=str(Path(sys.executable).parent))
        if found is None:
            raise RuntimeError("no `ray` command beside this Python: pip install 'boardcore[ray]'")
        self.ray = found
        self.procs: list[subprocess.Popen[bytes]] = []
        self.address = ""
        self.env: dict[str, str] = {}
        self.dir = ""

    def __enter__(self) -> TwoNodeCluster:
        self.dir = tempfile.mkdtemp(prefix="bcray-", dir="/tmp" if os.name == "posix" else None)
        token = secrets.token_hex(32)
        base = {**os.environ, "RAY_TMPDIR": self.dir, "RAY_AUTH_MODE": "token",
                "RAY_AUTH_TOKEN": token, "RAY_USAGE_STATS_ENABLED": "0"}
        base.pop("RAY_ADDRESS", None)
        ports = _free_ports(14)
        host = socket.gethostbyname(socket.gethostname())
        try:
            # The head still runs a minimal dashboard process (usage stats): its port too.
            self._start("head", base, ["--head", f"--port={ports[0]}",
                                       "--include-dashboard=false",
                                       f"--dashboard-port={ports[13]}",
                                       *_node_ports(ports[1:7])])
            self.address = f"{host}:{ports[0]}"
            self._start("node", base, [f"--address={self.address}", *_node_ports(ports[7:13])])
        except BaseException:
            self.stop()
            raise
        self.env = {"RAY_ADDRESS": self.address, "RAY_AUTH_MODE": "token",
                    "RAY_AUTH_TOKEN": token}
        return self

    def _start(self, name: str, env: dict[str, str], args: list[str]) -> None:
        log_path = Path(self.dir) / f"{name}.log"
        with log_path.open("wb") as log:
            proc = subprocess.Popen(
                [self.ray, "start", "--block", "--num-cpus=1", "--disable-usage-stats",
                 f"--temp-dir={Path(self.dir) / name}", *args],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        self.procs.append(proc)
        end = time.monotonic() + START_SECONDS
        while time.monotonic() < end:
            text = log_path.read_text(errors="replace")
            if _READY in text:
                return
            if proc.poll() is not None:
                break
            time.sleep(0.5)
        tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-20:])
        raise RuntimeError(f"the Ray {name} did not start (exit {proc.poll()}):\n{tail}")

    def stop(self) -> None:
        """Stop both nodes (each ``ray start`` process group), remove the directory."""
        for sig, wait in ((signal.SIGTERM, STOP_SECONDS), (signal.SIGKILL, 5)):
            alive = [p for p in self.procs if p.poll() is None or _group_alive(p.pid)]
            for proc in reversed(alive):
                _signal_group(proc.pid, sig)
            end = time.monotonic() + wait
            while alive and time.monotonic() < end:
                alive = [p for p in alive if p.poll() is None or _group_alive(p.pid)]
                time.sleep(0.2)
        self.procs.clear()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    """``python -m tests.ray_cluster -- COMMAND ...``: COMMAND's exit code."""
    command = argv[1:] if argv[:1] == ["--"] else argv
    if not command:
        print("usage: python -m tests.ray_cluster -- COMMAND ...", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _terminated)   # a killed make still stops the cluster
    with TwoNodeCluster() as cluster:
        print(f"ray_cluster: two nodes at {cluster.address}", file=sys.stderr, flush=True)
        proc = subprocess.Popen(command, env={**os.environ, **cluster.env})
        try:
            return proc.wait()
        finally:
            if proc.poll() is None:       # stopped ourselves: the command stops first
                proc.terminate()
                try:
                    proc.wait(timeout=STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
