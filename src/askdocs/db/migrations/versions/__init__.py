"""Numbered migration steps: ``NNNN_<what>.py``, revision id ``NNNN``."""
