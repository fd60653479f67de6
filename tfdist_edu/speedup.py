"""Lesson 5's what-if panel: the predicted speed-up of N GPUs for a model, a batch and a link.

``what_if`` prices one setup with a ``cost_model.StepModel`` and answers in text;
``speedup_explorer`` puts it behind controls (``explorer.Explorer``). ``scaling_plots``
re-exports both, as lesson 5 calls them from there.
"""

from tfdist_edu import cost_model
from tfdist_edu.batching import whole
from tfdist_edu.controls import LABEL_STYLE, log_slider, positive
from tfdist_edu.explorer import Explorer


def what_if(parameters_m, per_device_batch, link_gb_s, devices, ms_per_example, fixed_ms,
            latency_us):
    """Text: predicted speed-up and efficiency of ``devices`` GPUs for a model of that size.

    ValueError, naming the input, for a size, link or latency that is not a number > 0 or
    a batch or device count that is not a whole number >= 1.
    """
    parameters_m, link_gb_s = positive("parameters_m", parameters_m), positive("link_gb_s", link_gb_s)
    per_device_batch, devices = whole("per_device_batch", per_device_batch), whole("devices", devices)
    positive("latency_us", latency_us)
    model = cost_model.StepModel(
        compute=cost_model.Line(fixed_ms / 1e3, ms_per_example / 1e3),
        link=cost_model.Link(latency_us / 1e6, link_gb_s * 1e9),
        gradient_bytes=4 * parameters_m * 1e6)
    batch = devices * per_device_batch
    one, many = model.step_s(1, batch), model.step_s(devices, batch)
    reduce_ms = 1e3 * model.link.all_reduce_s(model.gradient_bytes, devices)
    return (f"{parameters_m:g} M parameters ({4 * parameters_m:.0f} MB of float32 gradients), "
            f"global batch {batch} = {devices} GPUs x {per_device_batch}, links at {link_gb_s:g} GB/s\n"
            f"  step: 1 GPU {1e3 * one:.1f} ms; {devices} GPUs {1e3 * many:.1f} ms "
            f"(all-reduce {reduce_ms:.1f} ms)\n"
            f"  speed-up {model.speedup(devices, per_device_batch):.2f}x, "
            f"efficiency {100 * model.efficiency(devices, per_device_batch):.0f}%")


def speedup_explorer(ms_per_example, fixed_ms, parameters_m, link_gb_s, latency_us,
                     per_device_batch=64, devices=4):
    """An ``Explorer`` (ipywidgets, with a text fallback) over ``what_if``; the caller gives
    the published figures (``cost_model.PUBLISHED``) it starts from.

    Model size and link speed are ``controls.log_slider``s: drawn, they start at exactly the
    given numbers, so the panel agrees with ``print(explorer)``.
    """

    def compute(parameters_m, per_device_batch, link_gb_s, devices):
        return what_if(parameters_m, per_device_batch, link_gb_s, devices, ms_per_example,
                       fixed_ms, latency_us)

    def make_controls(w, values):
        return {
            "parameters_m": log_slider(w, values["parameters_m"], 0.1, 1000, " M",
                                       "parameters"),
            "per_device_batch": w.IntSlider(value=values["per_device_batch"], min=1,
                                            max=max(1024, values["per_device_batch"]),
                                            description="per-GPU batch", style=LABEL_STYLE),
            "link_gb_s": log_slider(w, values["link_gb_s"], 1, 1000, " GB/s", "link speed"),
            "devices": w.IntSlider(value=values["devices"], min=2, max=max(16, values["devices"]),
                                   description="GPUs", style=LABEL_STYLE),
        }

    return Explorer(compute, dict(parameters_m=parameters_m, per_device_batch=per_device_batch,
                                  link_gb_s=link_gb_s, devices=devices), make_controls)
