"""Configuration checks around ``Settings``: unknown keys refused with the file line and
the closest valid key, every error in one line, and where each effective value came from."""
