"""tilec's passes, one module each, registered by their command-line name.

Each module defines ``PASS = PassInfo(...)``: the name (the module name in
kebab-case), a one-line summary, a frozen dataclass of options
(``ta-foo{tile-m=64}`` sets ``tile_m: int = 64``) and ``run(module_op, options)``.
Modules are imported only when a pass is asked for.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass

# name -> module, in the order `tilec passes` lists them
_MODULES = {
    "ta-canonicalize": "ta_canonicalize",
    "ta-decompose-softmax": "ta_decompose_softmax",
    "ta-fuse-reductions": "ta_fuse_reductions",
    "ta-grad": "ta_grad",
    "ta-raise-softmax": "ta_raise_softmax",
    "ta-specialize-shapes": "ta_specialize_shapes",
    "ta-to-tile": "ta_to_tile",
    "ta-to-loops": "ta_to_loops",
    "tile-canonicalize": "tile_canonicalize",
    # a target's own passes live in its folder (tilec/targets/<target>/)
    "tile-warp-specialize": "tilec.targets.sm_90a.tile_warp_specialize",
    "tile-persistent": "tilec.targets.sm_90a.tile_persistent",
    "tile-pingpong": "tilec.targets.sm_90a.tile_pingpong",
    "tile-softmax-overlap": "tilec.targets.sm_90a.tile_softmax_overlap",
    "tile-tma-store": "tilec.targets.sm_90a.tile_tma_store",
}


@dataclass(frozen=True)
class PassInfo:
    """A registered pass: name, summary, options type and entry point."""

    name: str
    summary: str
    options: type
    run: Callable  # (module operation, options) -> None; raises on failure
    description: str = ""

    def option_fields(self) -> list[dataclasses.Field]:
        return list(dataclasses.fields(self.options))


def refusal(name: str, op, message: str) -> ValueError:
    """Pass ``name``'s error for input it does not take, located at ``op`` (the function it
    refuses, say): the pipeline reports it there, with no traceback.

        raise refusal("tile-pingpong", fn, "ping-pong consumers are a warp-specialised kernel's")
    """
    error = ValueError(f"{name}: {message}")
    error.location = op.location
    return error


class UnknownPass(KeyError):
    """No pass of that name is registered."""


def names() -> list[str]:
    """Every registered pass name."""
    return list(_MODULES)


def get(name: str) -> PassInfo:
    """The pass registered as ``name`` (imports its module on first use)."""
    if name not in _MODULES:
        raise UnknownPass(name)
    module = _MODULES[name]
    return importlib.import_module(module if module.startswith("tilec.") else f"{__name__}.{module}").PASS


def parse_options(info: PassInfo, raw: dict[str, str]):
    """Options from ``{key: text}`` (keys in kebab-case); ValueError on a bad key or value."""
    fields = {f.name.replace("_", "-"): f for f in info.option_fields()}
    values = {}
    for key, text in raw.items():
        field = fields.get(key)
        if field is None:
            known = ", ".join(fields) or "none"
            raise ValueError(f"pass '{info.name}' has no option '{key}' (options: {known})")
        kind = field.type if isinstance(field.type, type) else {"int": int, "str": str, "bool": bool}[field.type]
        if kind is bool:
            if text not in ("true", "false", "1", "0"):
                raise ValueError(f"option '{key}' of '{info.name}' takes true or false, got '{text}'")
            values[field.name] = text in ("true", "1")
        else:
            try:
                values[field.name] = kind(text)
            except ValueError:
                raise ValueError(f"option '{key}' of '{info.name}' takes {kind.__name__}, got '{text}'") from None
    return info.options(**values)  # __post_init__ may reject a value with ValueError
