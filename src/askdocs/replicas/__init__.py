"""What several ``askdocs serve`` replicas on one database share, and how they agree: the
change version every replica polls (``changes``), the install id that scopes this install's
collections on a shared Qdrant server (``install``), and the lock that lets one replica at a
time build the index (``locks``). See docs/deployment.md, "What replicas share"."""
