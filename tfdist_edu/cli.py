"""The ``tfdist-edu`` command for students: doctor and tour (instructors: ``tfdist-instructor``).

Subcommands import TensorFlow only when they run, so ``tfdist-edu --help`` answers at once.
"""

import argparse
import os
import sys


def _doctor(args):
    from tfdist_edu import quiet

    quiet.import_tensorflow()
    from tfdist_edu import data, hardware

    print(hardware.detect())
    print()
    print("Data sources:")
    print(f"  network reachable: {'yes' if data.network_available() else 'no'}")
    for name in data.NAMES:
        print(f"  {name}: {data.available_source(name)}")
    print()
    from tfdist_edu import steadiness

    print(f"Timing the machine's steadiness ({args.probe_seconds} s per probe)...", flush=True)
    print(steadiness.sentence(steadiness.probe(args.probe_seconds)))
    return 0


def _tour(args):
    from tfdist_edu import quiet, tour

    tour.check_arguments(args.epochs, args.replicas, args.batch, args.out)  # before TensorFlow
    quiet.import_tensorflow()  # its start-up lines stay out of the terminal; errors do not

    tour.run_tour(epochs=args.epochs, replicas=args.replicas, dataset=args.dataset,
                  source=args.source, out=args.out, per_replica_batch=args.batch)
    return 0


def _at_least_one(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser():
    """Return the argument parser of the ``tfdist-edu`` command."""
    from tfdist_edu import data, settings
    from tfdist_edu import tour as tour_pkg

    parser = argparse.ArgumentParser(
        prog="tfdist-edu", description="Helpers for the tf.distribute course.")
    sub = parser.add_subparsers(dest="command", required=True)

    doctor = sub.add_parser("doctor", help="print the hardware, versions and data sources found, "
                            "and whether the machine's memory system runs steadily")
    doctor.add_argument("--probe-seconds", type=_at_least_one, default=6,
                        help="one-second windows of each steadiness probe (default: 6)")
    doctor.set_defaults(func=_doctor)

    tour = sub.add_parser(
        "tour", help="train briefly with the default and the mirrored strategy and write a report")
    tour.add_argument("--epochs", type=int, default=None,
                      help="epochs per run (default: 3, or 2 in fast mode)")
    tour.add_argument("--replicas", type=int, default=2,
                      help="replicas for MirroredStrategy; CPUs are split to simulate them")
    tour.add_argument("--dataset", choices=data.NAMES, default="fashion_mnist")
    tour.add_argument("--source", choices=settings.DATA_SOURCES, default=None,
                      help="where data comes from (default: TFDIST_EDU_DATA, else auto)")
    tour.add_argument("--batch", type=int, default=tour_pkg.PER_REPLICA_BATCH,
                      help=f"per-replica batch size (default: {tour_pkg.PER_REPLICA_BATCH})")
    tour.add_argument("--out", default="tour-report", help="report folder (created)")
    tour.set_defaults(func=_tour)

    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    # TensorFlow's C++ INFO and WARNING lines are its own business, not the terminal's: a tour
    # printed "Local rendezvous is aborting with status: OUT_OF_RANGE" at the end of every
    # block of the custom loop. Errors still show. Set before TensorFlow is imported; a value
    # the user exported wins.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        return args.func(args)
    except (ValueError, RuntimeError, FileNotFoundError) as error:
        # Bad input and missing hardware get one clear line, not a traceback.
        print(f"tfdist-edu {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
