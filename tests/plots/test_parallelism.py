"""tfdist_edu.plots.parallelism: the data-parallelism diagram of a real strategy."""

import pytest
import tensorflow as tf

from figure_checks import all_text, saved
from tfdist_edu import plots, strategies


def test_data_parallelism_diagram_shows_the_strategys_replicas_devices_and_slices(strategy, tmp_path):
    n = strategy.num_replicas_in_sync
    fig = plots.plot_data_parallelism(strategy, 32 * n)
    text = all_text(fig)
    for i in range(n):
        assert f"replica {i}\non CPU:{i}" in text
        assert f"examples {32 * i}-{32 * i + 31}" in text
    assert f"global batch {32 * n}" in fig.axes[0].get_title()
    assert "all-reduce" in text
    saved(fig, tmp_path)


def test_data_parallelism_diagram_of_the_default_strategy_has_nothing_to_reduce():
    fig = plots.plot_data_parallelism(tf.distribute.get_strategy(), 16)
    assert "nothing to all-reduce" in all_text(fig)
    with pytest.raises(ValueError, match="does not split evenly"):
        plots.plot_data_parallelism(strategies.make("mirrored"), 33)
