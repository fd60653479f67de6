# Generated from the cell 'l9-worker-script' of notebooks/09_keras_distribution.ipynb by scripts/lesson_scripts.py:
# edit the lesson, not this file.
"""Lesson 9: one process of a Keras 3 fit across processes, on JAX, under DataParallel."""
import argparse
import hashlib

import jax

# (1) CPU devices of different processes exchange data through gloo; set it before JAX starts.
jax.config.update("jax_cpu_collectives_implementation", "gloo")

import keras
import numpy as np

from tfdist_edu import models, worker
from tfdist_edu.keras_jax import arrays

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--steps-per-epoch", type=int, default=20)
parser.add_argument("--global-batch", type=int, default=128)
parser.add_argument("--learning-rate", type=float, default=0.05)
args = parser.parse_args()

# (2) Join the cluster: keras.distribution.initialize() calls jax.distributed.initialize() with
#     the coordinator's address, the number of processes and this process's id.
keras.utils.set_random_seed(0)  # the same initial weights in every process
keras.distribution.initialize()
process, processes = jax.process_index(), jax.process_count()
print(f"process {process} of {processes}: {jax.local_device_count()} device(s) here, "
      f"{jax.device_count()} in all")

# (3) One mesh over the devices of all processes. Each process feeds its own part of every
#     global batch, so Keras must not try to shard the input itself.
devices = keras.distribution.list_devices()
mesh = keras.distribution.DeviceMesh(shape=(len(devices),), axis_names=["batch"], devices=devices)
keras.distribution.set_distribution(
    keras.distribution.DataParallel(device_mesh=mesh, auto_shard_dataset=False))

# (4) Global batch b holds examples b*G ... (b+1)*G - 1; process p takes the p-th slice of it.
course = arrays.load(num_train=args.steps_per_epoch * args.global_batch, num_test=1)
per_process = args.global_batch // processes
shape = course.x_train.shape[1:]
x = course.x_train.reshape(args.steps_per_epoch, processes, per_process, *shape)[:, process]
y = course.y_train.reshape(args.steps_per_epoch, processes, per_process)[:, process]


class ReportEpochs(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        worker.report_epoch(epoch + 1)  # tells the launcher; does nothing outside it


model = models.fashion_cnn()
model.compile(optimizer=keras.optimizers.SGD(args.learning_rate),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
history = model.fit(x.reshape(-1, *shape), y.reshape(-1), batch_size=per_process,
                    epochs=args.epochs, shuffle=False, verbose=2, callbacks=[ReportEpochs()])

weights = [np.asarray(w) for w in model.get_weights()]  # replicated: each process holds them all
worker.write_result({
    "process": process, "processes": processes, "examples_per_step": per_process,
    "first_example": int(process * per_process), "loss": history.history["loss"],
    "weights_sha256": hashlib.sha256(b"".join(w.tobytes() for w in weights)).hexdigest()[:16],
    "data": course.describe()})
