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

