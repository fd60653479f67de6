"""tfdist_edu: helpers for a hands-on course on distributed training with tf.distribute.

The package is plumbing: hardware detection, strategy building, data, timing, figures and
local clusters. The distribution code a student learns stays in the lesson notebooks.
Importing the package does not import TensorFlow; each module imports what it needs.
"""

__version__ = "0.1.0"


def _figures_with_words():
    """In a notebook, display every matplotlib figure with its alt text (tfdist_edu.plots.alt).

    Registered by name, so neither matplotlib nor TensorFlow is imported here; outside IPython
    this does nothing.
    """
    import sys

    if "IPython" not in sys.modules:
        return
    shell = sys.modules["IPython"].get_ipython()
    if shell is not None:
        shell.display_formatter.mimebundle_formatter.for_type_by_name(
            "matplotlib.figure", "Figure", _display_bundle)


def _display_bundle(fig, include=None, exclude=None):
    from tfdist_edu.plots.alt import display_bundle

    return display_bundle(fig, include, exclude)


_figures_with_words()
