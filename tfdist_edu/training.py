"""The reference distributed custom training loop, and checkpoints that outlive a strategy.

Lesson 3 writes this loop out cell by cell; the package keeps one tested copy for the tour,
the benchmarks and the graders to compare against.
"""

import keras
import tensorflow as tf

from tfdist_edu import timing


def scaled_loss(per_example_loss, global_batch_size, model=None):
    """Return one replica's share of the global-batch loss.

    Each replica divides by the *global* batch size, so the all-reduce SUM of the replicas'
    gradients equals the gradient of the mean loss over the whole batch. Regularisation losses
    are divided by the number of replicas for the same reason.
    """
    loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
    if model is not None and model.losses:
        loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
    return loss


class CustomLoop:
    """Train and evaluate a classifier with ``strategy.run`` and ``strategy.reduce``.

    Create ``model`` and ``optimizer`` inside ``strategy.scope()`` before building this.
    ``fit`` takes datasets batched with the *global* batch size and returns a history dict
    with the same keys as ``Model.fit`` (loss, accuracy, val_loss, val_accuracy).
    """

    # The step is an ordinary tf.function: no XLA. Compare it with Model.fit(jit_compile=False).
    jit_compile = False

    def __init__(self, strategy, model, optimizer, global_batch_size):
        self.strategy = strategy
        self.model = model
        self.optimizer = optimizer
        self.global_batch_size = global_batch_size
        self.loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)
        with strategy.scope():
            # Built here so its slot variables are mirrored like the model's weights.
            optimizer.build(model.trainable_variables)
            self.metrics = {
                "loss": keras.metrics.Mean(name="loss"),
                "accuracy": keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
                "val_loss": keras.metrics.Mean(name="val_loss"),
                "val_accuracy": keras.metrics.SparseCategoricalAccuracy(name="val_accuracy"),
            }
        self._train_epoch = tf.function(self._epoch_of(self._train_step))
        # One distributed step on a global batch (from a distributed dataset): the step a
        # loop calls once per batch; returns the summed replica losses.
        self.train_batch = tf.function(self._distributed(self._train_step))
        self._test_epoch = tf.function(self._epoch_of(self._test_step))

    def _train_step(self, images, labels):
        with tf.GradientTape() as tape:
            logits = tf.cast(self.model(images, training=True), tf.float32)
            per_example_loss = self.loss_fn(labels, logits)
            loss = scaled_loss(per_example_loss, self.global_batch_size, self.model)
            if isinstance(self.optimizer, keras.optimizers.LossScaleOptimizer):
                loss = self.optimizer.scale_loss(loss)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply(grads, self.model.trainable_variables)
        # What Model.fit reports: the mean over examples of (prediction loss + regularisation).
        regularisation = tf.add_n(self.model.losses) if self.model.losses else 0.0
        self.metrics["loss"].update_state(per_example_loss + regularisation)
        self.metrics["accuracy"].update_state(labels, logits)
        return loss

    def _test_step(self, images, labels):
        logits = tf.cast(self.model(images, training=False), tf.float32)
        self.metrics["val_loss"].update_state(self.loss_fn(labels, logits))
        self.metrics["val_accuracy"].update_state(labels, logits)
        return tf.constant(0.0)

    def _distributed(self, step):
        def run(images, labels):
            per_replica = self.strategy.run(step, args=(images, labels))
            return self.strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

        return run

    def _epoch_of(self, step):
        # The whole epoch in one tf.function: no Python between steps.
        distributed_step = self._distributed(step)

        def run(dist_dataset):
            for images, labels in dist_dataset:
                distributed_step(images, labels)

        return run

    def fit(self, train_ds, epochs=1, validation_data=None, run=None, loop_in_function=False,
            verbose=True):
        """Train for ``epochs``; return the history dict. ``run`` (a RunTiming) gets epoch times.

        ``loop_in_function=True`` traces the whole epoch into one graph; otherwise each step
        is a separate call, which lets the loop print progress between steps.
        """
        dist_train = self.strategy.experimental_distribute_dataset(train_ds)
        dist_test = (self.strategy.experimental_distribute_dataset(validation_data)
                     if validation_data is not None else None)
        run = run if run is not None else timing.RunTiming(name="custom loop")
        run.jit_compile = self.jit_compile
        history = {}
        for epoch in range(epochs):
            for metric in self.metrics.values():
                metric.reset_state()
            # The same progress line as Model.fit; its target is known from the second epoch.
            bar = keras.utils.Progbar(run.steps_per_epoch or None, stateful_metrics=list(self.metrics))
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}", flush=True)
            with timing.epoch(run):
                if loop_in_function:
                    self._train_epoch(dist_train)
                else:
                    run.steps_per_epoch = self._train_steps(dist_train, bar if verbose else None)
            if dist_test is not None:
                self._test_epoch(dist_test)
            logs = {name: float(m.result()) for name, m in self.metrics.items()
                    if dist_test is not None or not name.startswith("val_")}
            for name, value in logs.items():
                history.setdefault(name, []).append(value)
            run.history = history
            if verbose:
                bar.update(run.steps_per_epoch or 1, values=list(logs.items()), finalize=True)
        return history

    def _train_steps(self, dist_train, bar):
        steps = 0
        for images, labels in dist_train:
            self.train_batch(images, labels)
            steps += 1
            if bar is not None:
                bar.update(steps)
        return steps

    def evaluate(self, test_ds):
        """Return (loss, accuracy) over ``test_ds`` (batched with the global batch size)."""
        for name in ("val_loss", "val_accuracy"):
            self.metrics[name].reset_state()
        self._test_epoch(self.strategy.experimental_distribute_dataset(test_ds))
        return float(self.metrics["val_loss"].result()), float(self.metrics["val_accuracy"].result())


def save_checkpoint(directory, model, optimizer=None, max_to_keep=3):
    """Save model (and optimizer) weights as a TF checkpoint; return the checkpoint path.

    Works inside or outside a strategy: the checkpoint stores one copy of each mirrored
    variable, so it can be restored on any number of devices.
    """
    objects = {"model": model} | ({"optimizer": optimizer} if optimizer is not None else {})
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(**objects), directory, max_to_keep)
    return manager.save()


def restore_checkpoint(directory, model, optimizer=None):
    """Restore the latest checkpoint in ``directory`` into ``model``; return its path.

    ``model`` may live under a different strategy, or under none. Raises FileNotFoundError
    when the directory holds no checkpoint.
    """
    latest = tf.train.latest_checkpoint(directory)
    if latest is None:
        raise FileNotFoundError(f"no checkpoint in {directory!r}: train and save_checkpoint() first")
    objects = {"model": model} | ({"optimizer": optimizer} if optimizer is not None else {})
    status = tf.train.Checkpoint(**objects).restore(latest)
    # An optimizer left out, or not built yet, is fine: only the model must match.
    status.expect_partial()
    return latest
