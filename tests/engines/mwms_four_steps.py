"""What a %%px cell runs on every worker: MultiWorkerMirroredStrategy over them, four custom
steps, and a `result` the test pulls from each worker. Read as text and sent to the engines."""
import json
import os

import keras
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])
    optimizer = keras.optimizers.SGD(0.1)
    optimizer.build(model.trainable_variables)
rng = np.random.default_rng(0)
x, y = rng.normal(size=(64, 8)).astype("float32"), rng.integers(0, 4, 64)
batches = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(16))
loss_of = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

@tf.function
def step(features, labels):
    def replica_step(features, labels):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_of(labels, model(features)), global_batch_size=16)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                      model.trainable_variables))
        return loss
    return strategy.reduce("SUM", strategy.run(replica_step, args=(features, labels)), axis=None)

losses = [round(float(step(f, l)), 6) for f, l in batches]
result = {"task": json.loads(os.environ["TF_CONFIG"])["task"], "replicas": strategy.num_replicas_in_sync,
          "losses": losses, "weights": [w.numpy().tolist() for w in model.weights]}
