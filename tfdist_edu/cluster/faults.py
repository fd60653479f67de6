"""Fault injection for ``launch_workers(kill=(k, epoch))``: worker k is SIGKILLed once every
worker has finished that epoch, its peers get time to fail on their own, and the whole cluster
restarts."""

import time

# How long the survivors of a killed worker get to fail by themselves before they are killed.
# Measured with TF 2.21: a peer inside a collective fails at once ("Socket closed"); otherwise the
# coordination service misses the dead task's heartbeats and fails the peer within about 10 s,
# with UnavailableError. Neither recovers: MultiWorkerMirroredStrategy needs the full cluster back.
PEER_GRACE_S = 15.0


class _FaultInjection:
    """The kill and restart part of :class:`~tfdist_edu.cluster.run._MultiWorkerRun`, which
    provides ``run``, ``sup``, ``pending_kill``, ``event``, ``epochs_done`` and ``start_all``."""

    def kill_when_due(self):
        """Once every worker finished the kill epoch, kill the worker, settle its peers, restart."""
        if self.pending_kill is None:
            return
        k, kill_epoch = self.pending_kill
        # Wait until every worker finished the epoch, so the chief's checkpoint of it exists.
        reached = [self.epochs_done(rec.index) for rec in self.run.workers]
        if min(reached) >= kill_epoch:
            self.pending_kill = None
            self.sup.kill(f"worker {k}")
            self.event("killed", k, f"worker {k} SIGKILLed after epoch {reached[k]}")
            self.settle_survivors(k)
            for rec in self.run.workers:
                rec.log += [*self.sup.children[f"worker {rec.index}"].lines, "--- restart ---"]
                rec.restarts += 1
            self.start_all()
            self.event("restarted", None, "all workers restarted with the same TF_CONFIG")

    def settle_survivors(self, killed):
        """Give the others PEER_GRACE_S to fail by themselves, record how, kill the rest."""
        survivors = {
            r.index: self.sup.children[f"worker {r.index}"]
            for r in self.run.workers
            if r.index != killed
        }
        end = time.monotonic() + PEER_GRACE_S
        while time.monotonic() < end and any(c.proc.poll() is None for c in survivors.values()):
            self.sup.pump()
            time.sleep(0.1)
        for index, child in survivors.items():
            code = child.proc.poll()
            if code is None:
                self.sup.kill(child.name)
                self.event(
                    "peer stuck",
                    index,
                    f"{child.name} was still blocked after {PEER_GRACE_S:g} s: killed",
                )
            else:
                child.expected_exit = True
                self.event(
                    "peer failed",
                    index,
                    f"{child.name} exited with status {code} when its peer died",
                )
