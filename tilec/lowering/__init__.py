"""The compiler's stages for one function: the ta rewrites, ta -> loop and ta -> tile, each a
straight-line pass pipeline (driver.py), and the pipeline text the command line reads
(pipeline.py). Imports nothing of tilec.graph, tilec.build or tilec.cli.
"""
