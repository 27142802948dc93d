"""askdocs.assistant"""
