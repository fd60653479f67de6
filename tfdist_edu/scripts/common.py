"""What the two multi-worker reference scripts share: their options and their data.

Imports no TensorFlow, so a script can still set TF_USE_LEGACY_KERAS before it does.
"""

import argparse
import os
import tempfile

import numpy as np

from tfdist_edu import cluster


def parse_args(description, state_dir_option, state_dir_name):
    """Parse the training options, plus ``state_dir_option`` (checkpoints or backups).

    Its default is ``state_dir_name`` inside the run folder the launcher gives the workers.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--steps-per-epoch", type=int, default=20)
    parser.add_argument("--per-worker-batch", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    run_dir = os.environ.get(cluster.RUN_DIR_ENV, tempfile.gettempdir())
    parser.add_argument(state_dir_option, default=os.path.join(run_dir, state_dir_name))
    return parser.parse_args()


def synthetic_data(n=2048, features=16, classes=4, seed=0):
    """A learnable stand-in (synthetic): labels come from a fixed random linear teacher."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype("float32")
    y = np.argmax(x @ rng.normal(size=(features, classes)), axis=1).astype("int64")
    return x, y
