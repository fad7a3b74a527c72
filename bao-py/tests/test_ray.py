"""The Ray driver (bao_zero.ray_train): the same run as `bao train`, on one node or two, through
killed workers, a raising worker and a killed driver; the asynchronous mode.

Needs `ray` (skipped without it unless CI is set) and, for the comparisons with `bao train`, the
binary named by BAO_BIN (without it, outside CI, the Ray driver's own one-worker run is the
reference).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import tomllib

if os.environ.get("CI"):
    import ray
else:
    ray = pytest.importorskip(
        "ray", reason="ray is not installed (pip install ray); these tests need it"
    )

import bao_zero
from bao_zero import ray_train
from conftest import ROOT
from toml_writer import to_toml

SMOKE = ROOT / "configs" / "smoke.toml"
BAO_BIN = os.environ.get("BAO_BIN")
LOCAL_OPTIONS: dict[str, Any] = dict(
    include_dashboard=False,
    log_to_driver=False,
    configure_logging=False,
    object_store_memory=128 * 2**20,
)


# --- helpers ------------------------------------------------------------------------------------


def write_config(path: Path, **changes: Any) -> Path:
    """The smoke config with one self-play thread (so `bao train` plays what the workers play) and
    `changes` ("section.key": value) applied."""
    data = tomllib.loads(SMOKE.read_text())
    data["selfplay"]["threads"] = 1
    for key, value in changes.items():
        *tables, last = key.split(".")
        node = data
        for t in tables:
            node = node.setdefault(t, {})
        node[last] = value
    path.write_text(to_toml(data))
    assert tomllib.loads(path.read_text()) == data
    return path


def run_files(run: Path) -> dict[str, Any]:
    """What must be the same bit for bit between two runs: the replay files' bytes and each
    iteration's network tensors (a model file's bytes also hold random parameter ids)."""
    files: dict[str, Any] = {
        str(f.relative_to(run)): f.read_bytes() for f in sorted(run.glob("replay-*.bin"))
    }
    for model in sorted(run.glob("iter-*/model.bpk")):
        tensors = bao_zero.network_tensors(model)
        files[str(model.relative_to(run))] = {k: v.tobytes() for k, v in tensors.items()}
    return files


def assert_same_run(run: Path, reference: Path) -> None:
    got, want = run_files(run), run_files(reference)
    assert want, f"{reference} holds no replay or model files"
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], f"{name} differs from {reference / name}"
    assert meta(run) == meta(reference)


def meta(run: Path) -> dict[str, Any]:
    return json.loads((run / "meta.json").read_text())


def metric_lines(run: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in (run / "metrics.jsonl").read_text().splitlines()
        if line.strip()
    ]


def need_bao() -> str:
    if BAO_BIN:
        return BAO_BIN
    if os.environ.get("CI"):
        pytest.fail("BAO_BIN (the bao binary) must be set under CI")
    pytest.skip("BAO_BIN is not set")


class RayHolder:
    """One Ray at a time for the whole module: a local one (2 CPUs) or a two-node cluster."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.cluster: Any = None

    def local(self) -> None:
        if self.kind != "local":
            self.shutdown()
            ray.init(address="local", num_cpus=2, **LOCAL_OPTIONS)
            self.kind = "local"

    def two_nodes(self) -> list[str]:
        from ray.cluster_utils import Cluster

        if self.kind != "cluster":
            self.shutdown()
            node = {"num_cpus": 1, "object_store_memory": 100 * 2**20}
            self.cluster = Cluster(
                initialize_head=True, head_node_args={**node, "include_dashboard": False}
            )
            self.cluster.add_node(**node)
            ray.init(address=self.cluster.address, log_to_driver=False, configure_logging=False)
            self.cluster.wait_for_nodes()
            self.kind = "cluster"
        return [n["NodeID"] for n in ray.nodes() if n["Alive"]]

    def shutdown(self) -> None:
        if ray.is_initialized():
            ray.shutdown()
        if self.cluster is not None:
            self.cluster.shutdown()
            self.cluster = None
        self.kind = None


@pytest.fixture(scope="module")
def rays():
    holder = RayHolder()
    yield holder
    holder.shutdown()


@pytest.fixture
def local_ray(rays: RayHolder) -> RayHolder:
    rays.local()
    return rays


@pytest.fixture(scope="module")
def sync_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_config(tmp_path_factory.mktemp("config") / "sync.toml")


@pytest.fixture(scope="module")
def reference(sync_config: Path, tmp_path_factory: pytest.TempPathFactory, rays: RayHolder) -> Path:
    """The run of `bao train` (or, without BAO_BIN outside CI, of one Ray worker playing whole
    iterations)."""
    run = tmp_path_factory.mktemp("reference") / "run"
    if BAO_BIN:
        subprocess.run(
            [BAO_BIN, "train", "--config", str(sync_config), "--run-dir", str(run), "--quiet"],
            check=True,
            timeout=300,
        )
    elif os.environ.get("CI"):
        pytest.fail("BAO_BIN (the bao binary) must be set under CI")
    else:
        rays.local()
        ray_train.train(str(sync_config), run_dir=str(run), workers=1, chunk=10**6, quiet=True)
    assert meta(run)["iteration"] == 2
    return run


# --- (a) the smoke run end to end, then extended by bao train ------------------------------------


def test_smoke_run_on_a_local_ray_then_extended_by_bao_train(
    local_ray: RayHolder, tmp_path: Path
) -> None:
    run = tmp_path / "smoke"
    seen: list[dict[str, Any]] = []
    summary = ray_train.train(
        str(SMOKE), run_dir=str(run), workers=2, quiet=True, hooks={"on_iteration": seen.append}
    )
    assert summary["iterations"] == 2 and summary["last_iteration"] == 2 and summary["games"] == 16
    assert len(metric_lines(run)) == 2 and [m["iteration"] for m in seen] == [1, 2]
    assert meta(run)["iteration"] == 2
    # Run again: complete, nothing to do.
    assert ray_train.train(str(SMOKE), run_dir=str(run), quiet=True)["iterations"] == 0
    assert any((run / "tb").iterdir()), "TensorBoard's event files"
    bao = need_bao()
    # The run directory is bao's: charts, a player file, and training on from where Ray stopped.
    subprocess.run([bao, "plot", str(run)], check=True, timeout=120, capture_output=True)
    assert (run / "plots" / "losses.png").is_file()
    player = tmp_path / "player.bao"
    subprocess.run([bao, "export", "--checkpoint", str(run), "--out", str(player)],
                   check=True, timeout=120, capture_output=True)  # fmt: skip
    assert bao_zero.Player.load(player).choose(bao_zero.Env("kiswahili")).move
    subprocess.run(
        [bao, "train", "--resume", str(run), "--extend-to", "3", "--quiet"], check=True, timeout=300
    )
    assert meta(run)["iteration"] == 3 and len(metric_lines(run)) == 3


# --- (b) synchronous runs equal bao train's, whoever plays what ---------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_sync_run_is_bao_trains(
    local_ray: RayHolder, sync_config: Path, reference: Path, tmp_path: Path, workers: int
) -> None:
    run = tmp_path / "run"
    summary = ray_train.train(
        str(sync_config), run_dir=str(run), workers=workers, chunk=1, quiet=True
    )
    assert summary["mean_staleness"] == 0 and summary["replayed_chunks"] == 0
    assert_same_run(run, reference)
    assert len(metric_lines(run)) == 2


# --- (d) killed workers: their games are played again, the run is the same ----------------------


@pytest.mark.parametrize("how", ["ray_kill", "sigkill"])
def test_killed_worker_changes_nothing(
    local_ray: RayHolder,
    sync_config: Path,
    reference: Path,
    tmp_path: Path,
    how: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    # The kill races the chunks it aims at: one that finishes first is not played again. Each
    # attempt must train the same run; at least one must have caught a chunk in flight.
    replayed = 0
    for attempt in range(KILL_ATTEMPTS):
        killed: list[int] = []

        def after_dispatch(iteration: int, workers: list[ray_train.WorkerInfo]) -> None:
            if iteration == 2 and not killed:
                victim = workers[0]
                killed.append(victim.pid)
                if how == "ray_kill":
                    ray.kill(victim.actor, no_restart=False)
                else:
                    os.kill(victim.pid, signal.SIGKILL)

        run = tmp_path / f"run{attempt}"
        summary = ray_train.train(
            str(sync_config),
            run_dir=str(run),
            workers=2,
            chunk=4,
            quiet=True,
            hooks={"after_dispatch": after_dispatch},
        )
        assert killed
        assert_same_run(run, reference)
        replayed = summary["replayed_chunks"]
        if replayed >= 1:
            assert "worker 0 died (" in capfd.readouterr().err
            break
    assert replayed >= 1, f"no kill of {KILL_ATTEMPTS} caught a chunk in flight"


KILL_ATTEMPTS = 5


# --- (e) a raising worker stops the run with one line -------------------------------------------


def test_raising_worker_stops_the_run_with_one_line(
    local_ray: RayHolder, sync_config: Path, tmp_path: Path
) -> None:
    def corrupt(version: int, weights: bytes) -> bytes:
        return weights[: len(weights) // 2] if version == 1 else weights

    started = time.monotonic()
    with pytest.raises(ray_train.RayTrainError) as caught:
        ray_train.train(
            str(sync_config),
            run_dir=str(tmp_path / "run"),
            workers=2,
            quiet=True,
            hooks={"weights": corrupt},
        )
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("worker ") and "of iteration 2" in message and "games " in message
    assert "ValueError" in message
    assert time.monotonic() - started < 120
    assert meta(tmp_path / "run")["iteration"] == 1  # iteration 1 stays complete: resumable


def test_cli_error_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bao_zero.ray_train",
            "--config",
            str(tmp_path / "missing.toml"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1, (
        done.stderr
    )
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("seed", ["-1", str(2**64)])
def test_cli_bad_seed_is_one_line(seed: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bao_zero.ray_train", "--seed", seed, "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"error: seed must be 0 to 2**64 - 1, not {seed}\n", done.stderr


# --- (h) the evaluation knows every player kind the command line knows --------------------------


def test_network_opponents_evaluate_as_bao_trains(
    local_ray: RayHolder, tmp_path: Path, shipped_player_path: Path
) -> None:
    # The Ray workers work in this process's folder, as `bao train` below does: a relative path.
    opponents = ["mcts:sims=8", f"player:{os.path.relpath(shipped_player_path)}"]
    config = write_config(tmp_path / "opponents.toml", **{"eval.opponents": opponents})
    run, reference = tmp_path / "ray", tmp_path / "bao"
    ray_train.train(str(config), run_dir=str(run), workers=1, chunk=10**6, quiet=True)
    subprocess.run(
        [need_bao(), "train", "--config", str(config), "--run-dir", str(reference), "--quiet"],
        check=True,
        timeout=300,
    )
    assert_same_run(run, reference)
    evals = [[m["eval"] for m in metric_lines(r)] for r in (run, reference)]
    assert evals[0] == evals[1]
    assert [e["opponent"] for e in evals[0][-1]] == opponents, evals[0][-1]
    games = "games/eval-0002.kiba"
    assert (run / games).read_text() == (reference / games).read_text()


# --- (f) a killed driver: the same command resumes ------------------------------------------------


def _kill_group(proc: subprocess.Popen) -> None:
    try:  # the Ray processes the driver started (same session) linger a while otherwise
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def test_killed_driver_resumes(sync_config: Path, reference: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    command = [
        sys.executable, "-m", "bao_zero.ray_train", "--config", str(sync_config),
        "--run-dir", str(run), "--workers", "2", "--quiet",
    ]  # fmt: skip
    first = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 180
        while not ((run / "meta.json").is_file() and meta(run)["iteration"] >= 1):
            assert first.poll() is None, f"the driver ended early: {first.stderr.read().decode()}"
            assert time.monotonic() < deadline, "iteration 1 was not committed in time"
            time.sleep(0.02)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        _kill_group(first)
        first.stderr.close()
    second = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        _, err = second.communicate(timeout=300)
        assert second.returncode == 0, err.decode()
    finally:
        _kill_group(second)
    assert_same_run(run, reference)


# --- (g) asynchronous mode -----------------------------------------------------------------------


def test_async_run_respects_max_staleness(local_ray: RayHolder, tmp_path: Path) -> None:
    config = write_config(tmp_path / "async.toml", iterations=3)
    run = tmp_path / "run"
    summary = ray_train.train(
        str(config), run_dir=str(run), workers=2, chunk=1, mode="async", max_staleness=1, quiet=True
    )
    assert (
        summary["iterations"] == 3 and meta(run)["iteration"] == 3 and len(metric_lines(run)) == 3
    )
    assert 0 <= summary["mean_staleness"] <= summary["max_staleness"] <= 1
    with pytest.raises(ValueError):
        ray_train.train(str(config), run_dir=str(tmp_path / "x"), mode="later")


# --- (c) two nodes (last: it replaces the local Ray) ---------------------------------------------


def test_two_node_cluster_run_is_bao_trains(
    rays: RayHolder, sync_config: Path, reference: Path, tmp_path: Path
) -> None:
    nodes = rays.two_nodes()
    assert len(nodes) == 2
    run = tmp_path / "run"
    summary = ray_train.train(str(sync_config), run_dir=str(run), workers=2, chunk=1, quiet=True)
    assert sorted(summary["worker_nodes"]) == sorted(nodes)
    assert_same_run(run, reference)


# --- (i) the cluster recipe of docs/RAY.md, with token authentication -----------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill_sessions(sessions: list[int]) -> None:
    """Ends every process of the sessions the test started (`ray start` and all it spawned): what
    `ray stop` does for a machine's own Ray, without touching any other Ray on this machine."""
    for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        deadline = time.monotonic() + wait
        while True:
            pids = []
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[3]) in sessions and fields[0] != "Z":
                    pids.append(int(stat.parent.name))
            if not pids or time.monotonic() > deadline:
                break
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            time.sleep(0.5)
    assert not pids, f"Ray processes {pids} outlived SIGKILL"


@pytest.mark.skipif(sys.platform != "linux", reason="finds the test's Ray processes in /proc")
def test_cluster_recipe_with_token_authentication(
    sync_config: Path, reference: Path, tmp_path: Path
) -> None:
    """docs/RAY.md's commands, on this machine: the head makes the token, a second node and the
    driver get a copy of it, all three with RAY_AUTH_MODE=token; each machine's own home folder
    holds its copy. Two nodes on one machine need their own ports (the flags after the recipe's)."""
    import shutil
    import tempfile

    ray_cli = str(Path(sys.executable).parent / "ray")
    # A short folder: Ray's sockets live under its temp dir, and socket paths are short.
    base = Path(tempfile.mkdtemp(prefix="bao-ray-"))
    homes = {name: base / name for name in ("head", "node", "driver")}
    for home in homes.values():
        home.mkdir()
    port = _free_port()
    sessions: list[int] = []
    one_machine = ["--node-ip-address", "127.0.0.1", "--num-cpus", "1",
                   "--object-store-memory", str(100 * 2**20), "--disable-usage-stats"]  # fmt: skip

    def env(machine: str) -> dict[str, str]:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        return {**clean, "HOME": str(homes[machine]), "RAY_AUTH_MODE": "token"}

    def run(machine: str, *command: str) -> subprocess.CompletedProcess[str]:
        proc = subprocess.Popen(command, env=env(machine), start_new_session=True, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
        sessions.append(proc.pid)
        out, _ = proc.communicate(timeout=240)
        assert proc.returncode == 0, f"{' '.join(command[:3])} failed: {out[-3000:]}"
        return subprocess.CompletedProcess(command, proc.returncode, out)

    try:
        # On the head: the token (in ~/.ray/auth_token), then the head node.
        run("head", ray_cli, "get-auth-token", "--generate")
        token = homes["head"] / ".ray" / "auth_token"
        assert token.is_file() and token.read_text().strip()
        token.chmod(0o600)
        run("head", ray_cli, "start", "--head", "--port", str(port), *one_machine,
            "--include-dashboard", "false", "--temp-dir", str(base / "tmp"),
            "--dashboard-agent-listen-port", str(_free_port()))  # fmt: skip
        # The token goes to the other machines (scp in the recipe), which then join.
        for machine in ("node", "driver"):
            (homes[machine] / ".ray").mkdir(mode=0o700)
            shutil.copy(token, homes[machine] / ".ray" / "auth_token")
        run("node", ray_cli, "start", "--address", f"127.0.0.1:{port}", *one_machine,
            "--dashboard-agent-listen-port", str(_free_port()))  # fmt: skip
        run_dir = tmp_path / "run"
        done = run("driver", sys.executable, "-m", "bao_zero.ray_train",
                   "--config", str(sync_config), "--run-dir", str(run_dir),
                   "--address", f"127.0.0.1:{port}", "--workers", "2", "--chunk", "1")  # fmt: skip
        assert "on 2 workers, 2 nodes" in done.stdout, done.stdout[-2000:]
        assert_same_run(run_dir, reference)
    finally:
        _kill_sessions(sessions)
        shutil.rmtree(base, ignore_errors=True)
