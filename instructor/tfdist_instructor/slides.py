"""Build the instructor decks in ``slides/`` into reveal.js HTML that opens offline.

Each deck is a notebook with slideshow metadata. The build executes it in a fresh kernel (so
every code cell and figure on a slide is produced by the code shown), converts it with
nbconvert's reveal exporter through the ``slides/reveal_offline`` template, and copies a local
reveal.js (installed from the npm registry by ``scripts/install_slide_deps.sh``) beside the
decks. Nothing is fetched when a deck is viewed: open the HTML from a file:// URL.
"""

import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tfdist_instructor import REPO_ROOT

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellControlSignal, DeadKernelError
from nbconvert import SlidesExporter
from traitlets.config import Config

DECKS_DIR = REPO_ROOT / "slides"
TEMPLATE_NAME = "reveal_offline"  # a folder in DECKS_DIR
REVEAL_ENV = "TFDIST_EDU_REVEAL_DIR"  # overrides where the npm copy of reveal.js is looked for
REVEAL_DIR = REPO_ROOT / "build" / "node_modules" / "reveal.js"
REVEAL_FOLDER = "reveal.js"  # the copy beside the built decks, which they load relatively
INSTALL_HINT = "scripts/install_slide_deps.sh reveal"
CELL_TIMEOUT_S = 600


class DeckError(RuntimeError):
    """A deck failed to execute; the message names the deck and shows the failing cell."""


def deck_paths(decks=None):
    """Return the deck notebooks to build, in course order.

    ``decks`` is None for every ``slides/NN_*.ipynb``, or a list of deck names (file stems such
    as ``"01_data_parallelism"``) and/or paths to notebooks. Raises ValueError for an unknown name.
    """
    available = sorted(DECKS_DIR.glob("[0-9][0-9]_*.ipynb"))
    if decks is None:
        return available
    by_name = {path.stem: path for path in available}
    chosen = []
    for deck in decks:
        path = Path(deck)
        if path.suffix == ".ipynb" and path.is_file():
            chosen.append(path.resolve())
        elif str(deck) in by_name:
            chosen.append(by_name[str(deck)])
        else:
            raise ValueError(
                f"unknown deck {deck!r}: use a notebook path or one of {', '.join(by_name) or '(none)'}"
            )
    return chosen


def find_reveal():
    """Return the local reveal.js package folder (the one with ``dist/reveal.js``).

    Looks at ``$TFDIST_EDU_REVEAL_DIR`` first, then ``build/node_modules/reveal.js``.
    Raises FileNotFoundError saying how to install it when neither holds reveal.js.
    """
    candidates = [Path(os.environ[REVEAL_ENV])] if os.environ.get(REVEAL_ENV) else []
    candidates.append(REVEAL_DIR)
    for folder in candidates:
        if (folder / "dist" / "reveal.js").is_file() and (folder / "plugin" / "notes" / "notes.js").is_file():
            return folder
    raise FileNotFoundError(
        f"reveal.js not found in {', '.join(map(str, candidates))}. "
        f"Install it from the npm registry with `{INSTALL_HINT}` (or set {REVEAL_ENV})."
    )


def vendor_reveal(out_dir):
    """Copy the parts of reveal.js a deck loads (core, themes and fonts, notes plugin) into
    ``out_dir/reveal.js`` and return that folder."""
    source = find_reveal()
    target = Path(out_dir) / REVEAL_FOLDER
    skip = shutil.ignore_patterns("*.map", "*.esm.js")
    shutil.copytree(source / "dist", target / "dist", ignore=skip, dirs_exist_ok=True)
    shutil.copytree(source / "plugin" / "notes", target / "plugin" / "notes", ignore=skip, dirs_exist_ok=True)
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    return target


def execute_deck(notebook_path, timeout=CELL_TIMEOUT_S):
    """Run every cell of a deck in a fresh kernel and return the executed notebook.

    The kernel starts in an empty temporary folder (decks write nothing into the repository) and
    inherits the environment, so ``TFDIST_EDU_FAST=1`` shrinks the work. A failing or timed-out
    cell, or a dead kernel, raises ``DeckError`` naming the deck and showing the cell.
    """
    nb = nbformat.read(notebook_path, as_version=4)
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # keep TensorFlow's C++ start-up chatter off the slides
    env.pop("TF_CONFIG", None)  # a leftover cluster config would change what the strategies see
    with tempfile.TemporaryDirectory(prefix="tfdist_slides_") as scratch:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": scratch}})
        try:
            client.execute(env=env)
        except (CellControlSignal, DeadKernelError) as error:
            raise DeckError(f"deck {Path(notebook_path).name} failed to build:\n{error}") from error
    return nb


def export_deck(nb, name, out_dir):
    """Convert an executed deck to ``out_dir/<name>.html`` with the offline template; return the path.

    Code cells tagged ``remove-input`` show their output only (the title slide's build line).
    """
    config = Config()
    config.TagRemovePreprocessor.remove_input_tags = {"remove-input"}
    config.CoalesceStreamsPreprocessor.enabled = True  # one block per cell, not one per print
    exporter = SlidesExporter(
        config=config,
        template_name=TEMPLATE_NAME,
        extra_template_basedirs=[str(DECKS_DIR)],
        reveal_url_prefix=REVEAL_FOLDER,
        reveal_theme="white",
        reveal_transition="none",  # transitions look sluggish on projectors and in screenshots
        reveal_number="c/t",
        reveal_width="1280",  # 16:9, the shape of most projectors
        reveal_height="720",
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": name}})
    path = Path(out_dir) / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    return path


def build_all(out_dir="build/slides", decks=None, verbose=False, jobs=1, executed=None):
    """Execute and convert the decks into ``out_dir``; return the built HTML paths in course order.

    ``decks`` selects decks as in ``deck_paths``. reveal.js is copied into ``out_dir`` first, so the
    folder is complete on its own: copy it anywhere and open a deck from a file:// URL.
    ``verbose`` prints each deck's path and build time as it is done. ``jobs`` decks are built at
    once, each in its own kernel; the default, one, keeps a deck's timings (deck 4's) its own.
    ``executed``, a dict, receives each executed notebook by deck name (``"01_data_parallelism"``).
    """
    notebooks = deck_paths(decks)
    if not notebooks:
        raise FileNotFoundError(f"no decks (NN_*.ipynb) in {DECKS_DIR}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    vendor_reveal(out)
    with ThreadPoolExecutor(max_workers=jobs) as pool:  # one worker: one deck after another
        return list(pool.map(lambda notebook: _build_deck(notebook, out, verbose, executed), notebooks))


def _build_deck(notebook, out, verbose, executed=None):
    """Execute and convert one deck into ``out`` (its notebook into ``executed``); return its HTML path."""
    start = time.perf_counter()
    nb = execute_deck(notebook)
    if executed is not None:
        executed[notebook.stem] = nb
    path = export_deck(nb, notebook.stem, out)
    if verbose:
        print(f"{path}  ({time.perf_counter() - start:.0f} s)", flush=True)
    return path


def add_cli(subparsers):
    """Register ``slides [--out DIR] [DECK ...]`` on an argparse subparsers object; return the parser."""
    parser = subparsers.add_parser(
        "slides",
        help="build the instructor decks into offline reveal.js HTML",
        description="Execute the decks in slides/ and convert them to reveal.js HTML that opens offline.",
    )
    parser.add_argument("--out", default="build/slides", help="output folder (default: build/slides)")
    parser.add_argument("decks", nargs="*", help="deck names such as 01_data_parallelism (default: all)")
    parser.set_defaults(func=_run_cli)
    return parser


def _run_cli(args):
    start = time.perf_counter()
    paths = build_all(args.out, args.decks or None, verbose=True)
    print(f"built {len(paths)} deck(s) in {time.perf_counter() - start:.0f} s; open them from {args.out}/")
    return 0
