"""Q3: first_replica_shapes(strategy, dataset), and dist_train distributed."""
# ruff: noqa: F821 - probe() runs in the student's namespace, where their names are defined

from tfdist_instructor.grading.catalog import case, returned


def inputs(rng):
    return {"batch": int(rng.integers(2, 40)), "image": [int(rng.integers(2, 9)), int(rng.integers(2, 9)), 3]}


def probe(inputs):
    import numpy as np
    import tensorflow as tf

    images = np.zeros((inputs["batch"] * 3, *inputs["image"]), "float32")
    dataset = tf.data.Dataset.from_tensor_slices((images, np.zeros(len(images), "int64"))).batch(inputs["batch"])
    return {"distributed": attempt(lambda: isinstance(dist_train, tf.distribute.DistributedDataset)),
            "shapes": attempt(lambda: [tuple(int(d) for d in s) for s in first_replica_shapes(strategy, dataset)])}


@case(1, public=True)
def dist_train_is_distributed(inputs, out):
    assert returned(out["distributed"], "dist_train") is True, \
        "dist_train should come from strategy.experimental_distribute_dataset"


@case(1, hint="one tuple per replica: the shape of that replica's slice of the first batch of images")
def replica_shapes_of_any_dataset(inputs, out):
    batch, image = inputs["batch"], tuple(inputs["image"])
    share = -(-batch // 2)  # 2 replicas; a short last share when the batch is odd
    assert returned(out["shapes"], "first_replica_shapes") == [(share, *image), (batch - share, *image)]
