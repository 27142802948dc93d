"""askdocs.reader"""
