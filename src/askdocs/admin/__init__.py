"""The admin domain: organisation sites and their pages, platform inference providers with
encrypted keys, tool grants and indexing runs, changed only through Propose/Apply.

``AdminApi`` (``askdocs.admin.api``) is what the assistant tools and ``/api/v1/admin``
call. See docs/admin-tools.md.
"""
