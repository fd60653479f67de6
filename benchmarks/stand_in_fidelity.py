"""Does the offline stand-in learn like the real dataset? Train the course CNN and compare.

It trains the course CNN (``models.for_data``, Adam 1e-3) on the SYNTHETIC stand-in of
``tfdist_edu.synthetic`` and prints, per epoch, its test accuracy beside the published curve
on the real data, then the per-class accuracy table, the top confusions and a verdict line.
The full run (60k/10k Fashion-MNIST, 10 epochs) takes a few minutes on 2 CPU cores.

    .venv/bin/python benchmarks/stand_in_fidelity.py --dataset fashion_mnist --epochs 10
    .venv/bin/python benchmarks/stand_in_fidelity.py --dataset svhn --epochs 10
    .venv/bin/python benchmarks/stand_in_fidelity.py --dataset svhn --fast --epochs 3
"""

import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402

from tfdist_edu import data, hardware, models  # noqa: E402

# Real Fashion-MNIST, the course CNN with Adam, test accuracy (%) after each epoch: the
# reference material's published runs (see COURSE.md). MirroredStrategy, 4 replicas x 64:
FASHION_CURVE = (83.97, 86.57, 86.94, 88.06, 88.06, 88.82, 88.42, 89.46, 90.11, 89.90)
# ...and the same model in a custom training loop:
FASHION_CURVE_LOOP = (83.05, 85.70, 86.63, 86.86, 87.69, 88.93, 88.64, 88.64, 89.60, 89.33)
TOLERANCE = 3.0  # points of accuracy allowed between stand-in and published curve
CHECKED_EPOCHS = (1, 10)
# On real Fashion-MNIST, Shirt is the hardest class and is mistaken for these...
SHIRT_LOOKALIKES = ("T-shirt/top", "Pullover", "Coat")
# ...while these are easy (COURSE.md); "easy" here means at least this test accuracy (%):
EASY_CLASSES = ("Trouser", "Sandal", "Sneaker", "Bag", "Ankle boot")
EASY_ACCURACY = 93.0

# Real SVHN (cropped digits, test split), published accuracies of small models (%):
# Netzer et al. 2011, "Reading Digits in Natural Images with Unsupervised Feature Learning"
# (NIPS workshop): K-means features 90.6, stacked sparse auto-encoders 89.7, humans 98.0;
# Sermanet, Chintala and LeCun 2012, "Convolutional Neural Networks Applied to House Numbers
# Digit Classification" (ICPR, arXiv:1204.3968): a two-stage ConvNet 94.85.
SVHN_BAND = (90.6, 94.85)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", choices=data.NAMES, default="fashion_mnist")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256, help="global batch (default 256)")
    parser.add_argument("--fast", action="store_true",
                        help=f"fast mode's split sizes {data.FAST_SIZES} instead of the full ones")
    parser.add_argument("--seed", type=int, default=0, help="stand-in and weights seed")
    return parser.parse_args()


def load(args):
    """Generate the stand-in (timed) and return it with the test split as numpy arrays."""
    sizes = data.FAST_SIZES if args.fast else (None, None)
    start, cpu = time.perf_counter(), time.process_time()
    course = data.load(args.dataset, source="synthetic", num_train=sizes[0],
                       num_test=sizes[1], seed=args.seed)
    # CPU time too: on a shared machine the wall time also counts other processes' turns.
    print(f"{course.describe()}\n{course.num_train + course.num_test} images generated in "
          f"{time.perf_counter() - start:.1f} s ({time.process_time() - cpu:.1f} s of CPU)")
    labels = np.concatenate([y for _, y in data.batches(course.test, 4096, shuffle=False)])
    return course, labels


class Comparison(keras.callbacks.Callback):
    """After each epoch, print the stand-in's test accuracy beside the published real one."""

    def __init__(self, dataset):
        super().__init__()
        self.dataset = dataset
        self.test = []  # test accuracy (%) per epoch
        self.train = []

    def on_epoch_end(self, epoch, logs=None):
        self.test.append(100 * logs["val_accuracy"])
        self.train.append(100 * logs["accuracy"])
        line = f"  epoch {epoch + 1}: stand-in test {self.test[-1]:.2f}%"
        if self.dataset == "fashion_mnist" and epoch < len(FASHION_CURVE):
            line += (f" | real (published) {FASHION_CURVE[epoch]:.2f}%, difference "
                     f"{self.test[-1] - FASHION_CURVE[epoch]:+.2f}")
        print(line, flush=True)


def train(course, args):
    """Train the course CNN on the stand-in; return the model and the per-epoch record."""
    keras.utils.set_random_seed(args.seed)
    model = models.for_data(course)
    model.compile(optimizer=keras.optimizers.Adam(1e-3), metrics=["accuracy"],
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    comparison = Comparison(course.name)
    test = data.batches(course.test, args.batch, shuffle=False)
    model.fit(data.batches(course.train, args.batch, seed=args.seed), epochs=args.epochs,
              validation_data=test, callbacks=[comparison], shuffle=False, verbose=2)
    return model, comparison


def confusion_matrix(model, course, labels):
    """Rows: true class, columns: predicted class, in counts."""
    logits = model.predict(data.batches(course.test, 1024, shuffle=False), verbose=0)
    matrix = np.zeros((course.num_classes,) * 2, np.int64)
    np.add.at(matrix, (labels, logits.argmax(1)), 1)
    return matrix


def print_curve(comparison, dataset):
    print(f"\n{'epoch':>5} {'train %':>8} {'test %':>8}"
          + (f" {'real test % (published)':>24} {'difference':>10}" if dataset == "fashion_mnist"
             else ""))
    for epoch, (train, test) in enumerate(zip(comparison.train, comparison.test)):
        line = f"{epoch + 1:>5} {train:>8.2f} {test:>8.2f}"
        if dataset == "fashion_mnist" and epoch < len(FASHION_CURVE):
            line += f" {FASHION_CURVE[epoch]:>24.2f} {test - FASHION_CURVE[epoch]:>+10.2f}"
        print(line)


def print_classes(matrix, class_names, top=8):
    """Per-class test accuracy, then the ``top`` most frequent confusions."""
    recall = 100 * matrix.diagonal() / matrix.sum(1)
    print(f"\n{'class':<12} {'test accuracy %':>15}  most often mistaken for")
    for c, name in enumerate(class_names):
        errors = matrix[c].copy()
        errors[c] = 0
        print(f"{name:<12} {recall[c]:>15.1f}  {class_names[errors.argmax()]}")
    off_diagonal = matrix - np.diag(matrix.diagonal())
    print(f"\ntop {top} confusions (share of the true class's test examples):")
    for flat in np.argsort(off_diagonal, axis=None)[::-1][:top]:
        true, predicted = np.unravel_index(flat, matrix.shape)
        print(f"  {class_names[true]:<12} -> {class_names[predicted]:<12} "
              f"{100 * matrix[true, predicted] / matrix[true].sum():5.1f}%")
    return recall


def fashion_verdict(comparison, matrix, class_names, recall):
    """Return (passed, reasons) for the Fashion-MNIST checks of issue 13."""
    checks = []
    for epoch in CHECKED_EPOCHS:
        if epoch <= len(comparison.test):
            gap = comparison.test[epoch - 1] - FASHION_CURVE[epoch - 1]
            checks.append((abs(gap) <= TOLERANCE, f"epoch {epoch} {gap:+.1f} points"))
        else:
            checks.append((False, f"epoch {epoch} not trained"))
    checks.append((comparison.train[-1] > comparison.test[-1], "train above test at the end"))
    shirt = class_names.index("Shirt")
    checks.append((recall.argmin() == shirt, f"worst class {class_names[recall.argmin()]}"))
    errors = matrix[shirt].copy()
    errors[shirt] = 0
    lookalikes = {class_names[c] for c in np.argsort(errors)[::-1][:3]}
    checks.append((lookalikes == set(SHIRT_LOOKALIKES),
                   f"Shirt mistaken mostly for {', '.join(sorted(lookalikes))}"))
    easy = min(recall[class_names.index(name)] for name in EASY_CLASSES)
    checks.append((easy >= EASY_ACCURACY, f"easy classes at least {easy:.1f}%"))
    return checks


def svhn_verdict(comparison):
    low, high = SVHN_BAND
    final = comparison.test[-1]
    return [(low - TOLERANCE <= final <= high + TOLERANCE,
             f"final test {final:.1f}% vs published small models {low}-{high}%")]


def learning_verdict(comparison, rise=10.0):
    """Fast mode only asks for visible learning: the published figures are for full splits."""
    first, last = comparison.train[0], comparison.train[-1]
    reason = f"fast mode: training accuracy {first:.1f}% -> {last:.1f}% ({rise:.0f}+ points wanted)"
    return [(last - first >= rise, reason)]


def main():
    args = parse_args()
    print(f"machine: {hardware.detect(probe_tpu=False).summary()}")
    course, labels = load(args)
    start = time.perf_counter()
    model, comparison = train(course, args)
    print(f"trained {args.epochs} epochs at global batch {args.batch} in "
          f"{time.perf_counter() - start:.0f} s")
    print_curve(comparison, course.name)
    matrix = confusion_matrix(model, course, labels)
    recall = print_classes(matrix, course.class_names)
    if args.fast:
        checks = learning_verdict(comparison)
    elif course.name == "fashion_mnist":
        checks = fashion_verdict(comparison, matrix, course.class_names, recall)
    else:
        checks = svhn_verdict(comparison)
    passed = all(ok for ok, _ in checks)
    print(f"\nVERDICT: {'PASS' if passed else 'FAIL'}: "
          + "; ".join(f"{reason} [{'ok' if ok else 'no'}]" for ok, reason in checks))


if __name__ == "__main__":
    main()
