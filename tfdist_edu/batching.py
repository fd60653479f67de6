"""Batch arithmetic under data parallelism: how one global batch is cut across replicas.

``BatchPlan(replicas, per_replica_batch)`` answers the questions lesson 0 asks and the batch
explorer shows: the global batch, the examples each replica gets, the loss denominators, the
learning-rate rule of thumb, and what happens to an epoch's short last batch.
"""

import dataclasses
import math
import numbers


def whole(name, value):
    """``value`` as an int, if it is a whole number >= 1 (numpy integers included)."""
    if not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    return int(value)


def split_batch(batch, replicas):
    """Per-replica sizes of one batch, as ``experimental_distribute_dataset`` cuts it.

    Each replica in turn takes ceil(batch / replicas) examples until none are left, so the
    last replicas of a short batch can get fewer, or none.
    """
    share = math.ceil(batch / replicas)
    return [max(0, min(share, batch - i * share)) for i in range(replicas)]


@dataclasses.dataclass(frozen=True)
class BatchPlan:
    """How one global batch is cut across replicas, and what that implies.

    Only the inputs are stored; everything else is derived. ``base_learning_rate`` is a rate
    that works at ``base_batch`` examples; ``examples`` (optional) is the dataset size.
    """

    replicas: int
    per_replica_batch: int
    base_learning_rate: float = 1e-3
    base_batch: int | None = None
    examples: int | None = None

    def __post_init__(self):
        # Checked here so a bad value is named before anything is derived from it.
        object.__setattr__(self, "replicas", whole("replicas", self.replicas))
        object.__setattr__(self, "per_replica_batch", whole("per_replica_batch", self.per_replica_batch))
        if self.base_learning_rate <= 0:
            raise ValueError(f"base_learning_rate must be positive, got {self.base_learning_rate!r}")
        object.__setattr__(self, "base_batch", self.base_batch or self.per_replica_batch)
        if self.examples is not None:
            object.__setattr__(self, "examples", whole("examples", self.examples))

    @property
    def global_batch(self):
        return self.replicas * self.per_replica_batch

    @property
    def slices(self):
        """The ``(start, stop)`` example range each replica gets from a full batch."""
        n = self.per_replica_batch
        return [(i * n, (i + 1) * n) for i in range(self.replicas)]

    @property
    def learning_rate(self):
        """``base_learning_rate`` scaled with the global batch (the linear rule of thumb)."""
        return self.base_learning_rate * self.global_batch / self.base_batch

    @property
    def steps_per_epoch(self):
        return None if self.examples is None else math.ceil(self.examples / self.global_batch)

    @property
    def last_batch(self):
        """Examples in the epoch's short last batch (0 when every batch is full)."""
        return None if self.examples is None else self.examples % self.global_batch

    @property
    def last_batch_split(self):
        return None if self.examples is None else split_batch(self.last_batch, self.replicas) if self.last_batch else []

    def denominators(self):
        """What each replica divides its summed per-example losses by, for a full batch:
        ``{code: (denominator, what the summed loss becomes)}``."""
        times = self.replicas
        return {
            f"tf.nn.compute_average_loss(per_example, global_batch_size={self.global_batch})": (
                self.global_batch, "the mean over the global batch: right"),
            "tf.reduce_mean(per_example)  # on each replica": (
                self.per_replica_batch,
                "the mean x 1: right" if times == 1 else
                f"{times} x the mean: gradients {times} times too large"),
        }

    def last_batch_denominators(self):
        """Denominators for the short last batch: ``{choice: one denominator per replica}``."""
        if not self.last_batch:
            return {}
        return {
            f"global_batch_size={self.global_batch} (fixed)": [self.global_batch] * self.replicas,
            "compute_average_loss with no global_batch_size (local size x replicas)": [
                n * self.replicas for n in self.last_batch_split],
            "the batch's true size": [self.last_batch] * self.replicas,
        }

    def __str__(self):
        lines = [f"{self.replicas} replica(s) x {self.per_replica_batch} examples each "
                 f"= global batch {self.global_batch}"]
        lines += [f"  replica {i}: examples {start}..{stop - 1}" for i, (start, stop) in enumerate(self.slices)]
        lines.append("Loss denominators (each replica sums its per-example losses, then divides):")
        lines += [f"  {code}: / {denominator} -> summed over replicas: {meaning}"
                  for code, (denominator, meaning) in self.denominators().items()]
        factor = self.global_batch / self.base_batch
        lines.append(f"Learning rate, rule of thumb (scale with the global batch): "
                     f"{self.base_learning_rate:g} at batch {self.base_batch} -> "
                     f"{self.learning_rate:g} at batch {self.global_batch} (x{factor:g})")
        if factor >= 8:
            lines.append("  a large factor: warm the rate up over the first epochs, then tune it")
        if self.examples is not None:
            lines += self._epoch_lines()
        return "\n".join(lines)

    def _epoch_lines(self):
        lines = [f"An epoch of {self.examples} examples: {self.steps_per_epoch} steps"]
        if not self.last_batch:
            return lines + ["  every batch is full"]
        split = " + ".join(str(n) for n in self.last_batch_split)
        lines.append(f"  the last batch has {self.last_batch} examples, split {split}; each replica divides by:")
        return lines + [f"    {choice}: {values}" for choice, values in self.last_batch_denominators().items()]

