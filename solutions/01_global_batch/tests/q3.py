from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=1, hidden=False)
def test_dist_train_is_distributed(dist_train):
    import tensorflow as tf
    assert dist_train is not None and dist_train is not ..., 'set dist_train to the distributed dataset'
    assert isinstance(dist_train, tf.distribute.DistributedDataset), f'dist_train should come from strategy.experimental_distribute_dataset, got {type(dist_train).__name__}'

@test_case(points=1, hidden=True, 
    failure_message="replica_shapes: one tuple per replica, the shape of that replica's slice of the first image batch")
def test_replica_shapes(replica_shapes, strategy, GLOBAL_BATCH, course):
    n = strategy.num_replicas_in_sync
    expected = [(GLOBAL_BATCH // n, *course.image_shape)] * n
    assert [tuple((int(d) for d in s)) for s in replica_shapes] == expected

