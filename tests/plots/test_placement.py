"""tfdist_edu.plots.placement: where a parameter-server run put its shards."""

import pytest

from figure_checks import all_text, saved
from tfdist_edu import parameter_server, plots


def test_ps_placement_shows_each_shard_on_its_ps_task_and_the_steps_per_worker(tmp_path):
    record = {  # the fields of parameter_server.PSRun
        "loss": [2.3, 2.0], "num_workers": 2, "num_ps": 2, "seconds": 3.5,
        "steps_per_worker": {"worker 0": 11, "worker 1": 9},
        "placement": [
            {"variable": "dense/kernel", "shard": 0, "device": "/job:ps/replica:0/task:0/device:CPU:0",
             "shape": [392, 64]},
            {"variable": "dense/kernel", "shard": 1, "device": "/job:ps/replica:0/task:1/device:CPU:0",
             "shape": [392, 64]},
            {"variable": "dense/bias", "shard": 0, "device": "/job:ps/replica:0/task:1/device:CPU:0",
             "shape": [64]},
        ],
    }
    fig = plots.plot_ps_placement(parameter_server.PSRun(**record))
    grid_ax, steps_ax = fig.axes
    assert [t.get_text() for t in grid_ax.get_yticklabels()] == ["dense/kernel", "dense/bias"]
    assert [t.get_text() for t in grid_ax.get_xticklabels()] == ["ps 0 / CPU:0", "ps 1 / CPU:0"]
    cells = {(t.get_position(), t.get_text()) for t in grid_ax.texts}
    assert ((1, 0), "shard 1\n392x64") in cells and ((1, 1), "shard 0\n64") in cells
    assert [p.get_height() for p in steps_ax.patches] == [11, 9]
    saved(fig, tmp_path)
    assert all_text(plots.plot_ps_placement(record)) == all_text(fig)  # the asdict record draws the same
    with pytest.raises(ValueError, match="placement"):
        plots.plot_ps_placement({"loss": []})
