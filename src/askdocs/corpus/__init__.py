"""askdocs.corpus"""
