"""Streaming decoders with the signatures of tokenizers.decoders."""

from ._core import DecodeStream

__all__ = ["DecodeStream"]
