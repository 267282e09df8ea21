"""Reading the CUDA text tilec emits, for its CPU build (source.py): top-level functions and
their bodies, parameter lists, inline PTX statements and their operands. Literals and comments
are skipped; what is not understood is CpuModelError, never a guess."""

from __future__ import annotations

import re


class CpuModelError(ValueError):
    """CUDA text the CPU model has no model of; the message names it."""


def skip_string(text: str, i: int) -> int:
    """The index after the string or character literal starting at ``i``."""
    quote, i = text[i], i + 1
    while text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def match(text: str, i: int, open_: str, close: str) -> int:
    """The index of the bracket closing the one at ``i``, skipping literals and comments."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
            continue
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise CpuModelError(f"unbalanced {open_}{close} in the CUDA text")


def chunks(text: str) -> list[tuple[int, int, int]]:
    """(start, body start, end) of each top-level construct with a braced body: a function or a
    struct, its start the first line after the previous construct or declaration that is
    neither blank, a comment nor a preprocessor line."""
    out, i, last = [], 0, 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
        elif text.startswith("//", i) or (c == "#" and (i == 0 or text[i - 1] == "\n")):
            i = text.index("\n", i) + 1
            if text[last:i].strip() == "" or all(s.strip().startswith(("//", "#")) or not s.strip()
                                                  for s in text[last:i].splitlines()):
                last = i
        elif c == ";":
            i += 1
            last = i
        elif c == "{":
            end = match(text, i, "{", "}") + 1
            if text[end:end + 1] == ";":
                end += 1
            start = last + len(text[last:]) - len(text[last:].lstrip())
            out.append((start, i, end))
            i = last = end
        else:
            i += 1
    return out


def params(header: str) -> tuple[str, list[str]]:
    """(name, parameter declarations) of a function header (a kernel's after its launch bounds)."""
    at = 0
    if "__launch_bounds__" in header:
        at = match(header, header.index("(", header.index("__launch_bounds__")), "(", ")") + 1
    paren = header.index("(", at)
    name = re.search(r"(\w+)\s*$", header[:paren]).group(1)
    inner = header[paren + 1:match(header, paren, "(", ")")]
    return name, [p.strip() for p in split(inner, ",") if p.strip() and p.strip() != "void"]


def split(text: str, sep: str) -> list[str]:
    """``text`` split at each ``sep`` outside brackets and literals."""
    out, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            end = skip_string(text, i)
            cur.append(text[i:end])
            i = end
            continue
        depth += 1 if c in "([" else -1 if c in ")]" else 0
        if c == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    return out + ["".join(cur)]


def param_name(decl: str) -> str:
    return re.search(r"(\w+)\s*$", decl).group(1)


def param_type(decl: str) -> str:
    kept = re.sub(r"\b(__restrict__|__grid_constant__)\b", " ", decl[:len(decl) - len(param_name(decl))])
    return " ".join(kept.split())


def template(text: str) -> tuple[str, str]:
    """(the PTX template as one C literal, the text after it) of an asm statement's operands."""
    parts, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text) or text[i] != '"':
            return '"' + "".join(parts) + '"', text[i:]
        end = skip_string(text, i)
        parts.append(text[i + 1:end - 1])
        i = end


def asm_statements(body: str):
    """(start, end, operand text) of each asm statement in ``body`` (end after its ';')."""
    for found in re.finditer(r"\basm\b(\s+volatile)?\s*\(", body):
        open_ = found.end() - 1
        close = match(body, open_, "(", ")")
        end = body.index(";", close) + 1
        yield found.start(), end, body[open_ + 1:close]


def inputs(operands: str, where: str) -> list[tuple[str, str]]:
    """(constraint, expression) of each input of an asm statement with no outputs."""
    ptx, rest = template(operands)
    sections = split(rest, ":") if rest.strip() else [""]
    if sections[0].strip() or len(sections) > 1 and sections[1].strip() and where == "body":
        raise CpuModelError(f"inline PTX {ptx} in a kernel's body writes registers; no model")
    found = []
    for item in (split(sections[2], ",") if len(sections) > 2 and sections[2].strip() else []):
        m = re.fullmatch(r'\s*"(\w+)"\s*\((.*)\)\s*', item, re.S)
        if not m:
            raise CpuModelError(f"inline PTX {ptx}: operand {item.strip()!r} not understood")
        found.append((m.group(1), m.group(2)))
    return found
