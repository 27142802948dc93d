"""askdocs.answer"""
