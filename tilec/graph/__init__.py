"""A ta function as its kernels: the split of a function no one kernel takes into kernels and
strided copies (``split``, ``split_units``, ``merge_rows``, ``strided``), the 16-bit storage of
the tensors between them (``boundaries``), and the kernels run, verified and packaged as one
(tilec.build.plan.Kernels).

The layer between building (package, verification) and lowering (driver, passes): it imports
the lowering, never the command line.
"""
