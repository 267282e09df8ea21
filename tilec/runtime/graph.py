"""A graph compiled as several kernels: kernel packages launched in order on named tensors.

    graph = tilec.runtime.load("block.tkg")    # a graph package: graph.json and a .tkp per kernel
    y = graph(x)                                # or graph(in0=x); each kernel on the current stream

graph.json (format ``tilec.graph/1``) names the graph's inputs, its steps (a kernel package
and the names of the tensors it reads and writes, in its argument order) and, per result,
the tensor it is. A tensor between kernels is freed after its last reader. Like the rest of
tilec.runtime this imports torch and cuda-bindings only.
"""

from __future__ import annotations

import io
import json
import zipfile

from .package import PackageError, read_checked, read_package, sha256

FORMAT = "tilec.graph/1"


class KernelGraph:
    """Kernels called in order; call it with the graph's inputs (positionally or by name)."""

    def __init__(self, name: str, inputs: list, steps: list, results: list):
        self.name, self.inputs, self.steps, self.results = name, list(inputs), list(steps), list(results)
        known = set(self.inputs)
        for kernel, reads, writes in self.steps:
            missing = [n for n in reads if n not in known]
            if missing:
                raise PackageError(f"{name}: kernel '{kernel.name}' reads {', '.join(missing)} before any step writes it")
            known.update(writes)
        if any(source not in known for _, source in self.results):
            raise PackageError(f"{name}: a result is no input and no kernel's output")
        # after step k, the tensors no later step (and no result) reads
        last = {n: -1 for n in self.inputs}
        for k, (_, reads, writes) in enumerate(self.steps):
            last.update({n: k for n in list(reads) + list(writes)})
        kept = {source for _, source in self.results} | set(self.inputs)
        self._free = [[n for n, at in last.items() if at == k and n not in kept] for k in range(len(self.steps))]

    @property
    def kernels(self) -> list:
        return [kernel for kernel, _, _ in self.steps]

    @property
    def outputs(self) -> list:
        """The graph's results as a kernel's manifest names its outputs: name, dtype, dims (those
        of the kernel output or input each one is)."""
        specs = {s["name"]: s for kernel in self.kernels for s in kernel.inputs + kernel.outputs}
        return [dict(specs[source], name=name) for name, source in self.results]

    def __call__(self, *args, **kwargs):
        tensors = list(args) + [kwargs.pop(n) for n in self.inputs[len(args):] if n in kwargs]
        if kwargs or len(tensors) != len(self.inputs):
            raise TypeError(f"{self.name} takes the inputs ({', '.join(self.inputs)})")
        values = dict(zip(self.inputs, tensors))
        for (kernel, reads, writes), free in zip(self.steps, self._free):
            out = kernel(*(values[n] for n in reads))
            values.update(zip(writes, out if isinstance(out, tuple) else (out,)))
            for n in free:
                del values[n]
        out = tuple(values[source] for _, source in self.results)
        return out[0] if len(out) == 1 else out


def write_graph(path: str, name: str, inputs: list, steps: list, results: list) -> None:
    """Write a graph package; ``steps``: (package bytes, reads, writes); ``results``: (name, source)."""
    files = {f"k{k}.tkp": data for k, (data, _, _) in enumerate(steps)}
    manifest = {"format": FORMAT, "name": name, "inputs": list(inputs),
                "steps": [{"package": f"k{k}.tkp", "reads": list(r), "writes": list(w)}
                          for k, (_, r, w) in enumerate(steps)],
                "results": [[n, s] for n, s in results],
                "files": {f: sha256(d) for f, d in files.items()}}
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("graph.json", json.dumps(manifest, indent=2, sort_keys=True))
        for f, data in files.items():
            archive.writestr(f, data)


def is_graph(path: str) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            return "graph.json" in archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def load_graph(path: str) -> KernelGraph:
    """Read and check a graph package; each kernel package in it is read and checked too."""
    from .kernel import Kernel

    manifest, files = read_checked(path, "graph.json", _check)
    steps = []
    for step in manifest["steps"]:
        if step["package"] not in files:
            raise PackageError(f"{path}: graph.json names a package it does not list: {step['package']}")
        kernel = Kernel(read_package(io.BytesIO(files[step["package"]])))
        steps.append((kernel, tuple(step["reads"]), tuple(step["writes"])))
    return KernelGraph(manifest["name"], manifest["inputs"], steps, [tuple(r) for r in manifest["results"]])


def _check(manifest, path: str) -> None:
    """graph.json is data: every field's type is checked before it is used."""
    def names(x):
        return isinstance(x, list) and all(isinstance(n, str) for n in x)

    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise PackageError(f"{path}: graph.json is not of format {FORMAT!r}")
    ok = isinstance(manifest.get("name"), str) and names(manifest.get("inputs")) \
        and isinstance(manifest.get("files"), dict) and isinstance(manifest.get("steps"), list) \
        and all(isinstance(s, dict) and isinstance(s.get("package"), str) and names(s.get("reads"))
                and names(s.get("writes")) for s in manifest["steps"]) \
        and isinstance(manifest.get("results"), list) \
        and all(names(r) and len(r) == 2 for r in manifest["results"])
    if not ok:
        raise PackageError(f"{path}: graph.json needs name, inputs, files, steps (package, reads, writes), results")
