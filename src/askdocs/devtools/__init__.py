"""Developer tools that ship with the package (the import graph); no runtime code uses them."""
