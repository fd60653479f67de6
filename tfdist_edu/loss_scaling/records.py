"""The records ``loss_scaling_demo`` and ``regularization_demo`` return and ``plots`` draws."""

import dataclasses

SINGLE_DEVICE = "single device"


@dataclasses.dataclass(frozen=True)
class Case:
    """What one way of computing the loss gives for one global batch.

    ``code`` is the loss expression each replica computed; ``replica_losses`` holds the loss each replica returned (one entry for the single device),
    ``total_loss`` their sum (the loss the summed gradients belong to) and ``grad_norm`` the
    global norm of the gradients after the all-reduce sum, i.e. what the optimizer applies.
    """

    code: str
    replica_losses: list
    total_loss: float
    grad_norm: float


@dataclasses.dataclass(frozen=True)
class LossScalingResult:
    """The cases of one experiment, keyed by name, the single-device reference last.

    ``kind`` is "loss" (data loss only) or "regularization" (data loss plus a weight penalty,
    whose single-device value is ``penalty``). JSON-able with ``dataclasses.asdict``;
    ``from_dict`` reads it back.
    """

    kind: str
    replicas: int
    global_batch: int
    cases: dict
    penalty: float = 0.0

    def ratio(self, name):
        """Gradient norm of case ``name`` divided by the single-device one (1.0 is right)."""
        return self.cases[name].grad_norm / self.cases[SINGLE_DEVICE].grad_norm

    @classmethod
    def from_dict(cls, record):
        cases = {name: Case(**case) for name, case in record["cases"].items()}
        return cls(**{**record, "cases": cases})
