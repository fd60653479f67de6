"""TOML reading on every Python the course supports: ``tomllib`` (3.11+), else ``tomli`` (3.10),
the package ``tomllib`` was made from (instructor/pyproject.toml installs it there)."""

try:
    import tomllib as _toml
except ModuleNotFoundError:  # Python 3.10
    import tomli as _toml

TOMLDecodeError = _toml.TOMLDecodeError
loads = _toml.loads
