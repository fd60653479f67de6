from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=1, hidden=False)
def test_dist_train_is_distributed(dist_train):
    import tensorflow as tf
    assert dist_train is not None and dist_train is not ..., 'set dist_train to the distributed dataset'
    assert isinstance(dist_train, tf.distribute.DistributedDataset), f'dist_train should come from strategy.experimental_distribute_dataset, got {type(dist_train).__name__}'

