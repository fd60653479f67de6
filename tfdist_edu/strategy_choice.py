"""Which strategy fits a setup: the one decision behind ``strategies.auto()`` and the strategy
chooser widget, so the lesson's advice and the code's choice cannot disagree.
"""

import dataclasses

from tfdist_edu.batching import whole

ACCELERATORS = ("cpu", "gpu", "tpu")

_TPU_CODE = """resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="{tpu}")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)"""

_PS_CODE = """# on the coordinator; TF_CONFIG lists the "worker" and "ps" tasks
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)"""


@dataclasses.dataclass(frozen=True)
class StrategyChoice:
    """The strategy to use: its class ``name``, a one-line ``reason``, the ``code`` that
    creates it, and its ``key`` in ``strategies.NAMES`` (for ``strategies.make(key)``)."""

    key: str
    name: str
    reason: str
    code: str

    def __str__(self):
        return f"Use {self.name}: {self.reason}\n\n{self.code}"


def choose(machines=1, accelerator="gpu", devices_per_machine=1, sync=True):
    """Return the ``StrategyChoice`` for a setup.

    ``machines``: how many machines train together; ``accelerator``: "cpu", "gpu" or "tpu";
    ``devices_per_machine``: GPUs on each machine, or logical CPU devices for "cpu"; ``sync``:
    True for synchronous all-reduce training, False for asynchronous parameter-server training.
    """
    machines = whole("machines", machines)
    devices = whole("devices_per_machine", devices_per_machine)
    if accelerator not in ACCELERATORS:
        raise ValueError(f"accelerator must be one of {', '.join(ACCELERATORS)}, got {accelerator!r}")
    if accelerator == "tpu":
        why = ("TPU cores train in lockstep, all-reducing gradients"
               + ("" if sync else " (there is no asynchronous TPU training)"))
        return StrategyChoice("tpu", "TPUStrategy", why,
                              _TPU_CODE.format(tpu="local" if machines == 1 else "your-tpu-pod-name"))
    if not sync:
        where = ("on real machines" if machines > 1 else
                 "on one machine only as local processes, to learn it; it rarely pays there")
        return StrategyChoice(
            "parameter_server", "ParameterServerStrategy",
            f"workers update variables held by parameter servers without waiting for each other, "
            f"{where}; train with a custom loop and ClusterCoordinator.schedule (Keras 3 fit "
            f"does not support it)", _PS_CODE)
    if machines > 1:
        return StrategyChoice(
            "multi_worker", "MultiWorkerMirroredStrategy",
            "every device on every machine holds a replica, gradients are all-reduced across "
            "machines; use a custom loop (Keras 3 fit does not run multi-worker) or tf-keras",
            "# on every machine, with TF_CONFIG naming the cluster and this task\n"
            "strategy = tf.distribute.MultiWorkerMirroredStrategy()")
    return _one_machine(accelerator, devices)


def _one_machine(accelerator, devices):
    if accelerator == "gpu" and devices > 1:
        return StrategyChoice(
            "mirrored", "MirroredStrategy",
            f"one replica per GPU, {devices} in all, variables mirrored, gradients all-reduced "
            "between the GPUs", "strategy = tf.distribute.MirroredStrategy()  # uses every visible GPU")
    if accelerator == "gpu":
        return StrategyChoice(
            "one_device", "OneDeviceStrategy",
            "one GPU: nothing to synchronise; this keeps the code strategy-shaped and pins the work "
            "to the GPU", 'strategy = tf.distribute.OneDeviceStrategy("/gpu:0")')
    if devices > 1:
        return StrategyChoice(
            "mirrored", "MirroredStrategy",
            f"{devices} logical CPU devices (simulated): one replica on each. They share the same "
            "cores, so this shows how mirroring works, not a speed-up",
            "strategy = tf.distribute.MirroredStrategy()  # over the simulated CPU devices")
    return StrategyChoice(
        "default", "the default strategy",
        "a CPU-only machine has one device: there is nothing to distribute (MirroredStrategy "
        "over logical CPUs only simulates replicas, and runs slower)",
        "strategy = tf.distribute.get_strategy()  # the default: no distribution")
