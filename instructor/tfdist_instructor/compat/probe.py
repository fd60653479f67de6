"""Child side: one combination in this process, reported through ``tfdist_edu.worker.write_result``.

``local`` builds one local strategy (or the in-process parameter-server cluster);
``multi_worker`` is one task of a 2-worker MultiWorkerMirroredStrategy; ``_verdict`` decides
the status of a run.
"""

import math
import os
import sys

from tfdist_edu import strategies, worker
from tfdist_instructor.compat.outcome import FAILS, NO_HARDWARE, WORKS, WRONG_METRICS, one_line
from tfdist_instructor.compat.training import train


def _report(status, error=None, detail=""):
    worker.write_result({"status": status, "error": error, "detail": detail})


def _verdict(result, replicas):
    """Return (status, error, detail) for what ``train`` returned."""
    loss = result["loss"]
    detail = f"{replicas} replica{'s' if replicas != 1 else ''}, loss {loss:.2f}"
    if not math.isfinite(loss):
        return FAILS, f"FloatingPointError: the loss is {loss}", detail
    if not result["changed"]:
        return FAILS, "AssertionError: training ran but the weights did not change", detail
    if result["same_weights"] is False:
        return FAILS, "AssertionError: the weights differ from the same steps replayed on one device", detail
    expected = result["expected"]
    if expected is not None and not math.isclose(loss, expected, rel_tol=1e-3):
        detail += f"; a replay on one device gives {expected:.4f}"
        return WRONG_METRICS, ("AssertionError: the weights match the same steps replayed on one device, "
                               "but the loss reported does not: the metrics are wrong"), detail
    return WORKS, None, detail


def _in_process_cluster(num_workers, num_ps):
    """Start worker and ps servers on loopback ports in this process; return their resolver.

    As the TensorFlow tutorial does on one machine: no chief task, this process coordinates.
    """
    import tensorflow as tf

    from tfdist_edu import parameter_server, tfconfig

    ports = iter(tfconfig.free_ports(num_workers + num_ps))
    jobs = {"worker": num_workers, "ps": num_ps}
    spec = tf.train.ClusterSpec({job: [f"localhost:{next(ports)}" for _ in range(n)] for job, n in jobs.items()})
    for job, n in jobs.items():
        for index in range(n):
            config = parameter_server.server_config(num_workers) if job == "worker" else None
            tf.distribute.Server(spec, job_name=job, task_index=index, protocol="grpc", config=config, start=True)
    return tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")


def local(strategy_name, path):
    """Child process: build one local strategy, train on ``path``, report through write_result."""
    import tensorflow as tf

    from tfdist_edu import hardware

    coordinator = None
    try:
        if strategy_name == "parameter_server":
            strategy = tf.distribute.ParameterServerStrategy(_in_process_cluster(num_workers=2, num_ps=1))
            coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        else:
            if strategy_name != "tpu" and not tf.config.list_physical_devices("GPU"):
                hardware.simulate_devices(2)
            strategy = strategies.make(strategy_name)
        _report(*_verdict(train(strategy, path, coordinator), strategy.num_replicas_in_sync))
    except hardware.NoTPUError as err:
        first_sentence = str(err).split(". ")[0]
        cause = f" (TensorFlow raised {type(err.__cause__).__name__})" if err.__cause__ else ""
        _report(NO_HARDWARE, one_line(f"NoTPUError: {first_sentence}.{cause}"))
    except Exception as err:  # the point is to record what fails, whatever it is
        _report(FAILS, one_line(f"{type(err).__name__}: {err}"))
    sys.stdout.flush()
    # In-process parameter servers cannot be stopped, so leave without waiting for them.
    os._exit(0)


def multi_worker(path):
    """Child process: one multi-worker task; reports and exits non-zero on error so peers are killed."""
    import tensorflow as tf

    try:
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        result = train(strategy, path)
    except Exception as err:
        worker.write_result({"status": FAILS, "error": one_line(f"{type(err).__name__}: {err}")})
        sys.stdout.flush()
        os._exit(1)
    status, error, detail = _verdict(result, strategy.num_replicas_in_sync)
    worker.write_result({"status": status, "error": error, "detail": detail, "loss": result["loss"],
                          "replicas": strategy.num_replicas_in_sync, "weights_sha256": result["checksum"]})
