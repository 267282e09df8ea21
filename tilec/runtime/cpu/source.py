"""The CPU build of a package's CUDA text: the same text, its inline PTX replaced by models.

A package ships CUDA C++ (manifest ``source``). To run that text on the CPU it is compiled as
C++ against ``include/`` (tcpu.h stands in for CUDA's headers): every kernel's body is kept as
written, so its index, address, mask and loop arithmetic is what runs. Three kinds of text
change, each by a fixed rule that refuses what it does not know:

- a device function of the prelude holding inline PTX becomes a call of the model of that
  instruction (``tcpu::NAME``), only for a function whose text is exactly one the model was
  written for (``MODELLED``: name -> sha256 of its text); a wgmma function is read from its PTX
  (shape, types, the immediate scale and transpose operands) instead;
- inline PTX in a kernel's body (barriers, fences, register hints) becomes ``tcpu::ptx(text,
  operands)``;
- the dynamic shared memory declaration becomes a pointer to the CTA's shared memory.

The text is data (a package's file): only the preprocessor lines the emitter writes are taken,
no attributes, ``_Pragma`` or ``__asm__``; the program it becomes confines itself (seccomp)
before any of it runs (include/tcpu_sandbox.h).

``cpu_source(text)`` returns the C++ of a program whose ``main`` runs one launch
(include/tcpu_main.h); CpuModelError says what has no model.
"""

from __future__ import annotations

import hashlib
import re

from . import text as ctext
from .text import CpuModelError

# each prelude function with inline PTX the model stands in for, by the sha256 of its text
MODELLED = {
    "cp_async16": "96ca574ca101ffa18f31a79413233f57828ad013129e13aa22bcac3a48e64d9f",
    "cp_async_commit": "f37dcb7d57c3947a01879626845ec419cf720227f14ea4f61947830d0c44d74b",
    "cp_async_wait": "ef429455aa207828dde277c566c5a76628aa95174102d7dafe42c102f7bfd8e7",
    "ldmatrix_x4": "6585a3f350f600fa46c0e8944fbeeb6771c7a1365a3a2d8fd9455a2fea2d60eb",
    "ldmatrix_x4_trans": "cdb2bf570080d650ede9c84632c3d2302dae506302fb078338cd8d2b29d5f58f",
    "ldmatrix_x2": "507ca55c3878dda1e131013f98d8fe686b615653463d000cc75cc4f105e85df4",
    "ldmatrix_x2_trans": "674464d50e58da6c07da2fc7c20e9529ea85d445a8c105497c087edbe9dff4ad",
    "mma_bf16": "f7a94a322dfe17f030c60bf909e09f404c581c97fc3872259da334a5335b624f",
    "exp_diff_scaled": "618f4518d249617caaa9af7d24b4831995f240b88d4f5ee005feacbab477c67d",
    "mma_f16": "3c06d6effd4cf25d890a5accc3e8ae16fa87638bf481237ede06816269eba1c3",
    "mbar_init": "0b59be95e020bf0134219f7d0a648a697f122d1f1051ed942d5f4caaef168e8b",
    "mbar_expect": "3d761e8dc4675368918e1b65a386e8a4adf274d9853e563d9d6be2a65efffe1f",
    "mbar_arrive": "63a41b5e73040d3318414fed2c75790b32f39caffb40ef1f0febcdbc41458695",
    "mbar_wait": "e43f93947fa7b1dd34ff92e1b95a99b03b2c693eb7c48e7bfd42bf7c8a1ece7e",
    "tma_load_2d": "10ddf75d8998ee7f9018342de88698b97b500b930371ce03141187caf9b69020",
    "tma_load_3d": "468fad7206f0ea46d4928371a0b9c7e6cd9861425b951d49ac68d6240ee0ead6",
    "tma_load_4d": "ec5dadc144fc2bff0464ff401aeca99998cf3e4825c2f39a468a395fd9616770",
    "tma_store_2d": "d7cd27827d963f2895361de422eb1d96f02ef3ef96644b712bdc024081e29dd2",
    "tma_store_3d": "f7b649060c2c1be02420ba8da69698bfc6a458c26262a079d372b9ef0503d25f",
    "tma_store_4d": "a8f2a7af7943912b93d21a1712cef7a29616aef77fb1b5adf47f7a8427ebc714",
    "bulk_commit": "dc9f170448bcebe55c54fb76884d8d23f79c70dfd7f7393458ea6f2fece2de76",
    "bulk_wait_read": "305bf890a82192c7e077ed474ebd72861dbdbc9f387dc62f401205a13c2735c4",
    "fence_async_shared": "c4c6cbcba65bf237e7e5ce9ddf204c0b17d53c12daa1c59a4c8b5c6ebaa6b1d6",
}


_WGMMA_NAME = re.compile(r"wgmma_m64n(\d+)k16_(bf16|f16)_([r01])([01])")
_WGMMA_PTX = re.compile(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.(bf16|f16)\.(bf16|f16) "
                        r"\{([^}]*)\}, (\{[^}]*\}|%\d+), %(\d+), ([-\d, ]+);")


def _body(body: str) -> str:
    """A kernel's body with its inline PTX as calls of tcpu::ptx and its shared memory the CTA's."""
    out, at = [], 0
    for start, end, operands in ctext.asm_statements(body):
        template, _ = ctext.template(operands)
        inputs = ctext.inputs(operands, "body")
        if len(inputs) > 2:
            raise CpuModelError(f"inline PTX {template} with {len(inputs)} operands; no model")
        args = "".join(f", (long long)({expr})" for _, expr in inputs)
        out += [body[at:start], f"tcpu::ptx({template}{args});"]
        at = end
    text = "".join(out) + body[at:]
    shared = re.compile(r"extern __shared__ __align__\((\d+)\) unsigned char smem\[\];")
    if any(int(n) > 1024 for n in shared.findall(text)):
        raise CpuModelError("dynamic shared memory aligned to more than 1024 bytes; the model gives 1024")
    return shared.sub("unsigned char* const smem = tcpu::shared_base();", text)


def _wgmma(name: str, header: str, body: str) -> str:
    """The model's stand-in for a wgmma function, read from its PTX (refusing any other form)."""
    n, kind, a_form, b_form = _WGMMA_NAME.fullmatch(name).groups()
    (_, _, operands), = list(ctext.asm_statements(body))
    template, rest = ctext.template(operands)
    ptx = _WGMMA_PTX.fullmatch(template.strip('"'))
    regs = int(n) // 2
    outputs = ", ".join(f'"+f"(d[{i}])' for i in range(regs))
    if ptx is None or ptx.group(1) != n or not ptx.group(2) == ptx.group(3) == kind \
            or ptx.group(4) != ", ".join(f"%{i}" for i in range(regs)) or ctext.split(rest, ":")[1].strip() != outputs:
        raise CpuModelError(f"{name}: its PTX {template} is not the wgmma form the model knows")
    flags = [int(f) for f in ptx.group(7).split(",")]
    registers = a_form == "r"
    if len(flags) != (4 if registers else 5) or flags[1:3] != [1, 1]:
        raise CpuModelError(f"{name}: immediate operands {flags} (modelled: scale-d, scales 1, transposes)")
    if registers:
        inputs = [e for _, e in ctext.inputs(operands, "prelude")]
        if inputs != ["a0", "a1", "a2", "a3", "b"] or ptx.group(5) != "{" + ", ".join(f"%{regs + i}" for i in range(4)) + "}":
            raise CpuModelError(f"{name}: its A registers are not the model's")
        call = (f"const uint32_t a[4] = {{a0, a1, a2, a3}}; tcpu::wgmma<{n}, {int(kind == 'bf16')}, true>"
                f"(d, a, 0, b, {flags[0]}, false, {flags[3]});")
    else:
        if [e for _, e in ctext.inputs(operands, "prelude")] != ["a", "b"] or ptx.group(5) != f"%{regs}":
            raise CpuModelError(f"{name}: its A descriptor is not the model's")
        call = f"tcpu::wgmma<{n}, {int(kind == 'bf16')}, false>(d, nullptr, a, b, {flags[0]}, {flags[3]}, {flags[4]});"
    if int(ptx.group(6)) != regs + (4 if registers else 1):
        raise CpuModelError(f"{name}: its B descriptor is not the model's")
    return f"{header}{{ {call} }}"


def _device(text: str, header: str, body: str) -> str:
    """A prelude function as the CPU build has it: as written, or (inline PTX) the model's."""
    if not re.search(r"\basm\b", body):
        return text
    name, params = ctext.params(header)
    if _WGMMA_NAME.fullmatch(name):
        return _wgmma(name, header, body)
    digest = hashlib.sha256(text.encode()).hexdigest()
    if MODELLED.get(name) != digest:
        known = "a text it was not written for" if name in MODELLED else "no model"
        raise CpuModelError(f"the device function {name} (sha256 {digest[:16]}) holds inline PTX the CPU model "
                            f"has {known} of (tilec/runtime/cpu/source.py MODELLED)")
    template = re.match(r"\s*template\s*<\s*int\s+(\w+)\s*>", header)
    targs = f"<{template.group(1)}>" if template else ""
    args = ", ".join(ctext.param_name(p) for p in params)
    return f"{header}{{ return tcpu::{name}{targs}({args}); }}"


# the preprocessor lines the emitter writes; any other (an #include of a file, a pragma) is refused,
# as are spellings that would run or read something at build or start-up time
_DIRECTIVES = re.compile(r"#include <cuda_(bf16|fp16)\.h>|#if defined\(__CUDA_ARCH__\) && __CUDA_ARCH__ >= \d+|#endif"
                         r"|#pragma unroll( \d+)?")
_FORBIDDEN = re.compile(r"\b(__attribute__|_Pragma|__asm__|__asm|__has_include|__has_embed)\b|\[\[")


def _checked(text: str) -> None:
    """Refuse CUDA text with a preprocessor line or a spelling the CPU build does not take."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#") and not _DIRECTIVES.fullmatch(stripped):
            raise CpuModelError(f"line {number}: the preprocessor line {stripped[:60]!r} is not one the CPU build "
                                f"takes")
        found = _FORBIDDEN.search(line.split("//")[0])
        if found:
            raise CpuModelError(f"line {number}: {found.group(0)!r} is not taken by the CPU build")


def cpu_source(text: str) -> str:
    """The C++ program (include/tcpu_main.h's) that runs the kernels of CUDA ``text`` on the CPU;
    the model's header first, so that the program confines itself before anything of ``text``
    runs (include/tcpu_sandbox.h)."""
    _checked(text)
    out, at, kernels = ['#include "tcpu.h"\n'], 0, []
    for start, body_at, end in ctext.chunks(text):
        header, body = text[start:body_at], text[body_at:end]
        out.append(text[at:start])
        if "__global__" in header:
            name, params = ctext.params(header)
            kernels.append((name, [ctext.param_type(p) for p in params]))
            out.append(header + _body(body))
        elif "__device__" in header:
            out.append(_device(text[start:end], header, body))
        else:
            if re.search(r"\basm\b", body):
                raise CpuModelError("inline PTX outside a device function or kernel")
            out.append(text[start:end])
        at = end
    out.append(text[at:])
    if not kernels:
        raise CpuModelError("the CUDA text defines no kernel")
    out.append('\n#include "tcpu_main.h"\n')
    for name, types in kernels:
        args = ", ".join(f"*({t}*)a[{i}]" for i, t in enumerate(types))
        out.append(f"static void tcpu_entry_{name}(void** a) {{ {name}({args}); }}\n")
    entries = ", ".join(f'{{"{name}", tcpu_entry_{name}}}' for name, _ in kernels)
    out.append(f"static const tcpu::Named tcpu_entries[] = {{{entries}}};\n"
               f"int main(int argc, char** argv) {{ return tcpu::run(tcpu_entries, {len(kernels)}, argc, argv); }}\n")
    return "".join(out)
