"""TF_CONFIG: the environment variable that tells each process of a multi-worker job the whole
cluster (``"cluster"``) and which task it is (``"task"``)::

    {"cluster": {"worker": ["10.0.0.1:12345", "10.0.0.2:12345"]},
     "task": {"type": "worker", "index": 0}}

:class:`ClusterSpec` checks a cluster description and :func:`tf_config` builds the value for one
task, with a clear :class:`TFConfigError` for anything TF_CONFIG cannot express.
Importing this module does not import TensorFlow.
"""

import json

import portpicker

TASK_TYPES = ("chief", "worker", "ps", "evaluator")

_LOOPBACK_NAMES = {"localhost": "127.0.0.1", "::1": "127.0.0.1", "[::1]": "127.0.0.1"}


class TFConfigError(ValueError):
    """A cluster or task description that TF_CONFIG cannot express."""


def split_address(address):
    """Return (host, port) of a "host:port" string, or raise TFConfigError."""
    if not isinstance(address, str) or ":" not in address:
        raise TFConfigError(
            f"{address!r} is not a 'host:port' address (e.g. 'localhost:12345' or '10.0.0.1:2222')"
        )
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise TFConfigError(
            f"{address!r} is not a 'host:port' address with a port between 1 and 65535"
        )
    return host, int(port)


def _same_machine_key(address):
    host, port = split_address(address)
    host = host.lower()
    return _LOOPBACK_NAMES.get(host, host), port


def free_ports(n):
    """Return ``n`` distinct TCP ports that were free a moment ago (portpicker, as TF's tutorials use)."""
    ports = set()
    while len(ports) < n:
        ports.add(portpicker.pick_unused_port())
    return sorted(ports)


class ClusterSpec:
    """A checked cluster description: task type -> list of ``"host:port"`` addresses.

    ``ClusterSpec({"worker": ["localhost:2222", "localhost:2223"]})`` raises
    :class:`TFConfigError` with a clear message for unknown task types, malformed or duplicate
    addresses, more than one chief or evaluator, and a parameter-server cluster without a chief
    (its coordinator) or without workers. ``print(spec)`` explains the cluster task by task;
    ``spec.tf_config("worker", 1)`` is the TF_CONFIG dict of one task.
    """

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TFConfigError(
                "a cluster is a dict of task type -> list of 'host:port', "
                f"not {type(cluster).__name__}"
            )
        self._jobs = {}
        seen = {}
        for task_type in TASK_TYPES:  # a fixed order makes printing and TF_CONFIG stable
            if task_type not in cluster:
                continue
            addresses = cluster[task_type]
            if isinstance(addresses, str) or not isinstance(addresses, (list, tuple)):
                raise TFConfigError(
                    f"cluster[{task_type!r}] must be a list of 'host:port' strings, "
                    f"got {addresses!r}"
                )
            if not addresses:
                raise TFConfigError(
                    f"cluster[{task_type!r}] is empty: leave the task type out instead"
                )
            for index, address in enumerate(addresses):
                key = _same_machine_key(address)
                if key in seen:
                    raise TFConfigError(
                        f"address {address} is used by both {seen[key]} and {task_type} {index}: "
                        "every task needs its own host:port"
                    )
                seen[key] = f"{task_type} {index}"
            self._jobs[task_type] = list(addresses)
        unknown = sorted(set(cluster) - set(TASK_TYPES))
        if unknown:
            raise TFConfigError(
                f"unknown task type {unknown[0]!r} in the cluster; "
                f"TF_CONFIG knows {', '.join(TASK_TYPES)}"
            )
        for single in ("chief", "evaluator"):
            if len(self._jobs.get(single, [])) > 1:
                raise TFConfigError(
                    f"a cluster has at most one {single}, got {len(self._jobs[single])}"
                )
        if "ps" in self._jobs and "chief" not in self._jobs:
            raise TFConfigError(
                "a parameter-server cluster needs a 'chief' task: "
                "the coordinator that runs the training loop"
            )
        if "ps" in self._jobs and "worker" not in self._jobs:
            raise TFConfigError(
                "a parameter-server cluster needs at least one 'worker' to run the steps"
            )
        if not {"chief", "worker"} & set(self._jobs):
            raise TFConfigError("a cluster needs at least one 'worker' or a 'chief' to train")

    @classmethod
    def local(cls, workers=2, ps=0, chief=False, host="localhost"):
        """Return a cluster on free ports of this machine: workers, ps and, if asked, a chief."""
        counts = {"chief": int(chief), "worker": workers, "ps": ps}
        ports = iter(free_ports(sum(counts.values())))
        return cls({t: [f"{host}:{next(ports)}" for _ in range(n)] for t, n in counts.items() if n})

    def as_dict(self):
        """The cluster as a plain dict (the ``"cluster"`` part of TF_CONFIG)."""
        return {task_type: list(addresses) for task_type, addresses in self._jobs.items()}

    def tasks(self):
        """Every task as ``(task_type, index, address)``, chief first."""
        return [(t, i, a) for t, addresses in self._jobs.items() for i, a in enumerate(addresses)]

    def is_chief(self, task_type, index):
        """True for the task that saves checkpoints: the chief, or worker 0 if there is none."""
        if "chief" in self._jobs:
            return task_type == "chief"
        return task_type == "worker" and index == 0

    def tf_config(self, task_type, index):
        """Return the TF_CONFIG dict for one task, checking that the task exists in this cluster."""
        if task_type not in TASK_TYPES:
            raise TFConfigError(
                f"unknown task type {task_type!r}; TF_CONFIG knows {', '.join(TASK_TYPES)}"
            )
        if isinstance(index, bool) or not isinstance(index, int):
            raise TFConfigError(f"a task index is an int, got {index!r}")
        # An evaluator may sit outside the training cluster, as TensorFlow allows.
        if task_type not in self._jobs and task_type != "evaluator":
            raise TFConfigError(
                f"task type {task_type!r} is not in this cluster (it has: {', '.join(self._jobs)})"
            )
        count = len(self._jobs.get(task_type, [None]))
        if not 0 <= index < count:
            raise TFConfigError(
                f"{task_type} index {index} is out of range: the cluster has {count} {task_type} "
                f"task{'s' if count != 1 else ''} (indices 0-{count - 1})"
            )
        return {"cluster": self.as_dict(), "task": {"type": task_type, "index": index}}

    def __repr__(self):
        return f"ClusterSpec({self.as_dict()!r})"

    def __str__(self):
        roles = {
            "chief": "the chief: coordinates training and saves checkpoints",
            "worker": "runs training steps on its share of the data",
            "ps": "parameter server: holds variables (or shards of them)",
            "evaluator": "evaluates the checkpoints training writes",
        }
        lines = [f"A cluster of {len(self.tasks())} tasks:"]
        for task_type, index, address in self.tasks():
            role = roles[task_type]
            if task_type == "worker" and self.is_chief(task_type, index):
                role += "; also the chief (no 'chief' task): saves checkpoints"
            lines.append(f"  {f'{task_type} {index}':<11} {address:<22} {role}")
        lines.append(
            'Each process gets TF_CONFIG = {"cluster": <these addresses>, '
            '"task": {"type": ..., "index": ...}}'
        )
        lines.append("with its own task: the same script runs everywhere.")
        return "\n".join(lines)


def tf_config(cluster, task_type, index, as_json=False):
    """Return the TF_CONFIG of task ``(task_type, index)`` in ``cluster`` (a dict or ClusterSpec).

    The result is a dict ``{"cluster": ..., "task": {"type": ..., "index": ...}}``, or its JSON
    string when ``as_json`` is true (what ``os.environ["TF_CONFIG"]`` holds). Raises
    :class:`TFConfigError` naming the problem for any invalid cluster or task.
    """
    config = ClusterSpec(cluster).tf_config(task_type, index)
    return json.dumps(config) if as_json else config
