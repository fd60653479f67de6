"""tfdist_edu.quiet: TensorFlow's INFO lines stay out of a notebook; its warnings do not."""

import logging

import nbclient
import nbformat
import pytest

from tfdist_edu import quiet


def test_with_the_filter_tensorflow_info_is_dropped_and_warnings_pass(caplog):
    logger = logging.getLogger("tensorflow")
    caplog.set_level(logging.INFO, logger="tensorflow")
    quiet.hide_tensorflow_info()
    try:
        logger.info("Using MirroredStrategy with devices ('CPU:0', 'CPU:1')")
        logger.warning("a warning a student should read")
    finally:
        quiet.show_tensorflow_info()
    logger.info("shown again")
    assert [r.getMessage() for r in caplog.records] == ["a warning a student should read",
                                                        "shown again"]


@pytest.mark.slow
def test_in_a_notebook_a_mirrored_strategy_prints_no_info_lines_and_a_warning_once():
    # absl's first log call configures the root logger (TensorFlow's connect_to_cluster makes one
    # in lesson 8): a warning must not then show a second time, through the root's handler.
    code = ("import tensorflow as tf\nimport tfdist_edu\n"
            "strategy = tf.distribute.MirroredStrategy()\n"
            "print(strategy.reduce('SUM', strategy.run(lambda: tf.constant(1.0)), axis=None).numpy())\n"
            "from absl import logging as absl_logging\nabsl_logging.info('absl logs first')\n"
            "tf.get_logger().warning('still shown')")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    text = "".join(out.get("text", "") for out in nb.cells[0].outputs)
    assert "INFO:tensorflow" not in text and "1.0" in text and text.count("still shown") == 1, text


def test_the_log_line_patterns_have_one_home_that_the_supervisor_imports():
    import ast
    import inspect

    from tfdist_edu import supervisor

    assert supervisor.is_log_noise is quiet.is_log_noise
    line = "I0000 00:00:1700000000.000000   123 cuda_executor.cc:1] found no device"
    assert quiet.ABSL_LINE.match(line).groups() == ("I", "cuda_executor.cc") and quiet.is_log_noise(line)
    private = [alias.name for module in (quiet, supervisor) for node in ast.walk(ast.parse(inspect.getsource(module)))
               if isinstance(node, ast.ImportFrom) for alias in node.names if alias.name.startswith("_")]
    assert private == [], "no private name imported from another module"


def test_gloos_peer_connection_line_is_noise_and_its_errors_are_not():
    assert quiet.is_log_noise("[Gloo] Rank 1 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1")
    assert not quiet.is_log_noise("[Gloo] Rank 1 failed to connect: Connection refused")
