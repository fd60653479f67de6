"""tfdist_edu: helpers for a hands-on course on distributed training with tf.distribute.

The package is plumbing: hardware detection, strategy building, data, timing, figures and
local clusters. The distribution code a student learns stays in the lesson notebooks.
Importing the package does not import TensorFlow; each module imports what it needs.
"""

__version__ = "0.1.0"
