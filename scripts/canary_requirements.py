"""The nightly canary's requirements, and its check that no release sits beside a nightly.

    python scripts/canary_requirements.py [--without NAME ...]   prints requirements, one a line
    python scripts/canary_requirements.py --absent NAME ...      exits 1 if one is installed

Reads pyproject.toml (dependencies and the course, test, legacy, profile and jax extras, those
`make test` installs: lesson 9 runs Keras on JAX, lesson 5 converts its trace with xprof) and
instructor/pyproject.toml, the requirements `pip install -e ".[course,test,legacy,profile,jax]"
-e ./instructor` resolves. ``--without`` drops requirements by distribution name: the nightly
canary drops tensorflow, keras and tf-keras (tf-nightly, keras-nightly and tf-keras-nightly
provide their modules) and the course itself, then installs the course with --no-deps, so pip
never puts a release beside a nightly. TensorBoard stays the release (tf-nightly does not
require it; tb-nightly is older than tensorboard 2.21.0).
"""

import argparse
import re
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = ("course", "test", "legacy", "profile", "jax")  # as `make test` installs them


def name_of(requirement):
    """The normalised distribution name of a requirement string ("tf_keras>=2" -> "tf-keras")."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(without=()):
    """The requirement strings of the course and the instructor tooling, minus ``without``."""
    course = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    instructor = tomllib.loads((ROOT / "instructor" / "pyproject.toml").read_text())["project"]
    found = [*course["dependencies"], *(r for extra in EXTRAS for r in course["optional-dependencies"][extra]),
             *instructor["dependencies"]]
    dropped = {name_of(name) for name in without}
    return list(dict.fromkeys(r for r in found if name_of(r) not in dropped))


def installed(names):
    """Those of ``names`` that are installed distributions (names compared normalised)."""
    from importlib import metadata

    present = {name_of(d.metadata["Name"]) for d in metadata.distributions()}
    return [name for name in names if name_of(name) in present]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", nargs="*", default=[], metavar="NAME")
    parser.add_argument("--absent", nargs="+", metavar="NAME")
    args = parser.parse_args(argv)
    if args.absent:
        found = installed(args.absent)
        if found:
            print(f"installed beside the nightlies, which provide the same modules: "
                  f"{', '.join(found)}", file=sys.stderr)
            return 1
        return 0
    print("\n".join(requirements(args.without)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
