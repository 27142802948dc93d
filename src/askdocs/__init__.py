"""askdocs: a self-hosted documentation knowledge service."""

__version__ = "0.1.0"
