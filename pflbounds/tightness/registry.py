"""The tightness models by name: the built-in ones (imported on first lookup) and those
registered with :func:`~pflbounds.tightness.models.register_model`, or one named by its
``"package.module:attribute"``. Kept apart from :mod:`pflbounds.tightness.models` so that the
model modules import the base classes without importing each other back."""

from __future__ import annotations

import importlib

from pflbounds.tightness.models import _MODELS, Model

__all__ = ["get_model", "models"]


def models() -> dict[str, Model]:
    """The registered models by name."""
    _builtin()
    return dict(_MODELS)


def get_model(name: str) -> Model:
    """The model named ``name``, or at ``"package.module:attribute"``; ``KeyError`` naming
    the known models."""
    _builtin()
    if name in _MODELS:
        return _MODELS[name]
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise KeyError(f"model {name!r} cannot be loaded: {e}") from None
        model = obj() if isinstance(obj, type) else obj
        if not isinstance(model, Model):
            raise KeyError(f"{name!r} is not a tightness model")
        return model
    raise KeyError(f"unknown model {name!r}; known: {', '.join(sorted(_MODELS))}")


_BUILTIN_LOADED: list[bool] = []


def _builtin() -> None:
    """Import the built-in model modules once (each registers its models on import), also
    when a user's model was registered first."""
    if not _BUILTIN_LOADED:
        from pflbounds.tightness import (  # noqa: F401
            afo,
            gaussian_means,
            local_sgd,
            logistic,
            pepit,
            quadratic,
        )

        _BUILTIN_LOADED.append(True)
