"""Tests for tfdist_edu.widgets: explorers driven by their controls, or by code without ipywidgets."""

import sys

import pytest

from tfdist_edu import widgets


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
    chooser = widgets.strategy_chooser(accelerator="gpu", devices_per_machine=1)
    assert chooser.result.key == "one_device"
    chooser.controls["devices_per_machine"].value = 4
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
