"""Reproduces an upstream behaviour in a process of its own; tests/upstream/test_sentinels.py runs it.

Prints the activity-regulariser penalty Keras adds for a batch of 4 identical examples whose
per-example penalty is 1.0: 4.0 when summed over the batch, 1.0 when divided by the batch.
"""
import keras
import numpy as np

layer = keras.layers.Dense(1, kernel_initializer="ones", use_bias=False,
                           activity_regularizer=keras.regularizers.L2(1.0))
model = keras.Sequential([keras.Input((1,)), layer])
model(np.ones((4, 1), "float32"))
print(f"PENALTY {float(sum(model.losses)):.4f}")
