"""4. Dynamic loss scaling with mixed_float16: a ``dynamic_loss_scale.LossScaleTrace``."""

import matplotlib.pyplot as plt
import numpy as np

from tfdist_edu.plots.alt import set_alt
from tfdist_edu.plots.style import WRONG, _figure_function


@_figure_function
def plot_loss_scale(trace):
    """Draw a ``dynamic_loss_scale.LossScaleTrace``: the dynamic loss scale per step (log scale), the
    steps whose gradients overflowed (injected ones and real fp16 ones), and the loss.
    """
    steps = np.arange(len(trace.scale))
    fig, (scale_ax, loss_ax) = plt.subplots(2, 1, figsize=(10, 7.5), sharex=True,
                                            gridspec_kw={"height_ratios": [2, 1]})
    scale_ax.plot(steps, trace.scale, drawstyle="steps-post", color="#2c3e50", lw=2.5,
                  marker="o", ms=4,
                  label=f"loss scale after the step (starts at 2^{np.log2(trace.initial_scale):g})")
    scale_ax.set_yscale("log", base=2)
    loss_ax.plot(steps, trace.loss, color="#2980b9", lw=2, marker=".")
    injected = list(trace.overflow_steps)
    natural = [s for s, skipped in enumerate(trace.skipped) if skipped and s not in injected]
    for found, colour, label in ((injected, WRONG, "inf gradients injected: step skipped, scale / 2"),
                                 (natural, "#e67e22", "real fp16 overflow: step skipped, scale / 2")):
        if found:
            scale_ax.scatter(found, [trace.scale[s] for s in found], marker="X", s=160, color=colour,
                             zorder=3, label=label)
            for s in found:
                for ax in (scale_ax, loss_ax):
                    ax.axvline(s, color=colour, alpha=0.25, lw=6)
    scale_ax.set_ylabel("loss scale")
    scale_ax.set_title(f"Dynamic loss scaling with mixed_float16: the scale doubles after "
                       f"{trace.growth_steps} finite steps in a row,\nhalves when the gradients "
                       "overflow (and that step is skipped: the loss does not move)")
    scale_ax.legend(loc="lower right")
    loss_ax.set_ylabel("loss")
    loss_ax.set_xlabel("training step")
    fig.tight_layout()
    return set_alt(fig, _alt(trace, injected, natural))


def _alt(trace, injected, natural):
    """The scale's path and the skipped steps, in words."""
    overflows = (f"inf gradients injected at steps {', '.join(map(str, injected)) or 'none'}; "
                 f"real fp16 overflows at steps {', '.join(map(str, natural)) or 'none'}")
    return (f"Dynamic loss scaling with mixed_float16 over {len(trace.scale)} steps: the loss "
            f"scale starts at 2^{np.log2(trace.initial_scale):g}, doubles after "
            f"{trace.growth_steps} finite steps in a row and halves at every overflow, whose step "
            f"is skipped ({overflows}). It ends at {trace.scale[-1]:g}, from "
            f"{min(trace.scale):g} at its lowest to {max(trace.scale):g} at its highest; the loss "
            f"goes from {trace.loss[0]:.3g} to {trace.loss[-1]:.3g}.")
