"""tfdist_edu.loss_scaling.short_batch: the three denominators of a short last batch, as lesson 3
and deck 3 state them."""

import numpy as np
import pytest

from tfdist_edu import loss_scaling


def test_three_denominators_agree_on_full_batches_and_differ_on_an_uneven_short_one(strategy):
    full, short = loss_scaling.short_batch_demo(strategy)  # seven losses, global batch 4
    assert full.split == [2, 2] and short.split == [2, 1]
    assert full.losses == {"fixed": full.true_mean, "default": full.true_mean,
                           "actual": full.true_mean}
    losses = np.array(loss_scaling.TOY_LOSSES)
    assert short.examples == list(losses[4:]) and short.true_mean == pytest.approx(2.0)
    assert short.losses["fixed"] == pytest.approx(losses[4:].sum() / 4)
    # the default divides each replica's sum by its own examples x the replicas
    assert short.losses["default"] == pytest.approx((1 + 2) / (2 * 2) + 3 / (1 * 2))
    assert short.losses["actual"] == pytest.approx(short.true_mean)


def test_an_even_short_batch_hides_the_default_denominator(strategy):
    # Deck 3 once used 10 examples in batches of 4: the short batch [8, 9] splits 1 + 1, where
    # the default happens to equal the true mean. The uneven split above is the honest example.
    *_, short = loss_scaling.short_batch_demo(strategy, range(10), 4)
    assert short.split == [1, 1] and short.losses["default"] == pytest.approx(short.true_mean)


def test_the_denominator_cases_quote_their_own_source():
    assert loss_scaling.source_of(loss_scaling.default_denominator) == (
        "tf.nn.compute_average_loss(per_example)")
    assert "all_reduce" in loss_scaling.source_of(loss_scaling.actual_denominator)
