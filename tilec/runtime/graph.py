"""A graph compiled as several kernels: kernel packages launched in order on named tensors.

    graph = tilec.runtime.load("block.tkg")    # a graph package: graph.json and a .tkp per kernel
    y = graph(x)                                # or graph(in0=x); each kernel on the current stream

graph.json (format ``tilec.graph/2``, sealed like a kernel's manifest: runtime/manifest.py)
names the graph's inputs, its steps (a kernel package and the names of the tensors it reads
and writes, in its argument order) and, per result, the tensor it is. A tensor between kernels is freed after its last reader. Like the rest of
tilec.runtime this imports torch and cuda-bindings only.
"""

from __future__ import annotations

import io
import json
import zipfile

from .dims import DTYPE_NAMES, evaluate_dim, torch_dtype
from .manifest import check_seal, seal
from .package import PackageError, dim_ok, read_checked, read_package, sha256

FORMAT = "tilec.graph/2"  # /2: graph.json is sealed (runtime/manifest.py)


def strided_copy(src, form: dict):
    """A step without a kernel: ``src`` (row-major) read through one strided view, copied
    contiguous, in its output's shape (tilec/graph/strided.py says which remaps are one)."""
    last = form["offset"] + sum((n - 1) * st for n, st in zip(form["size"], form["stride"]))
    if last >= src.numel():
        raise ValueError(f"a strided step reads element {last} of a tensor of {src.numel()}")
    view = src.contiguous().as_strided(form["size"], form["stride"], form["offset"])
    dtype = torch_dtype(form["dtype"]) if "dtype" in form else view.dtype
    return view.to(dtype).contiguous().view(form["shape"])


class Strided:
    """A strided copy as a step of a graph (called like a kernel)."""

    def __init__(self, name: str, form: dict):
        self.name, self.form = name, form

    def __call__(self, src):
        return strided_copy(src, self.form)


class KernelGraph:
    """Kernels called in order; call it with the graph's inputs (positionally or by name)."""

    def __init__(self, name: str, inputs: list, steps: list, results: list, result_shapes: list | None = None,
                 input_dims: list | None = None):
        self.name, self.inputs, self.steps, self.results = name, list(inputs), list(steps), list(results)
        self.input_dims = input_dims  # the graph's own dims of each input (sizes, names, [op, a, b]), when known
        known = set(self.inputs)
        for kernel, reads, writes in self.steps:
            missing = [n for n in reads if n not in known]
            if missing:
                raise PackageError(f"{name}: kernel '{kernel.name}' reads {', '.join(missing)} "
                                   f"before any step writes it")
            known.update(writes)
        if any(source not in known for _, source in self.results):
            raise PackageError(f"{name}: a result is no input and no kernel's output")
        # after step k, the tensors no later step (and no result) reads
        last = {n: -1 for n in self.inputs}
        for k, (_, reads, writes) in enumerate(self.steps):
            last.update({n: k for n in list(reads) + list(writes)})
        kept = {source for _, source in self.results} | set(self.inputs)
        self._free = [[n for n, at in last.items() if at == k and n not in kept] for k in range(len(self.steps))]
        # a kernel may read a tensor as a row-major view of other dims ([B*T, C] for [B, T, C])
        self._views = [[_declared_dims(kernel, n) for n in reads] for kernel, reads, _ in self.steps]
        # a graph whose kernels name no shape parameter binds none at a call (the launch's Python time)
        self._symbolic = any(not isinstance(d, int) for views in self._views for dims in views for d in dims or ())
        self.result_shapes = result_shapes

    @property
    def kernels(self) -> list:
        """The steps that are kernels (not strided copies)."""
        return [kernel for kernel, _, _ in self.steps if not isinstance(kernel, Strided)]

    @property
    def outputs(self) -> list:
        """The graph's results as a kernel's manifest names its outputs: name, dtype, dims (those
        of the kernel output or input each one is)."""
        specs = {s["name"]: s for kernel in self.kernels for s in kernel.inputs + kernel.outputs}
        return [dict(specs[source], name=name) for name, source in self.results]

    def step_inputs(self, k: int, values: dict, env: dict | None = None) -> list:
        """The tensors step ``k`` reads, from ``values`` (name -> tensor), as it takes them: a
        row-major view of other dims where its kernel declares them (free). ``env``: the sizes of
        the graph's shape parameters (read off its inputs: bind)."""
        _, reads, _ = self.steps[k]
        return [_viewed(values[n], dims, env or {}) for n, dims in zip(reads, self._views[k])]

    def bind(self, values: dict) -> dict:
        """The sizes of the shape parameters the kernels name, read off the graph's inputs: by the
        graph's own dims of them, and where a kernel takes one as it is."""
        env = {}
        for n, dims in zip(self.inputs, self.input_dims or []):
            t = values.get(n)
            if t is not None and len(dims) == t.dim():
                env.update({d: size for d, size in zip(dims, t.shape) if isinstance(d, str)})
        for k, (_, reads, _) in enumerate(self.steps):
            for n, dims in zip(reads, self._views[k]):
                t = values.get(n) if n in self.inputs else None
                if t is None or dims is None or len(dims) != t.dim():
                    continue
                for d, size in zip(dims, t.shape):
                    if isinstance(d, str):
                        env.setdefault(d, size)
        return env

    def __call__(self, *args, sizes: dict | None = None, **kwargs):
        """Run the steps on ``args`` (the graph's inputs, in order or by name); ``sizes``: shape
        parameters its inputs do not give (B and T of a [B*T, C] input)."""
        tensors = list(args) + [kwargs.pop(n) for n in self.inputs[len(args):] if n in kwargs]
        if kwargs or len(tensors) != len(self.inputs):
            raise TypeError(f"{self.name} takes the inputs ({', '.join(self.inputs)})")
        values = dict(zip(self.inputs, tensors))
        env = {**(self.bind(values) if self._symbolic else {}), **(sizes or {})}
        for k, ((kernel, reads, writes), free) in enumerate(zip(self.steps, self._free)):
            step = self.step_inputs(k, values, env)
            out = kernel(*step) if isinstance(kernel, Strided) else kernel(*step, sizes=env)
            values.update(zip(writes, out if isinstance(out, tuple) else (out,)))
            for n in free:
                del values[n]
        out = tuple(values[source] for _, source in self.results)
        if self.result_shapes:
            out = tuple(_viewed(t, shape, env) for t, shape in zip(out, self.result_shapes))
        return out[0] if len(out) == 1 else out


def _declared_dims(kernel, name: str):
    """The dims ``kernel`` declares for its input ``name`` (None for a copy)."""
    if isinstance(kernel, Strided):
        return None
    dims = next((s["dims"] for s in kernel.inputs if s["name"] == name), None)
    return tuple(dims) if dims is not None else None


def _viewed(t, dims, env: dict):
    """``t`` as a tensor of ``dims`` (sizes, names, [op, a, b]): itself when it has them, else
    its row-major view. A name ``env`` does not give is a view's merged leading dim ([B*T, C] of
    a [B, T, C] tensor: the trailing dims kept)."""
    if dims is None:
        return t
    try:
        shape = tuple(evaluate_dim(d, env) for d in dims)
    except KeyError:
        if not dims or len(dims) >= t.dim():
            return t  # a kernel of the same rank binds its own names
        shape = (-1, *t.shape[t.dim() - len(dims) + 1:])
    return t if tuple(t.shape) == shape else t.view(shape)


def write_graph(path: str, name: str, inputs: list, steps: list, results: list,
                result_shapes: list | None = None, input_dims: list | None = None) -> None:
    """Write a graph package; ``steps``: (package bytes, or a strided copy's dict, reads, writes);
    ``results``: (name, source); ``input_dims``: each input's dims (what binds the sizes)."""
    files = {f"k{k}.tkp": data for k, (data, _, _) in enumerate(steps) if isinstance(data, bytes)}
    manifest = {"format": FORMAT, "name": name, "inputs": list(inputs),
                "steps": [dict({"package": f"k{k}.tkp"} if isinstance(d, bytes) else {"strided": d},
                               reads=list(r), writes=list(w)) for k, (d, r, w) in enumerate(steps)],
                "results": [[n, s] for n, s in results], "result_shapes": result_shapes, "input_dims": input_dims,
                "files": {f: sha256(d) for f, d in files.items()}}
    manifest["seal"] = seal(manifest)
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
    for k, step in enumerate(manifest["steps"]):
        if "strided" in step:
            steps.append((Strided(f"{manifest['name']}_k{k}", step["strided"]), tuple(step["reads"]),
                          tuple(step["writes"])))
            continue
        if step["package"] not in files:
            raise PackageError(f"{path}: graph.json names a package it does not list: {step['package']}")
        kernel = Kernel(read_package(io.BytesIO(files[step["package"]])))
        steps.append((kernel, tuple(step["reads"]), tuple(step["writes"])))
    shapes = manifest.get("result_shapes")
    ok = shapes is None or (isinstance(shapes, list) and len(shapes) == len(manifest["results"]) and all(
        s is None or (isinstance(s, list) and all(dim_ok(n) for n in s)) for s in shapes))
    if not ok:
        raise PackageError(f"{path}: graph.json 'result_shapes' must be a shape (or null) per result")
    dims = manifest.get("input_dims")
    if dims is not None and not (isinstance(dims, list) and len(dims) == len(manifest["inputs"]) and all(
            isinstance(d, list) and all(dim_ok(x) for x in d) for d in dims)):
        raise PackageError(f"{path}: graph.json 'input_dims' must give each input's dims")
    check_seal(manifest, files, path, PackageError)  # the fields' kinds first: their errors say more
    return KernelGraph(manifest["name"], manifest["inputs"], steps, [tuple(r) for r in manifest["results"]], shapes,
                       dims)


def _strided_ok(form) -> bool:
    """A strided step's numbers: lists of ints (sizes and the shape >= 1, strides >= 0), an offset >= 0."""
    def ints(x, low):
        return isinstance(x, list) and all(isinstance(n, int) and not isinstance(n, bool) and n >= low for n in x)

    return isinstance(form, dict) and ints(form.get("size"), 1) and ints(form.get("shape"), 1) \
        and ints(form.get("stride"), 0) and len(form["stride"]) == len(form["size"]) \
        and ints([form.get("offset")], 0) and form.get("dtype", "f32") in DTYPE_NAMES


def _check(manifest, path: str) -> None:
    """graph.json is data: every field's type is checked before it is used."""
    def names(x):
        return isinstance(x, list) and all(isinstance(n, str) for n in x)

    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise PackageError(f"{path}: graph.json is not of format {FORMAT!r}")
    ok = isinstance(manifest.get("name"), str) and names(manifest.get("inputs")) \
        and isinstance(manifest.get("files"), dict) and isinstance(manifest.get("steps"), list) \
        and all(isinstance(s, dict) and (isinstance(s.get("package"), str) or _strided_ok(s.get("strided")))
                and names(s.get("reads")) and names(s.get("writes")) for s in manifest["steps"]) \
        and isinstance(manifest.get("results"), list) \
        and all(names(r) and len(r) == 2 for r in manifest["results"])
    if not ok:
        raise PackageError(f"{path}: graph.json needs name, inputs, files, steps (package or strided, reads, "
                           f"writes), results")
