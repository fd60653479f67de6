"""The tour's blocks: every arm trains on the same batches, and an epoch's blocks never overlap."""
import numpy as np

from tfdist_edu import data
from tfdist_edu.tour.blocks import BlockData


def _blocks():
    course = data.load("fashion_mnist", source="synthetic", num_train=1024, num_test=128)
    return BlockData(course, global_batch=32, steps=8, blocks_per_epoch=4)


def test_an_epochs_blocks_cover_distinct_examples_and_the_next_epoch_reshuffles():
    blocks = _blocks()
    epoch = np.concatenate([blocks.indices(r) for r in range(4)])
    assert len(epoch) == len(set(epoch)) == 4 * 8 * 32
    assert not np.array_equal(blocks.indices(0), blocks.indices(4))


def test_a_round_gives_every_arm_the_same_batches():
    blocks = _blocks()
    first = [y.numpy().tolist() for _, y in blocks.dataset(2)]
    again = [y.numpy().tolist() for _, y in blocks.dataset(2)]
    assert first == again and len(first) == 8 and all(len(b) == 32 for b in first)
