"""Child side: train the job on one path under a strategy, and replay it on one device to compare."""

from tfdist_instructor.compat import job


def train(strategy, path, coordinator=None):
    """Train STEPS steps on ``path`` under ``strategy``; return a dict of what the verdict needs.

    ``loss``: what the run reports (``fit``: the epoch's mean loss; custom loop: the last step's
    reduced loss); ``changed``: whether the weights moved; ``checksum``: of the final weights;
    ``expected``: the same number from a replay of the same steps on one device, and
    ``same_weights``: whether the replay ends with the same weights; both None for the
    parameter-server strategy, whose asynchronous steps have no single-device replay.
    """
    import numpy as np
    import tensorflow as tf

    if path == "tf_keras_fit":
        keras_module = tf.keras  # tf-keras: TF_USE_LEGACY_KERAS=1 is set in this process
    else:
        import keras as keras_module
    global_batch = job.PER_REPLICA_BATCH * strategy.num_replicas_in_sync
    with strategy.scope():
        model = job.model(keras_module)
        optimizer = keras_module.optimizers.SGD(job.LEARNING_RATE)
    before = job.checksum(model)
    if path in ("keras_fit", "tf_keras_fit"):
        with strategy.scope():
            model.compile(optimizer=optimizer,
                          loss=keras_module.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(job.data(global_batch), epochs=1, steps_per_epoch=job.STEPS, verbose=0)
        loss = float(history.history["loss"][-1])
    else:
        loss = float(_custom_loop(strategy, model, optimizer, global_batch, coordinator))
    result = {"loss": loss, "checksum": job.checksum(model), "expected": None, "same_weights": None}
    result["changed"] = result["checksum"] != before
    if coordinator is None:
        replayed, weights = _replay(keras_module, global_batch)
        result["expected"] = sum(replayed) / len(replayed) if path.endswith("fit") else replayed[-1]
        result["same_weights"] = all(np.allclose(trained, replay, rtol=1e-3, atol=1e-5)
                                     for trained, replay in zip(model.get_weights(), weights))
    return result


def _replay(keras_module, global_batch):
    """Train the STEPS steps again on one device with no strategy; return (losses, final weights).

    Synchronous training over any number of replicas must compute these same numbers: the same
    seed gives the same starting weights, and each step sees the same global batch.
    """
    import tensorflow as tf

    model = job.model(keras_module)
    optimizer = keras_module.optimizers.SGD(job.LEARNING_RATE)
    loss_fn = keras_module.losses.SparseCategoricalCrossentropy(from_logits=True)
    losses = []
    for features, labels in job.data(global_batch).take(job.STEPS):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(features, training=True))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        losses.append(float(loss))
    return losses, model.get_weights()


def _custom_loop(strategy, model, optimizer, global_batch, coordinator):
    import keras
    import tensorflow as tf

    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)

    def replica_step(x, y):
        with tf.GradientTape() as tape:
            per_example = loss_fn(y, model(x, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def train_step(iterator):
        per_replica = strategy.run(replica_step, args=next(iterator))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    if coordinator is not None:  # parameter server: workers run the steps the coordinator schedules
        iterator = iter(coordinator.create_per_worker_dataset(lambda: job.data(global_batch)))
        scheduled = [coordinator.schedule(train_step, args=(iterator,)) for _ in range(job.STEPS)]
        coordinator.join()
        return scheduled[-1].fetch()
    iterator = iter(strategy.experimental_distribute_dataset(job.data(global_batch)))
    for _ in range(job.STEPS):
        loss = train_step(iterator)
    return loss
