"""Where ``load`` gets the real data from: the decision, made in a few seconds.

In auto mode, in this order:

1. a copy that TFDS already prepared in ``data_dir``;
2. real IDX files on disk (the folders of ``idx_source``), read and checked;
3. for datasets without IDX files (SVHN): TFDS's official files in ``manual_dir``;
4. a TFDS download, when the network answers (``network.available``);
5. nothing real: ``load`` then uses the stand-in.

A folder whose IDX files are broken is skipped, its one-line reason printed. ``source="tfds"``
considers 1, 3 (for every dataset) and 4; ``source="idx"`` only 2, and raises on a broken file.
"""

import dataclasses
import os
import time

from tfdist_edu.data import idx, idx_source, network, tfds_source
from tfdist_edu.data.course import DataUnavailableError


@dataclasses.dataclass(frozen=True)
class Choice:
    source: str  # "tfds", "manual_dir", "idx", or "" when nothing real can be had
    reason: str
    location: str = ""  # source "idx": the folder
    arrays: tuple = ()  # source "idx": the checked train images, labels, test images, labels


def choose(spec, source, forced_by, data_dir=None, manual_dir=None):
    """Return the ``Choice`` for ``source`` "auto", "tfds" or "idx" (forced: ``forced_by``)."""
    if source == "idx":
        return _idx_only(spec, forced_by, manual_dir)
    is_prepared, tfds_dir = tfds_source.prepared(spec, data_dir)
    if is_prepared:
        return Choice("tfds", f"prepared copy in {tfds_dir}")
    checked = [f"nothing prepared in {tfds_dir}"]
    if source == "auto" and spec.idx_files:
        found = _first_idx(spec, manual_dir, checked)
        if found:
            return found
    elif manual_dir is not None:
        missing = [file for file in spec.official_files
                   if not os.path.isfile(os.path.join(manual_dir, file))]
        if not missing:
            return Choice("manual_dir", f"official files in {manual_dir}")
        checked.append(f"manual_dir lacks {', '.join(missing)}")
    start = time.perf_counter()
    if network.available():
        return Choice("tfds", f"network reachable, downloading to {tfds_dir}")
    return Choice("", f"offline: {network.PROBE_HOST} not reached in "
                      f"{time.perf_counter() - start:.1f} s; " + "; ".join(checked))


# AutoGraph calls ``choose`` as it is, as tf.autograph.experimental.do_not_convert would mark it
# (the attribute it sets), without importing TensorFlow here. A lesson's dataset_fn runs
# ``data.load`` inside a tf.function (ClusterCoordinator.create_per_worker_dataset): converted,
# the search for files walked into os.path.isfile and isdir and printed "AutoGraph could not
# transform <function isfile>" for each. Finding and reading files is Python work; the rest of
# ``load`` stays converted (it needs AutoGraph's int() of a dataset's cardinality in a graph).
choose.autograph_info__ = frozenset()


def _first_idx(spec, manual_dir, checked):
    """Return a Choice from the first folder with good IDX files, or None (notes in checked)."""
    empty, skipped = [], []
    for folder, where, arrays in _read_folders(spec, manual_dir, empty):
        if isinstance(arrays, idx.IdxFileError):
            print(f"{spec.title}: not using the IDX files of {where}: {arrays}", flush=True)
            skipped.append(f"{where} skipped: {arrays}")
            continue
        return Choice("idx", "; ".join([f"{where}, contents checked", *skipped]), folder,
                      tuple(arrays))
    if empty:
        skipped.append(f"no IDX files in {' or '.join(empty)}")
    checked.extend(skipped)
    return None


def _read_folders(spec, manual_dir, empty):
    """Yield (folder, where, arrays or the IdxFileError) for each IDX folder that has files;
    folders without any are appended to ``empty``. The caller decides: skip or raise."""
    for folder, where, named_by_user in idx_source.folders(spec, manual_dir):
        try:
            yield folder, where, idx_source.read(spec, folder, named_by_user)
        except idx_source.NoIdxFiles:
            empty.append(folder)
        except idx.IdxFileError as error:
            yield folder, where, error


def _idx_only(spec, forced_by, manual_dir):
    """Return a Choice of IDX files, or raise DataUnavailableError in one line."""
    if not spec.idx_files:
        raise DataUnavailableError(f"{spec.title} has no IDX files ({forced_by}); use "
                                   f"source='auto', 'tfds' or 'synthetic'")
    empty = []
    for folder, where, arrays in _read_folders(spec, manual_dir, empty):
        if isinstance(arrays, idx.IdxFileError):
            raise DataUnavailableError(f"{arrays} ({forced_by} requires good IDX files)")
        return Choice("idx", f"{where}, contents checked", folder, tuple(arrays))
    raise DataUnavailableError(
        f"{spec.title} is required from IDX files ({forced_by}) but there are none in "
        f"{' or '.join(empty)}: install them (apt-get install {spec.idx_package}), put "
        f"{', '.join(f.name for f in spec.idx_files)} in a folder named by {spec.idx_env} or "
        f"in manual_dir=, or use source='auto'.")
