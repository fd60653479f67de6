"""What :func:`launch_workers` returns: a :class:`ClusterRun` with one :class:`WorkerRecord` per
worker."""

import dataclasses


@dataclasses.dataclass
class WorkerRecord:
    """What one worker did: its task, exit status, result JSON and filtered log lines."""

    index: int
    address: str
    tf_config: dict
    command: list
    returncode: int | None = None
    result: dict | None = None
    log: list = dataclasses.field(default_factory=list)
    restarts: int = 0


@dataclasses.dataclass
class ClusterRun:
    """The record of one :func:`launch_workers` call.

    ``workers[i].result`` is the dict worker i passed to :func:`write_result`; ``events`` lists
    what happened in order (``{"t": seconds, "event": ..., "worker": i, "detail": ...}``: started,
    resumed, killed, peer failed, peer stuck, restarted, finished); ``resumed_from`` is the epoch
    training resumed from after a restart (None without one); ``attempts`` counts cluster starts.
    """

    cluster: dict
    workers: list
    events: list = dataclasses.field(default_factory=list)
    attempts: int = 0
    resumed_from: int | None = None
    seconds: float = 0.0
    workdir: str = ""

    @property
    def results(self):
        """Each worker's result dict (None for a worker that wrote none), by worker index."""
        return [w.result for w in self.workers]

    def __str__(self):
        lines = [f"{len(self.workers)} workers, {self.attempts} start(s), {self.seconds:.1f} s"]
        for w in self.workers:
            status = "not started" if w.returncode is None else f"exit {w.returncode}"
            lines.append(f"  worker {w.index} {w.address}: {status}, {w.restarts} restart(s)")
        lines += [f"  {e['t']:6.1f} s  {e['event']}: {e['detail']}" for e in self.events]
        return "\n".join(lines)
