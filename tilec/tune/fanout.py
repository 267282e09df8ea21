"""``tilec tune --ray [ADDRESS]``: compiling candidates on a Ray cluster's CPU workers and
measuring them on its GPU workers.

Each candidate is one Ray task (jobs.compile_candidate, one CPU: NVRTC holds it), so a
cluster compiles as many at once as it has CPUs; its package comes back as bytes. The
candidates of one kernel are measured on one GPU, by an actor that holds it
(``num_gpus=1``) and runs tilec.runtime.measure there (no MLIR, no z3 on that worker), so
that they are compared on the same chip; several ``tilec tune`` runs against one cluster
get one such actor per GPU, and Ray queues the rest. ``local`` starts a cluster on this
machine (its CPUs, and its GPUs if it has any).

    ray = connect("local")                            # or "auto", "ray://head:10001"
    built = compile_on_ray(jobs, done=print)
    results = measure_on_ray(folder, reps=20, rounds=3, budget="60s")
"""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path

from tilec.diagnostics import TilecError

from tilec.runtime.rounds import CONTENDERS

from .jobs import Job, compile_candidate


def connect(address: str):
    """The ray module, connected to the cluster at ``address`` (``local``: a new one here)."""
    try:
        import ray
    except ImportError:
        raise TilecError("--ray needs Ray on this machine: pip install 'tilec[ray]'") from None
    if not ray.is_initialized():
        _reachable(address)
        try:
            ray.init(address=None if address == "local" else address, include_dashboard=False,
                     log_to_driver=False, logging_level="ERROR")
        except (ConnectionError, ValueError, RuntimeError) as err:
            raise TilecError(f"--ray {address}: cannot reach the Ray cluster: {str(err).splitlines()[0]}") from None
    return ray


def _reachable(address: str, seconds: float = 5.0) -> None:
    """A HOST:PORT (or ray://HOST:PORT) that does not answer is an error within ``seconds``
    (ray.init itself waits for a cluster's control store without end)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if address in ("local", "auto") or not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as err:
        raise TilecError(f"--ray {address}: cannot reach the Ray cluster ({err.strerror or err})") from None


def require_gpu(ray) -> None:
    """A TilecError unless the cluster has a GPU to measure on (without one it can compile)."""
    if int(ray.cluster_resources().get("GPU", 0)) == 0:
        raise TilecError("the Ray cluster has no GPU workers to measure on; compile with --emit-candidates DIR "
                         "and run 'python -m tilec.runtime.measure DIR' on a GPU host")


def compile_on_ray(ray, jobs: list[Job], done=None) -> list[dict]:
    """Compile ``jobs`` as Ray tasks, one CPU each; ``done(n_done, result)`` as each comes back.
    Results in the order of ``jobs``."""
    task = ray.remote(num_cpus=1)(compile_candidate)
    refs = [task.remote(job) for job in jobs]
    index = {ref.hex(): n for n, ref in enumerate(refs)}
    results: list = [None] * len(jobs)
    waiting, finished = list(refs), 0
    while waiting:
        ready, waiting = ray.wait(waiting, num_returns=1)
        try:
            result = ray.get(ready[0])
        except ray.exceptions.RayError as err:
            raise TilecError(f"a Ray worker failed compiling a candidate: {str(err).splitlines()[0]}") from None
        results[index[ready[0].hex()]] = result
        finished += 1
        if done:
            done(finished, result)
    return results


class GPUMeasurer:
    """Holds one GPU of the cluster and measures folders of candidates on it (made a Ray actor
    with num_gpus=1 by measure_on_ray)."""

    def measure(self, files: dict, reps: int, rounds: int, budget: str | None, contenders: int) -> dict:
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError("this Ray worker was given a GPU but torch sees no CUDA device on it")
        from tilec.runtime.measure import measure

        with tempfile.TemporaryDirectory() as folder:
            for name, data in files.items():
                (Path(folder) / name).write_bytes(data)
            return measure(folder, reps, rounds, budget, contenders)


def measure_on_ray(ray, folder: str | Path, reps: int, rounds: int, budget: str | None,
                   contenders: int = CONTENDERS) -> dict:
    """Measure the candidates in ``folder`` (candidates.json and its packages) on one GPU of the
    cluster: the results tilec.runtime.measure writes."""
    require_gpu(ray)
    folder = Path(folder)
    files = {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix in (".json", ".tkp") and
             p.name != "results.json"}
    actor = ray.remote(num_gpus=1)(GPUMeasurer).remote()
    try:
        return ray.get(actor.measure.remote(files, reps, rounds, budget, contenders))
    except ray.exceptions.RayError as err:
        lines = [line for line in str(err).splitlines() if line.strip()]
        raise TilecError(f"measuring on the Ray cluster failed: {lines[-1] if lines else err}") from None
    finally:
        ray.kill(actor)
