"""Build tf.distribute strategies by name, with defaults that work on the hardware found.

``make("mirrored")`` and friends save the lessons from repeating device plumbing; the
notebooks still show the plain ``tf.distribute`` constructor the first time each strategy
appears. ``auto()`` picks the best strategy for this machine and says why.
"""

import json
import os
import re
import sys
import warnings

from tfdist_edu import hardware, strategy_choice

NAMES = (
    "default",
    "one_device",
    "mirrored",
    "central_storage",
    "tpu",
    "multi_worker",
    "parameter_server",
)

# Spellings that do not reduce to a name in NAMES by the rules in canonical_name().
_ALIASES = {"multi_worker_mirrored": "multi_worker"}

# TensorFlow's class names for strategies it exports under other names.
_PUBLIC_NAMES = {
    "_DefaultDistributionStrategy": "default strategy",
    "CollectiveAllReduceStrategy": "MultiWorkerMirroredStrategy",
    "TPUStrategyV2": "TPUStrategy",
    "ParameterServerStrategyV2": "ParameterServerStrategy",
}

# The device prefix every local device name carries; describe() drops it for brevity.
_LOCAL_PREFIX = "/job:localhost/replica:0/task:0/device:"


class TFConfigWarning(UserWarning):
    """Warned when a ``TF_CONFIG`` is set where a single-machine strategy is being built."""


def canonical_name(name):
    """Return the NAMES entry for a spelling such as "Mirrored", "MirroredStrategy", "one-device".

    Raises ValueError listing the valid names for anything else.
    """
    text = str(name).strip()
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text).lower()  # CamelCase -> snake_case
    text = re.sub(r"[\s\-.]+", "_", text)
    text = re.sub(r"_?strategy$", "", text)
    text = _ALIASES.get(text, text)
    if text not in NAMES:
        raise ValueError(f"Unknown strategy {name!r}; choose one of: {', '.join(NAMES)}")
    return text


def make(name, devices=None, **kwargs):
    """Build the strategy called ``name`` (any spelling ``canonical_name`` accepts) and return it.

    ``devices`` (a list of device names, or one name) applies to "one_device", "mirrored" and
    "central_storage"; other keyword arguments go to the TensorFlow constructor (for example
    ``cross_device_ops`` for mirrored, ``cluster_resolver`` for parameter_server). Defaults:

    - default: ``tf.distribute.get_strategy()``, the no-op strategy outside any scope.
    - one_device: GPU:0 when there is a GPU, else CPU:0.
    - mirrored: every local GPU, else every logical CPU, with cross-device ops that let a
      notebook build a second MirroredStrategy (see ``_mirrored``): ``NcclAllReduce`` (NCCL's
      ring or tree) over several physical GPUs, else ``ReductionToOneDevice`` (an ``AddN`` on
      the first device, then copies back). Pass ``cross_device_ops=`` to choose
      (``NcclAllReduce`` fails on CPUs).
    - central_storage: the same devices as mirrored, passed explicitly (with none it would
      use one replica on the CPU), variables kept on the CPU.
    - tpu: the TPU from ``hardware.connect_tpu()``; raises ``hardware.NoTPUError`` without one.
    - multi_worker: MultiWorkerMirroredStrategy. Without ``TF_CONFIG`` it runs here as a
      single worker with one replica, enough to show the API. Real multi-worker runs go
      through ``tfdist_edu.cluster``, in separate processes, never in a notebook kernel.
    - parameter_server: needs ``cluster_resolver=`` for a running cluster; see
      ``tfdist_edu.parameter_server``.
    """
    name = canonical_name(name)
    if isinstance(devices, str):
        devices = [devices]
    if devices is not None and name not in ("one_device", "mirrored", "central_storage"):
        raise ValueError(f"devices= does not apply to the {name!r} strategy; leave it out")
    # For the cluster strategies TF_CONFIG is the intended configuration, not a leftover.
    config = check_tf_config(warn=name not in ("multi_worker", "parameter_server"))
    if name == "multi_worker" and _task_count(config) > 1 and "ipykernel" in sys.modules:
        # The constructor would block until every worker joins, and then ignore interrupts.
        raise RuntimeError(
            f"TF_CONFIG describes a {_task_count(config)}-task cluster: building "
            "MultiWorkerMirroredStrategy in this notebook kernel would block it for good. Run "
            "the workers in separate processes with tfdist_edu.cluster, or remove TF_CONFIG "
            "for a single local worker."
        )
    return _BUILDERS[name](devices, **kwargs)


def auto(verbose=True):
    """Return the best strategy for this machine: TPU > several GPUs > one GPU > CPU.

    On CPUs it returns MirroredStrategy when ``hardware.simulate_devices`` split them,
    else the default strategy. With ``verbose`` it prints which one and why.
    """
    report = hardware.detect()
    gpus, cpus = report.count("GPU"), report.count("CPU")
    accelerator = "tpu" if report.tpu else "gpu" if gpus else "cpu"
    choice = strategy_choice.choose(1, accelerator, max(1, gpus or cpus))
    strategy = make(choice.key)
    if verbose:
        print(f"auto: {choice.name}, because {choice.reason}. [{report.summary()}]")
    return strategy


def check_tf_config(environ=None, warn=True):
    """Return the parsed ``TF_CONFIG`` of ``environ`` (default ``os.environ``), or None if unset.

    With ``warn`` a set TF_CONFIG gives a ``TFConfigWarning``: one left over from a
    multi-worker lesson makes MultiWorkerMirroredStrategy wait for workers that never come,
    and MirroredStrategy logs that it ignores it. Raises ValueError when it is not valid JSON.
    """
    environ = os.environ if environ is None else environ
    text = environ.get("TF_CONFIG", "").strip()
    if not text:
        return None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"TF_CONFIG is not valid JSON ({err}): {text!r}") from err
    if not isinstance(config, dict):
        raise ValueError(f"TF_CONFIG must be a JSON object with 'cluster' and 'task', got {text!r}")
    if warn:
        task = config.get("task", {})
        warnings.warn(
            f"TF_CONFIG is set: a cluster of {_task_count(config)} task(s) in which this process is "
            f"{task.get('type', '?')} {task.get('index', '?')}. MultiWorkerMirroredStrategy and "
            "ParameterServerStrategy read it (MultiWorkerMirroredStrategy would wait for the "
            "other workers), and MirroredStrategy logs that it ignores it. If it is left over "
            "from a multi-worker lesson, remove it: del os.environ['TF_CONFIG']",
            TFConfigWarning,
            stacklevel=2,
        )
    return config


def describe(strategy):
    """Return one line: the strategy's public class name, its replicas in sync and their devices.

    For example "MirroredStrategy: 2 replicas in sync on CPU:0, CPU:1".
    """
    try:
        devices = ", ".join(d.replace(_LOCAL_PREFIX, "") for d in strategy.extended.worker_devices)
    except RuntimeError:  # the default strategy has no device list: TF places each op
        devices = "TensorFlow's default placement"
    replicas = strategy.num_replicas_in_sync
    name = _PUBLIC_NAMES.get(type(strategy).__name__, type(strategy).__name__)
    return f"{name}: {replicas} replica{'' if replicas == 1 else 's'} in sync on {devices}"


def _task_count(config):
    """The number of tasks in a parsed TF_CONFIG's cluster (0 for None)."""
    return sum(len(addresses) for addresses in (config or {}).get("cluster", {}).values())


def _local_devices():
    """Every logical GPU, else every logical CPU: the devices one replica each goes on."""
    import tensorflow as tf

    devices = tf.config.list_logical_devices("GPU") or tf.config.list_logical_devices("CPU")
    return [d.name for d in devices]


def _no_options(name, kwargs):
    if kwargs:
        raise TypeError(f"the {name!r} strategy takes no options, got {', '.join(kwargs)}")


def _default(devices, **kwargs):
    import tensorflow as tf

    _no_options("default", kwargs)
    if tf.distribute.has_strategy():  # get_strategy() would return the enclosing one
        raise RuntimeError("make('default') was called inside a strategy's scope; call it outside")
    return tf.distribute.get_strategy()


def _one_device(devices, **kwargs):
    import tensorflow as tf

    _no_options("one_device", kwargs)
    devices = devices or _local_devices()[:1]
    if len(devices) != 1:
        raise ValueError(f"one_device takes exactly one device, got {len(devices)}: {devices}")
    return tf.distribute.OneDeviceStrategy(devices[0])


def _mirrored(devices, cross_device_ops=None, **kwargs):
    import tensorflow as tf

    if cross_device_ops is None:
        # TensorFlow's default is a CollectiveAllReduce (RING on CPUs and split GPUs, NCCL on
        # physical GPUs), and it hands every new MirroredStrategy the same collective keys, so
        # training under a second one over the same devices fails with "Shape mismatch in the
        # collective instance" (tensorflow/tensorflow#62790): re-running a notebook cell would
        # break. NcclAllReduce (NCCL through nccl_ops) and ReductionToOneDevice use no
        # collective keys. The GPU branch is written from TF's source: no GPU has run it here.
        several_gpus = len(tf.config.list_physical_devices("GPU")) > 1
        cross_device_ops = tf.distribute.NcclAllReduce() if several_gpus else tf.distribute.ReductionToOneDevice()
    return tf.distribute.MirroredStrategy(devices=devices, cross_device_ops=cross_device_ops,
                                          **kwargs)


def _central_storage(devices, **kwargs):
    import tensorflow as tf

    return tf.distribute.experimental.CentralStorageStrategy(devices or _local_devices(), **kwargs)


def _tpu(devices, **kwargs):
    import tensorflow as tf

    return tf.distribute.TPUStrategy(hardware.connect_tpu(), **kwargs)


def _multi_worker(devices, **kwargs):
    import tensorflow as tf

    return tf.distribute.MultiWorkerMirroredStrategy(**kwargs)


def _parameter_server(devices, cluster_resolver=None, **kwargs):
    import tensorflow as tf

    if cluster_resolver is None:
        raise ValueError(
            "parameter_server needs cluster_resolver= for a running cluster of workers and "
            "parameter servers. tfdist_edu.parameter_server.run_parameter_server() starts one "
            "in its own process and runs the demo there."
        )
    return tf.distribute.experimental.ParameterServerStrategy(cluster_resolver, **kwargs)


_BUILDERS = {
    "default": _default,
    "one_device": _one_device,
    "mirrored": _mirrored,
    "central_storage": _central_storage,
    "tpu": _tpu,
    "multi_worker": _multi_worker,
    "parameter_server": _parameter_server,
}
