"""The strategies' own per-device pipelines, without tf.data's autotuning thread.

Under ``OneDeviceStrategy`` and ``MirroredStrategy``, Keras ``fit`` (through
``strategy.experimental_distribute_dataset``) feeds each device through a small pipeline of the
strategy's own: a generator that hands the device its share of each batch from the input
pipeline, and a prefetch of one element. Each is a new dataset, so the input pipeline's
``options.autotune.enabled = False`` does not reach it: it runs tf.data's autotuning thread,
which wakes 10 ms after the pipeline starts, then 20 ms, 40 ms and so on later, and a call whose
data had ended can wait for that thread's next wake-up before it returns (lesson 1 measures
it: calls of about 3.5 s that took 5.3 s, epochs of 13 s that took 20.5 s).

These pipelines have nothing to tune: their prefetch holds a fixed one element. Turning their
autotuning off changes no buffer; it only takes the thread away. TensorFlow has no public option
that reaches them (``tf.distribute.InputOptions`` sets their buffer size, not their options), so
``turn_off()`` wraps the private function that builds them,
``multi_device_iterator_ops._create_device_dataset``, to add
``autotune.enabled = False`` to what it returns. ``data.batches`` calls it, so every strategy
fed by a course pipeline gets it; it lasts for the process. The sentinel
``tests/upstream/test_sentinels.py`` fails the day TensorFlow passes the option on itself, and
``status()`` says "unavailable" where the private function is gone. ``turn_on()`` puts
TensorFlow's own function back (``benchmarks/autotune_wait.py`` times both).
"""

_WRAPPED = "_tfdist_edu_no_autotune"


def turn_off():
    """Turn tf.data's autotuning off in every per-device pipeline the strategies build from now
    on, in this process. Returns ``status()``. Safe to call again."""
    from tensorflow.python.data.ops import multi_device_iterator_ops as built_here

    build = getattr(built_here, "_create_device_dataset", None)
    if build is None or getattr(build, _WRAPPED, False):
        return status()

    def without_autotuning(*args, **kwargs):
        import tensorflow as tf

        options = tf.data.Options()
        options.autotune.enabled = False
        return build(*args, **kwargs).with_options(options)

    setattr(without_autotuning, _WRAPPED, True)
    without_autotuning.__wrapped__ = build
    built_here._create_device_dataset = without_autotuning
    return status()


def turn_on():
    """Undo ``turn_off()``: TensorFlow's own builder again, autotuning on in what it builds."""
    from tensorflow.python.data.ops import multi_device_iterator_ops as built_here

    build = getattr(built_here, "_create_device_dataset", None)
    if getattr(build, _WRAPPED, False):
        built_here._create_device_dataset = build.__wrapped__
    return status()


def status():
    """"off" when the per-device pipelines run without autotuning, "on" when they still run it,
    "unavailable" when this TensorFlow no longer builds them where ``turn_off`` reaches."""
    from tensorflow.python.data.ops import multi_device_iterator_ops as built_here

    build = getattr(built_here, "_create_device_dataset", None)
    if build is None:
        return "unavailable"
    return "off" if getattr(build, _WRAPPED, False) else "on"
