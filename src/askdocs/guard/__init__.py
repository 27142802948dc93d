"""askdocs.guard"""
