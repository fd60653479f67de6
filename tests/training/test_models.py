import numpy as np

from tfdist_edu import models


def test_fashion_cnn_outputs_one_logit_per_class():
    model = models.fashion_cnn()
    out = model(np.zeros((3, 28, 28, 1), "float32"))
    assert out.shape == (3, 10)


def test_svhn_cnn_outputs_one_logit_per_class():
    model = models.svhn_cnn()
    out = model(np.zeros((2, 32, 32, 3), "float32"), training=False)
    assert out.shape == (2, 10)


def test_l2_adds_regularisation_losses():
    model = models.fashion_cnn(l2=1e-3)
    model(np.zeros((1, 28, 28, 1), "float32"))
    assert len(model.losses) == 3
    assert not models.fashion_cnn().losses
