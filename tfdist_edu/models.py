"""The small CNNs the lessons share: one for Fashion-MNIST, one for SVHN.

Both return an uncompiled ``keras.Model`` that outputs logits, so losses use
``from_logits=True`` and the loss-scaling lessons can compute per-example losses.
Build them inside ``strategy.scope()`` so their variables are distributed.
"""

import keras


def fashion_cnn(input_shape=(28, 28, 1), num_classes=10, l2=0.0):
    """Return the Fashion-MNIST CNN (two conv layers, one dense layer) with logits output.

    ``l2`` > 0 adds an L2 kernel regulariser, whose losses appear in ``model.losses``.
    """
    reg = keras.regularizers.L2(l2) if l2 else None
    return keras.Sequential(
        [
            keras.Input(shape=input_shape),
            keras.layers.Conv2D(32, 3, activation="relu", kernel_regularizer=reg),
            keras.layers.MaxPooling2D(),
            keras.layers.Conv2D(64, 3, activation="relu", kernel_regularizer=reg),
            keras.layers.MaxPooling2D(),
            keras.layers.Flatten(),
            keras.layers.Dense(64, activation="relu", kernel_regularizer=reg),
            keras.layers.Dense(num_classes),
        ],
        name="fashion_cnn",
    )


def svhn_cnn(input_shape=(32, 32, 3), num_classes=10, l2=0.0):
    """Return the SVHN CNN (three conv blocks with batch normalisation) with logits output."""
    reg = keras.regularizers.L2(l2) if l2 else None
    layers = [keras.Input(shape=input_shape)]
    for filters in (32, 64, 128):
        layers += [
            keras.layers.Conv2D(filters, 3, padding="same", use_bias=False, kernel_regularizer=reg),
            keras.layers.BatchNormalization(),
            keras.layers.Activation("relu"),
            keras.layers.MaxPooling2D(),
        ]
    layers += [
        keras.layers.Flatten(),
        keras.layers.Dropout(0.3),
        keras.layers.Dense(128, activation="relu", kernel_regularizer=reg),
        keras.layers.Dense(num_classes),
    ]
    return keras.Sequential(layers, name="svhn_cnn")


def for_data(course_data, l2=0.0):
    """Return the CNN that fits a ``data.CourseData`` (chosen by its dataset name)."""
    build = {"fashion_mnist": fashion_cnn, "svhn": svhn_cnn}[course_data.name]
    return build(input_shape=course_data.image_shape, num_classes=course_data.num_classes, l2=l2)
