"""Which strategy trains with which Keras path: measured here, one combination per fresh process.

Three ways to train a model meet seven strategies, and not every pair works. Rather than keep a
list by hand, this package runs each pair for real and records what happened:

* ``keras_fit``: Keras 3 ``Model.fit``;
* ``keras_ctl``: a Keras 3 model in a custom training loop (``strategy.run`` and ``reduce``,
  or ``ClusterCoordinator.schedule`` for the parameter-server strategy);
* ``tf_keras_fit``: ``Model.fit`` from tf-keras, the Keras 2 package (``TF_USE_LEGACY_KERAS=1``
  in that process only).

Every combination trains a tiny model for a few steps on synthetic data in a process of its own,
so no state leaks from one to the next: local strategies on 2 simulated CPUs (or the GPUs),
``multi_worker`` as 2 local workers through :mod:`tfdist_edu.cluster`, ``parameter_server`` on
an in-process cluster of 2 workers and 1 ps, and ``tpu`` on the TPU when there is one (here it
records the ``NoTPUError``). A combination *works* when its steps ran, the loss is finite and
the weights changed, and (for the synchronous strategies) a replay of the same steps on one
device ends with the same weights and the same loss as the one reported; when only the loss
differs the combination "trains, with wrong metrics". Multi-worker runs must also end with
identical weights on both workers.

``tfdist-instructor compat`` (``make compat``) measures the whole matrix and
writes the table; tests/instructor/test_compat.py checks that the committed table still matches.
Importing this package does not import TensorFlow.

- ``outcome``: the two axes, the statuses and the Outcome of one combination;
- ``matrix``: the driver (run a combination, the matrix, write the page) and its command line,
  ``python -m tfdist_instructor.compat`` (``__main__``);
- ``launch``: the parent side: start a combination's processes, read what they wrote;
- ``probe``/``training``/``job``: the child side: one combination in its own process, the
  training and its single-device replay, the tiny job they run;
- ``page``: the Markdown page (``templates/compatibility.md.j2``) and the versions and machine
  it was measured with.
"""

from tfdist_instructor.compat.matrix import (DEADLINE_S, DEFAULT_DOC, add_cli, default_parallel, main,
                                             run_combination, run_matrix, write)
from tfdist_instructor.compat.outcome import FAILS, NO_HARDWARE, PATHS, STRATEGIES, WORKS, WRONG_METRICS, Outcome
from tfdist_instructor.compat.page import environment, render

__all__ = ["DEADLINE_S", "DEFAULT_DOC", "FAILS", "NO_HARDWARE", "PATHS", "STRATEGIES", "WORKS", "WRONG_METRICS",
           "Outcome", "add_cli", "default_parallel", "environment", "main", "render", "run_combination", "run_matrix", "write"]
