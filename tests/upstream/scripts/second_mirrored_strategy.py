"""Reproduces an upstream bug in a process of its own; tests/upstream/test_sentinels.py runs it."""
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import keras, numpy as np
x, y = np.random.rand(64, 8).astype("float32"), np.random.randint(0, 3, 64)
for units in (16, 4):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(units), keras.layers.Dense(3)])
        model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, batch_size=16, epochs=1, verbose=0)
print("SECOND STRATEGY TRAINED")
