"""askdocs.server"""
