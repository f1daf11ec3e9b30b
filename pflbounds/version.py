"""The package version (read by the build from here; a plain string keeps imports fast)."""

__version__ = "0.1.0"
