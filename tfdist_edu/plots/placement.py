"""7. Parameter servers: where a parameter-server run put its variable shards, and the steps
each worker ran.
"""

import dataclasses

import matplotlib.patches
import matplotlib.pyplot as plt

from tfdist_edu.plots.alt import set_alt
from tfdist_edu.plots.style import _device_label, _figure_function, _label_bars, _nth_color

_PS_KEYS = ("placement", "steps_per_worker", "num_workers", "num_ps")


@_figure_function
def plot_ps_placement(record):
    """Draw a parameter-server run (a ``parameter_server.PSRun`` or its ``asdict`` record):
    which shard of which variable lives on which ps task, and how many steps each worker ran.
    """
    if dataclasses.is_dataclass(record):
        record = dataclasses.asdict(record)
    missing = [k for k in _PS_KEYS if k not in record]
    if missing:
        raise ValueError(f"not a parameter-server record: missing {', '.join(missing)}")
    variables = list(dict.fromkeys(p["variable"] for p in record["placement"]))
    devices = sorted({p["device"] for p in record["placement"]})
    fig, (grid_ax, steps_ax) = plt.subplots(
        1, 2, figsize=(11, max(5.5, 0.9 * len(variables) + 2)), gridspec_kw={"width_ratios": [3, 2]})
    grid_ax.set(xlim=(-0.5, len(devices) - 0.5), ylim=(len(variables) - 0.5, -0.5))
    grid_ax.grid(False)
    for p in record["placement"]:
        col, row = devices.index(p["device"]), variables.index(p["variable"])
        colour = _nth_color(col)
        grid_ax.add_patch(matplotlib.patches.FancyBboxPatch(
            (col - 0.42, row - 0.38), 0.84, 0.76, boxstyle="round,pad=0.02", fc=colour, alpha=0.3,
            ec=colour))
        shape = "x".join(str(d) for d in p["shape"])
        grid_ax.text(col, row, f"shard {p['shard']}\n{shape}", ha="center", va="center", fontsize=11)
    grid_ax.set_xticks(range(len(devices)), [_device_label(d).replace("\n", " / ") for d in devices])
    grid_ax.set_yticks(range(len(variables)), variables)
    grid_ax.tick_params(length=0)
    grid_ax.set_xlabel("parameter-server task / device")
    grid_ax.set_title("Where each variable shard lives")
    workers = list(record["steps_per_worker"])
    counts = [record["steps_per_worker"][w] for w in workers]
    bars = steps_ax.bar(workers, counts, color="#5d6d7e")
    _label_bars(steps_ax, bars, "{:.0f}")
    steps_ax.set_ylabel("steps run")
    steps_ax.set_title("Scheduled steps each worker ran")
    steps_ax.margins(y=0.15)
    seconds = record.get("seconds")
    fig.suptitle(f"Parameter-server training: {record['num_workers']} workers, "
                 f"{record['num_ps']} parameter servers"
                 + (f", {seconds:.1f} s" if seconds is not None else ""), fontsize=16,
                 fontweight="bold")
    fig.tight_layout()
    return set_alt(fig, _alt(record, devices))


def _alt(record, devices):
    """Where the shards went and the steps per worker, in words."""
    placement = record["placement"]
    per_device = []
    for device in devices:
        held = [p for p in placement if p["device"] == device]
        values = sum(_size(p["shape"]) for p in held)
        per_device.append(f"{_device_label(device).replace(chr(10), ' / ')} holds {len(held)} "
                          f"shard(s), {values:,} values")
    sharded = sorted({p["variable"] for p in placement if p["shard"] > 0})
    steps = record["steps_per_worker"]
    return (f"Parameter-server training, {record['num_workers']} workers and {record['num_ps']} "
            f"parameter servers. Where each variable lives: {'; '.join(per_device)}; "
            + (f"split into shards: {', '.join(sharded)}. " if sharded else "no variable is split. ")
            + "Steps each worker ran: " + ", ".join(f"{w} {n}" for w, n in steps.items())
            + f" (of {sum(steps.values())}).")


def _size(shape):
    size = 1
    for d in shape:
        size *= int(d)
    return size
