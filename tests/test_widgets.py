import sys

import numpy as np
import pytest
import tensorflow as tf

from tfdist_edu import strategies, widgets


def test_batch_plan_multiplies_out_the_global_batch_and_cuts_consecutive_slices():
    plan = widgets.batch_plan(4, 32, base_learning_rate=0.01)
    assert plan.global_batch == 128
    assert plan.slices == [(0, 32), (32, 64), (64, 96), (96, 128)]
    assert plan.learning_rate == pytest.approx(0.04)  # scaled from one replica's batch of 32
    denominators = [d for d, _ in plan.denominators().values()]
    assert denominators == [128, 32]
    assert "128" in str(plan) and "x4" in str(plan)


def test_batch_plan_finds_the_short_last_batch_and_its_three_denominators():
    plan = widgets.batch_plan(2, 32, examples=1000)
    assert (plan.steps_per_epoch, plan.last_batch, plan.last_batch_split) == (16, 40, [20, 20])
    assert list(plan.last_batch_denominators().values()) == [[64, 64], [40, 40], [40, 40]]
    assert widgets.batch_plan(2, 32, examples=640).last_batch == 0
    assert widgets.batch_plan(np.int64(2), 32, examples=np.int64(1000)).last_batch == 40


@pytest.mark.parametrize("examples", [69, 65, 127])
def test_last_batch_split_is_the_one_tf_distribute_makes(examples):
    strategy = tf.distribute.MirroredStrategy()
    replicas = strategy.num_replicas_in_sync
    plan = widgets.batch_plan(replicas, 32, examples=examples)
    dataset = tf.data.Dataset.range(examples).batch(plan.global_batch)
    *_, last = iter(strategy.experimental_distribute_dataset(dataset))
    sizes = [int(tf.size(t)) for t in strategy.experimental_local_results(last)]
    assert sizes == plan.last_batch_split


@pytest.mark.parametrize("kwargs, message", [
    (dict(replicas=0, per_replica_batch=8), "replicas"),
    (dict(replicas=2, per_replica_batch=2.5), "per_replica_batch"),
    (dict(replicas=2, per_replica_batch=8, examples=0), "examples"),
    (dict(replicas=2, per_replica_batch=8, base_learning_rate=-1), "base_learning_rate"),
])
def test_batch_plan_names_the_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        widgets.batch_plan(**kwargs)


@pytest.mark.parametrize("setup, key", [
    (dict(machines=1, accelerator="cpu"), "default"),
    (dict(machines=1, accelerator="gpu", gpus_per_machine=1), "one_device"),
    (dict(machines=1, accelerator="gpu", gpus_per_machine=4), "mirrored"),
    (dict(machines=3, accelerator="gpu", gpus_per_machine=2), "multi_worker"),
    (dict(machines=3, accelerator="cpu", sync=False), "parameter_server"),
    (dict(machines=1, accelerator="tpu", sync=False), "tpu"),
])
def test_choose_strategy_maps_each_setup_to_a_known_strategy_with_runnable_code(setup, key):
    choice = widgets.choose_strategy(**setup)
    assert choice.key == key and choice.key in strategies.NAMES
    assert choice.reason and "\n" not in choice.reason
    compile(choice.code, "<strategy code>", "exec")


def test_strategy_code_for_this_machine_builds_that_strategy():
    for setup, expected in ((dict(accelerator="cpu"), tf.distribute.get_strategy()),
                            (dict(accelerator="gpu", gpus_per_machine=2), tf.distribute.MirroredStrategy())):
        namespace = {"tf": tf}
        exec(widgets.choose_strategy(**setup).code, namespace)
        assert type(namespace["strategy"]) is type(expected)


def test_choose_strategy_names_the_bad_input():
    with pytest.raises(ValueError, match="accelerator"):
        widgets.choose_strategy(accelerator="fpga")
    with pytest.raises(ValueError, match="machines"):
        widgets.choose_strategy(machines=0)
    with pytest.raises(ValueError, match="gpus_per_machine"):
        widgets.choose_strategy(accelerator="gpu", gpus_per_machine=0)


def test_moving_the_batch_explorer_sliders_recomputes_the_plan_and_its_text():
    explorer = widgets.batch_explorer(replicas=2, per_replica_batch=32)
    explorer.controls["replicas"].value = 4
    explorer.controls["per_replica_batch"].value = 16
    assert explorer.result.global_batch == 64
    assert "global batch 64" in explorer.text
    assert "global batch 64" in explorer.widget.children[-1].value


def test_update_moves_the_controls_and_refuses_unknown_or_bad_inputs():
    explorer = widgets.batch_explorer()
    plan = explorer.update(replicas=3, examples=100)
    assert explorer.controls["replicas"].value == 3 and plan.global_batch == 96
    assert plan.last_batch == 4 and "100" in explorer.widget.children[-1].value
    with pytest.raises(TypeError, match="unknown"):
        explorer.update(gpus=2)
    with pytest.raises(ValueError, match="replicas"):
        explorer.update(replicas=0)
    assert explorer.result.replicas == 3  # a refused update changes nothing


def test_strategy_chooser_follows_its_controls():
    chooser = widgets.strategy_chooser(accelerator="gpu", gpus_per_machine=1)
    assert chooser.result.key == "one_device"
    chooser.controls["gpus_per_machine"].value = 4
    assert chooser.result.key == "mirrored"
    chooser.controls["sync"].value = False
    assert chooser.result.key == "parameter_server"
    assert "ParameterServerStrategy" in chooser.widget.children[-1].value


def test_display_offers_the_widget_and_the_text_as_fallback():
    bundle = widgets.strategy_chooser(accelerator="tpu")._repr_mimebundle_()
    assert "TPUStrategy" in bundle["text/plain"]
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"]


def test_without_ipywidgets_an_explorer_is_plain_text_driven_by_update(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # makes `import ipywidgets` fail
    explorer = widgets.batch_explorer(replicas=2, per_replica_batch=8)
    assert explorer.widget is None and explorer.controls == {}
    assert explorer.update(replicas=5).global_batch == 40
    assert explorer._repr_mimebundle_() == {"text/plain": explorer.text}
    assert str(explorer).startswith("5 replica(s) x 8 examples each = global batch 40")
