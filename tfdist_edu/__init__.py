"""tfdist_edu: helpers for a hands-on course on distributed training with tf.distribute.

The package is plumbing: hardware detection, strategy building, data, timing, figures and
local clusters. The distribution code a student learns stays in the lesson notebooks.
Importing the package does not import TensorFlow; each module imports what it needs.
"""

__version__ = "0.1.0"


def _in_a_notebook():
    """In IPython: TensorFlow's INFO lines stay out of the output (tfdist_edu.quiet) and every
    matplotlib figure is shown with its alt text (_figures_with_words)."""
    import sys

    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    if shell is None:
        return
    from tfdist_edu import quiet

    quiet.in_a_notebook()
    _figures_with_words(shell)


def _figures_with_words(shell):
    """Display every matplotlib figure with its alt text (tfdist_edu.plots.display). Registered
    by name, so neither matplotlib nor TensorFlow is imported here."""
    shell.display_formatter.mimebundle_formatter.for_type_by_name(
        "matplotlib.figure", "Figure", _display_bundle)


def _display_bundle(fig, include=None, exclude=None):
    from tfdist_edu.plots.display import display_bundle

    return display_bundle(fig, include, exclude)


_in_a_notebook()
