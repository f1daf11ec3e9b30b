"""pflbounds: encode, compute and check the theory of personalized federated learning."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pflbounds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"
