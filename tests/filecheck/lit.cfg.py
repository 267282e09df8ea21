# lit configuration for tilec's FileCheck tests (run by tests/test_filecheck.py).
import os
import sys

import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".ta"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py"]
# the tilec and filecheck of the Python that runs the tests come first
config.environment["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
