"""askdocs.db"""
