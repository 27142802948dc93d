"""The hardening battery as a repeatable harness: attacks and faults against a real
``askdocs serve`` it starts (PostgreSQL, a docs tree with bad files, scripted providers).

    .venv/bin/python -m bench.battery            # short mode (CI: tests/test_battery.py)
    .venv/bin/python -m bench.battery --full     # full mode (docs/hardening.md)

One line per category: ``category  probes=N  failures=N  figure``; exit code 1 when any
category has a failure.
"""
