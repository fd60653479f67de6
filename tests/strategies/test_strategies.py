"""Tests for tfdist_edu.strategies.

Strategies over two simulated CPUs need devices split before TensorFlow's runtime starts,
so those checks run in a child Python; the rest run here on whatever devices this process has.
"""

import json
import sys
import types

import pytest
import tensorflow as tf

from tfdist_edu import hardware, strategies


@pytest.fixture(scope="module")
def two_cpus(run_fresh):
    """Mirrored (with one fit epoch), central storage and auto() over 2 simulated CPUs."""
    return run_fresh(
        """
        import contextlib, io, json
        import numpy as np, keras
        from tfdist_edu import hardware, strategies
        hardware.simulate_devices(2)
        mirrored = strategies.make("mirrored")
        with mirrored.scope():
            model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
            model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        x, y = np.random.default_rng(0).normal(size=(16, 4)), np.arange(16) % 2
        history = model.fit(x, y, batch_size=8, epochs=1, verbose=0)
        central = strategies.make("central_storage")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            chosen = strategies.auto()
        print(json.dumps({
            "mirrored": strategies.describe(mirrored),
            "mirrored_replicas": mirrored.num_replicas_in_sync,
            "loss": history.history["loss"],
            "central": strategies.describe(central),
            "central_replicas": central.num_replicas_in_sync,
            "auto": strategies.describe(chosen), "auto_printed": printed.getvalue(),
        }))
        """
    )


def test_mirrored_over_two_simulated_cpus_has_two_replicas_and_fits(two_cpus):
    assert two_cpus["mirrored_replicas"] == 2
    assert two_cpus["mirrored"] == "MirroredStrategy: 2 replicas in sync on CPU:0, CPU:1"
    assert len(two_cpus["loss"]) == 1 and two_cpus["loss"][0] > 0


def test_central_storage_over_two_simulated_cpus_has_two_replicas(two_cpus):
    assert two_cpus["central_replicas"] == 2
    assert two_cpus["central"] == "CentralStorageStrategy: 2 replicas in sync on CPU:0, CPU:1"


def test_auto_chooses_mirrored_over_simulated_cpus_and_says_why(two_cpus):
    assert two_cpus["auto"] == two_cpus["mirrored"]
    assert two_cpus["auto_printed"].startswith("auto: MirroredStrategy, because 2 logical CPU")
    label = "2 logical CPU devices (simulated), no GPU, no TPU]"
    assert two_cpus["auto_printed"].rstrip().endswith(label)


@pytest.mark.parametrize(
    "spelling, name",
    [
        ("Mirrored", "mirrored"),
        ("MirroredStrategy", "mirrored"),
        ("one-device", "one_device"),
        ("OneDeviceStrategy", "one_device"),
        ("TPUStrategy", "tpu"),
        ("MultiWorkerMirroredStrategy", "multi_worker"),
        (" central storage ", "central_storage"),
        ("ParameterServerStrategy", "parameter_server"),
    ],
)
def test_canonical_name_accepts_common_spellings(spelling, name):
    assert strategies.canonical_name(spelling) == name


def test_unknown_name_lists_the_valid_names():
    with pytest.raises(ValueError, match="Unknown strategy 'horovod'") as caught:
        strategies.make("horovod")
    assert all(name in str(caught.value) for name in strategies.NAMES)


def local_devices():
    return tf.config.list_logical_devices("GPU") or tf.config.list_logical_devices("CPU")


@pytest.mark.parametrize(
    "name, expected",
    [
        ("default", "default strategy"),
        ("one_device", "OneDeviceStrategy"),
        ("mirrored", "MirroredStrategy"),
        ("central_storage", "CentralStorageStrategy"),
        ("multi_worker", "MultiWorkerMirroredStrategy"),
    ],
)
def test_make_builds_every_strategy_this_machine_can_run(name, expected):
    strategy = strategies.make(name)
    assert strategies.describe(strategy).startswith(f"{expected}: ")
    replicas = len(local_devices()) if name in ("mirrored", "central_storage") else 1
    assert strategy.num_replicas_in_sync == replicas


def test_one_device_picks_the_first_gpu_else_cpu0():
    strategy = strategies.make("one_device")
    first = local_devices()[0].name.split("device:")[-1]  # "GPU:0" or "CPU:0"
    assert strategy.extended.worker_devices[0].endswith(f"device:{first}")


def test_multi_worker_without_tf_config_is_one_local_worker():
    strategy = strategies.make("multi_worker")
    assert strategy.num_replicas_in_sync == 1
    assert strategy.extended.worker_devices[0].startswith("/job:localhost/")


def test_tpu_without_a_tpu_raises_no_tpu_error():
    with pytest.raises(hardware.NoTPUError, match="Change runtime type > TPU"):
        strategies.make("tpu")


def test_parameter_server_without_resolver_points_to_the_ps_module():
    with pytest.raises(ValueError, match="cluster_resolver=.*tfdist_edu.parameter_server"):
        strategies.make("parameter_server")


def test_devices_are_refused_where_they_do_not_apply():
    with pytest.raises(ValueError, match="does not apply to the 'default'"):
        strategies.make("default", devices=["/cpu:0"])
    with pytest.raises(ValueError, match="exactly one device"):
        strategies.make("one_device", devices=["/cpu:0", "/cpu:0"])
    with pytest.raises(TypeError, match="takes no options"):
        strategies.make("default", cross_device_ops=None)


def test_make_default_inside_another_scope_refuses():
    with strategies.make("one_device").scope():
        with pytest.raises(RuntimeError, match="inside a strategy's scope"):
            strategies.make("default")


def test_describe_default_strategy():
    assert strategies.describe(tf.distribute.get_strategy()) == (
        "default strategy: 1 replica in sync on TensorFlow's default placement"
    )


TWO_WORKERS = json.dumps(
    {"cluster": {"worker": ["localhost:1", "localhost:2"]}, "task": {"type": "worker", "index": 0}}
)


def test_check_tf_config_is_none_when_unset():
    assert strategies.check_tf_config({}) is None
    assert strategies.check_tf_config({"TF_CONFIG": " "}) is None


def test_check_tf_config_warns_about_a_leftover_and_parses_it():
    with pytest.warns(strategies.TFConfigWarning, match="2 task.*worker 0.*del os.environ"):
        config = strategies.check_tf_config({"TF_CONFIG": TWO_WORKERS})
    assert config["task"] == {"type": "worker", "index": 0}


def test_check_tf_config_rejects_invalid_json():
    with pytest.raises(ValueError, match="not valid JSON"):
        strategies.check_tf_config({"TF_CONFIG": "{cluster"})


def test_make_warns_about_a_leftover_tf_config(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", TWO_WORKERS)
    with pytest.warns(strategies.TFConfigWarning):
        strategies.make("default")


def test_multi_worker_refuses_a_cluster_tf_config_in_a_notebook_kernel(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", TWO_WORKERS)
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    with pytest.raises(RuntimeError, match="separate processes with tfdist_edu.cluster"):
        strategies.make("multi_worker")


def test_auto_prints_its_choice_and_the_hardware(capsys):
    strategy = strategies.auto()
    printed = capsys.readouterr().out
    assert printed.startswith("auto: ") and "because" in printed
    assert hardware.detect().summary() in printed
    assert strategy.num_replicas_in_sync >= 1


def test_a_second_mirrored_strategy_in_the_same_process_still_trains():
    # TF's default collective ops break here (tensorflow/tensorflow#62790); make() must not.
    import keras
    import numpy as np

    x, y = np.random.rand(64, 8).astype("float32"), np.random.randint(0, 3, 64)
    for units in (16, 4):
        strategy = strategies.make("mirrored")
        assert strategy.num_replicas_in_sync == 2
        with strategy.scope():
            model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(units),
                                      keras.layers.Dense(3)])
            model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(x, y, batch_size=16, epochs=1, verbose=0)
        assert np.isfinite(history.history["loss"][0])
