"""The MCP server for coding agents (``askdocs mcp``).

``app`` picks the mode and checks auth at the transport boundary (``auth``); ``server``
holds the tools on the SDK's ``MCPServer``; ``local`` (in-process engine, background
``indexing``, ``pages``) and ``remote`` (HTTP API, ``wire``) are the two backends;
``transports`` runs stdio or streamable HTTP. See docs/user-guide/mcp.md.
"""
