"""The tour's four arms: default and mirrored strategy, each with Model.fit and a custom loop.

Every arm trains the same model at the same global batch with the same ``jit_compile``, and
runs in equal blocks of steps so the tour can alternate the arms block by block: a machine
that slows down for a while then slows every arm, not just the one that happened to run.
"""

# The arms compared with each other run next to each other in every round (the order reverses
# each round), so each ratio sets two blocks back to back.
RUNS = (("default", "fit"), ("mirrored", "fit"),
        ("default", "custom loop"), ("mirrored", "custom loop"))
# Explicit on every arm. Keras's "auto" would turn XLA on for the default strategy on a GPU and
# off under MirroredStrategy (keras/src/trainers/trainer.py, _resolve_auto_jit_compile): an
# unfair race. The custom loop's tf.function has no XLA either (training.CustomLoop).
JIT_COMPILE = False


class Arm:
    """One strategy x training method, trained a block of steps at a time."""

    def __init__(self, strategy_name, method, course, global_batch, steps_per_block, hardware):
        import keras  # here, not at the top: `tfdist-edu tour --help` must not wait for TensorFlow

        from tfdist_edu import data, models, strategies, timing, training
        from tfdist_edu.tour.blocks import one_thread_options

        self.method = method
        self.strategy = strategies.make(strategy_name)
        self.steps = steps_per_block
        self.run = timing.RunTiming.of(
            f"{strategy_name} {method}", self.strategy, course, global_batch, hardware=hardware,
            data=course.label, jit_compile=JIT_COMPILE, examples_per_epoch=0)
        # Uncached: under a strategy Keras's evaluate first reads one batch to build the
        # model and drops that iterator, and a cache left half-read is discarded with the
        # warning "The calling iterator did not fully read the dataset being cached".
        # One thread too, like the training blocks: an autotuned evaluation pipeline kept
        # tf.data threads busy into the next rounds (every arm's blocks slowed by a quarter).
        self.test = data.batches(course.test, global_batch, shuffle=False, cache=False).with_options(
            one_thread_options())
        keras.utils.set_random_seed(0)
        with self.strategy.scope():
            self.model = models.for_data(course)
            optimizer = keras.optimizers.Adam(1e-3)
        if method == "fit":
            self.model.compile(optimizer, keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                               metrics=["accuracy"], jit_compile=JIT_COMPILE)
        else:
            self.loop = training.CustomLoop(self.strategy, self.model, optimizer, global_batch)
        self._logs = {}

    def run_block(self, train):
        """Train one block (``train``: a finite dataset of the block's batches); return the wall
        time of its steady steps, recorded with their CPU time and the whole call's time.

        Only the steps count: each block starts and drops an input iterator, and dropping a
        distributed one waited up to seconds for tf.data's background threads (the blocks then
        took ~2.6, 5.1 or 10.6 s for the same work). A real run starts one iterator per fit
        call, not one per block, so that cost is kept apart (``block_call_seconds``).
        """
        import time

        from tfdist_edu import timing

        clock, start = timing.StepClock(), time.perf_counter()
        if self.method == "fit":
            blocks = len(self.run.block_seconds)
            history = self.model.fit(train, epochs=blocks + 1, initial_epoch=blocks, verbose=0,
                                     shuffle=False, callbacks=[clock])
            self._logs = {k: v[-1] for k, v in history.history.items()}
        else:
            for name in ("loss", "accuracy"):
                self.loop.metrics[name].reset_state()
            for images, labels in self.strategy.experimental_distribute_dataset(train):
                self.loop.train_batch(images, labels)
                clock.tick()
            self._logs = {name: float(self.loop.metrics[name].result()) for name in ("loss", "accuracy")}
        self.run.block_call_seconds.append(time.perf_counter() - start)
        wall, cpu = clock.steady()
        typical = clock.median_step() * (len(clock.ticks) - 1)
        self.run.block_seconds.append(typical)
        self.run.block_wall_seconds.append(wall)
        self.run.block_cpu_seconds.append(cpu)
        return typical

    def end_epoch(self, blocks_per_epoch):
        """Close an epoch: its time is the sum of its blocks' timed steps (all but each block's
        first); evaluate on the test split."""
        self.run.epoch_seconds.append(sum(self.run.block_seconds[-blocks_per_epoch:]))
        self.run.steps_per_epoch = (self.steps - 1) * blocks_per_epoch
        self.run.examples_per_epoch = self.run.steps_per_epoch * self.run.global_batch
        if self.method == "fit":
            val_loss, val_accuracy = self.model.evaluate(self.test, verbose=0)
        else:
            val_loss, val_accuracy = self.loop.evaluate(self.test)
        logs = {"loss": self._logs.get("loss"), "accuracy": self._logs.get("accuracy"),
                "val_loss": val_loss, "val_accuracy": val_accuracy}
        for key, value in logs.items():
            self.run.history.setdefault(key, []).append(float(value))
