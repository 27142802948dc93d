"""Embedding providers behind one small protocol, resolved from settings by a registry."""
