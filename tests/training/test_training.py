import keras
import numpy as np
import pytest
import tensorflow as tf

from tfdist_edu import models, strategies, training

GLOBAL_BATCH = 32


def _data(n=256, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, n)
    images = rng.random((n, 28, 28, 1), dtype=np.float32) * 0.3
    images[np.arange(n), labels * 2, :, 0] += 0.7  # a learnable stripe per class
    return images, labels


def _dataset(images, labels):
    return tf.data.Dataset.from_tensor_slices((images, labels)).batch(GLOBAL_BATCH)


def _ctl(strategy, l2=0.0):
    keras.utils.set_random_seed(1)
    with strategy.scope():
        model = models.fashion_cnn(l2=l2)
        optimizer = keras.optimizers.SGD(0.05)
    return training.CustomLoop(strategy, model, optimizer, GLOBAL_BATCH)


def test_scaled_loss_divides_by_the_global_batch_and_adds_scaled_regularisation():
    per_example = tf.constant([1.0, 2.0, 3.0])
    assert float(training.scaled_loss(per_example, 6)) == pytest.approx(1.0)


def test_custom_loop_and_fit_follow_the_same_loss_trajectory():
    images, labels = _data()
    ctl = _ctl(tf.distribute.get_strategy(), l2=1e-4)
    ctl_history = ctl.fit(_dataset(images, labels), epochs=3, verbose=False)

    keras.utils.set_random_seed(1)
    model = models.fashion_cnn(l2=1e-4)
    model.compile(keras.optimizers.SGD(0.05),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    fit_history = model.fit(_dataset(images, labels), epochs=3, verbose=0).history
    np.testing.assert_allclose(ctl_history["loss"], fit_history["loss"], rtol=1e-3)


def test_mirrored_custom_loop_matches_the_single_device_loop():
    images, labels = _data()
    mirrored = strategies.make("mirrored")
    assert mirrored.num_replicas_in_sync == 2
    single = _ctl(tf.distribute.get_strategy()).fit(_dataset(images, labels), 2, verbose=False)
    multi = _ctl(mirrored).fit(_dataset(images, labels), 2, verbose=False)
    np.testing.assert_allclose(multi["loss"], single["loss"], rtol=1e-3)


def test_epoch_inside_tf_function_learns_and_reports_validation(capsys):
    images, labels = _data()
    loop = _ctl(strategies.make("mirrored"))
    history = loop.fit(_dataset(images, labels), epochs=4,
                       validation_data=_dataset(*_data(64, seed=1)), loop_in_function=True)
    assert history["loss"][-1] < history["loss"][0]
    assert set(history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert "Epoch 4/4" in capsys.readouterr().out


def test_checkpoint_from_mirrored_restores_without_a_strategy(tmp_path):
    images, labels = _data(64)
    loop = _ctl(strategies.make("mirrored"))
    loop.fit(_dataset(images, labels), epochs=1, verbose=False)
    training.save_checkpoint(str(tmp_path), loop.model, loop.optimizer)
    expected = loop.model.predict(images[:8], verbose=0)

    restored = models.fashion_cnn()
    training.restore_checkpoint(str(tmp_path), restored)
    np.testing.assert_allclose(restored.predict(images[:8], verbose=0), expected, atol=1e-5)


def test_restore_from_an_empty_folder_says_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match="save_checkpoint"):
        training.restore_checkpoint(str(tmp_path), models.fashion_cnn())
