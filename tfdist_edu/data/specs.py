"""What each course dataset is: its shapes and classes, and the files that hold the real data.

``SPECS`` maps a name of ``NAMES`` to a ``Spec``. Fashion-MNIST's real data can come from its
four original IDX files, each recorded here with the shape and the SHA-256 of its decoded
array, so a copy is accepted by its content, whoever compressed it: Debian's package
re-compressed the ``.gz`` files (24 bytes smaller than the originals), which TFDS's file
checksums reject. The hashes were computed once from those Debian files; their uncompressed
sizes match the originals' (train images 47,040,016 bytes, train labels 60,008).
"""

import dataclasses
from typing import Callable

from tfdist_edu import synthetic

NAMES = ("fashion_mnist", "svhn")


@dataclasses.dataclass(frozen=True)
class IdxFile:
    """One IDX file: its official name (gzip-compressed), its array's shape and content hash."""

    name: str  # the plain file's name is this without ".gz"
    shape: tuple  # of the uint8 array: (count, 28, 28) for images, (count,) for labels
    sha256: str  # hex digest of the array's bytes (the file after its header)


@dataclasses.dataclass(frozen=True)
class Spec:
    title: str
    tfds_name: str
    image_shape: tuple
    class_names: tuple
    split_sizes: tuple  # (train, test) of the official splits; the stand-in matches them
    official_files: tuple  # what TFDS looks for in a manual_dir (checksums are verified)
    generate: Callable  # the stand-in: (n, seed) -> (uint8 images, int64 labels)
    idx_files: tuple = ()  # (train images, train labels, test images, test labels), or none
    idx_env: str = ""  # environment variable that names a folder holding the IDX files
    idx_keras: str = ""  # where keras.datasets keeps them, under $KERAS_HOME or ~/.keras
    idx_debian: str = ""  # where the Debian package installs them...
    idx_package: str = ""  # ...and its name


_FASHION_IDX = (
    IdxFile("train-images-idx3-ubyte.gz", (60_000, 28, 28),
            "2e487a6c89124f78f2d7521542223cafe96f7123c3ca13d447772ac6ecbb3012"),
    IdxFile("train-labels-idx1-ubyte.gz", (60_000,),
            "657fbd221bfc9f4198cc14b5619cc33ec57c58dd0e47af4d99d6650759e869a7"),
    IdxFile("t10k-images-idx3-ubyte.gz", (10_000, 28, 28),
            "c867c93ff95360594e8ec3287995350b824dd110b11595c0e13d5423f621867a"),
    IdxFile("t10k-labels-idx1-ubyte.gz", (10_000,),
            "3d0e6c6ea990b53b6f8f500a41cac93881d981b315f84578b7d915342ade01e9"),
)

SPECS = {
    "fashion_mnist": Spec(
        "Fashion-MNIST", "fashion_mnist", (28, 28, 1), synthetic.FASHION_CLASSES, (60_000, 10_000),
        tuple(file.name for file in _FASHION_IDX), synthetic.fashion_mnist,
        idx_files=_FASHION_IDX, idx_env="TFDIST_EDU_FASHION_MNIST_DIR",
        # keras.datasets.fashion_mnist.load_data() downloads into this cache sub-folder.
        idx_keras="datasets/fashion-mnist",
        # `apt-get install dataset-fashion-mnist` (Debian bookworm, main).
        idx_debian="/usr/share/datasets/fashion-mnist", idx_package="dataset-fashion-mnist"),
    "svhn": Spec(
        "SVHN", "svhn_cropped", (32, 32, 3), synthetic.SVHN_CLASSES, (73_257, 26_032),
        # TFDS prepares the 'extra' split too, so it needs all three files.
        ("train_32x32.mat", "test_32x32.mat", "extra_32x32.mat"),
        synthetic.svhn),
}


def get(name):
    """Return the ``Spec`` of ``name``; an unknown name gets a ValueError listing ``NAMES``."""
    if name not in SPECS:
        raise ValueError(f"unknown dataset {name!r}; choose one of {', '.join(NAMES)}")
    return SPECS[name]
