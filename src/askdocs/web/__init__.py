"""askdocs.web"""
