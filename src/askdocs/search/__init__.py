"""askdocs.search"""
