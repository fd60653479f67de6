from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=1, hidden=False)
def test_pipelines_give_global_batches(make_pipelines, course, GLOBAL_BATCH):
    import tensorflow as tf
    assert make_pipelines is not None, 'define a function named make_pipelines'
    pipelines = make_pipelines(course, GLOBAL_BATCH)
    assert isinstance(pipelines, tuple) and len(pipelines) == 2, 'return a tuple (train_ds, test_ds)'
    for name, ds in zip(('train_ds', 'test_ds'), pipelines):
        assert isinstance(ds, tf.data.Dataset), f'{name} should be a tf.data.Dataset, got {type(ds).__name__}'
        images, labels = next(iter(ds))
        assert tuple(images.shape) == (GLOBAL_BATCH, *course.image_shape), f'{name}: first batch of images has shape {tuple(images.shape)}, expected {(GLOBAL_BATCH, *course.image_shape)}'
        assert tuple(labels.shape) == (GLOBAL_BATCH,), f'{name}: first batch of labels has shape {tuple(labels.shape)}'

@test_case(points=1, hidden=True, 
    failure_message="test_ds must keep the original order and the last short batch (no shuffle, no drop_remainder)")
def test_test_pipeline_keeps_order_and_every_example(make_pipelines):
    import types
    import numpy as np
    import tensorflow as tf

    def split(n):
        return tf.data.Dataset.from_tensor_slices((np.zeros((n, 28, 28, 1), 'float32'), np.arange(n, dtype='int64')))
    fake = types.SimpleNamespace(train=split(100), test=split(50), image_shape=(28, 28, 1), num_classes=10, num_train=100, num_test=50)
    _, test_ds = make_pipelines(fake, 8)
    labels = np.concatenate([y.numpy() for _, y in test_ds])
    assert labels.tolist() == list(range(50))

@test_case(points=1, hidden=True, 
    failure_message="train_ds must be shuffled, in a new order every epoch, in batches of the global batch")
def test_train_pipeline_shuffles_every_epoch(make_pipelines):
    import types
    import numpy as np
    import tensorflow as tf

    def split(n):
        return tf.data.Dataset.from_tensor_slices((np.zeros((n, 28, 28, 1), 'float32'), np.arange(n, dtype='int64')))
    fake = types.SimpleNamespace(train=split(100), test=split(50), image_shape=(28, 28, 1), num_classes=10, num_train=100, num_test=50)
    train_ds, _ = make_pipelines(fake, 8)
    epochs = [np.concatenate([y.numpy() for _, y in train_ds]) for _ in range(2)]
    assert all((sorted(e.tolist()) == list(range(100)) for e in epochs))
    assert epochs[0].tolist() != list(range(100)) and epochs[0].tolist() != epochs[1].tolist()
    assert next(iter(train_ds))[1].shape[0] == 8

