"""pflbounds: encode, compute and check the theory of personalized federated learning."""

__version__ = "0.1.0"
"""The package version (read by the build from here; a plain string keeps imports fast)."""
