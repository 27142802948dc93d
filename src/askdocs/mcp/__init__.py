"""askdocs.mcp"""
