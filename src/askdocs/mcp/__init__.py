"""The MCP server for coding agents (``askdocs mcp``).

``app`` picks the mode and checks auth at the transport boundary (``auth``); ``server``
holds the documentation tools, generated from their rows of the operation table
(``operations``), on ``surface.DocsServer`` (page resources, prompts, short
argument errors); ``admin`` adds the changes a person approves through elicitation
(server mode), generated from the admin table; ``errors`` is the one code set of both
modes. ``local`` (in-process engine, background ``indexing``, ``pages``) and ``remote``
(HTTP API, ``wire``) are the two backends; ``transports`` runs stdio or streamable HTTP.
See docs/user-guide/mcp.md.
"""
