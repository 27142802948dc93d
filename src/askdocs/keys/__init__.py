"""The keys that sign and verify (bearer tokens, confirmation tokens, the visitor hash):
configured, else stored in the database wrapped with the secrets key, so every replica of an
install uses the same ones and rotating a key reaches them all (``ring``); the secrets key
itself (``wrap``); which keys there are and where each may come from (``specs``)."""

from askdocs.keys.ring import Key, KeyRing, key_name, standalone_ring
from askdocs.keys.specs import KEY_NAMES, KeyName
from askdocs.keys.wrap import SecretBox, secrets_key_file

__all__ = [
    "KEY_NAMES",
    "Key",
    "KeyName",
    "KeyRing",
    "SecretBox",
    "key_name",
    "secrets_key_file",
    "standalone_ring",
]
