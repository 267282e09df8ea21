"""tilec/tune/pick.py: every command builds a spec at the one schedule a package of it ships,
for the targets asked, and says which; tilec/build/proofs.py: a kernel verified once is not proved
again, and a cache entry that fails its checks is discarded."""

import json

import pytest

from conftest import EXAMPLES

pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")


def _schedule_line(text: str, spec) -> str:
    lines = [line for line in text.splitlines() if line.startswith(f"{spec}: schedule ")]
    assert len(lines) == 1, text
    return lines[0]


def _schedule_of(line: str) -> str:
    """The schedule a pick's line names: "SPEC: schedule bm=...: how" -> "bm=..."."""
    return line.split(": schedule ", 1)[1].split(": ", 1)[0]


def _schedule_lines(text: str, spec) -> dict:
    """target -> the line saying the schedule tilec picked for that target's kernel."""
    lines = {}
    for line in text.splitlines():
        for target in ("sm_80", "sm_90a"):
            if line.startswith(f"{spec} ({target}): schedule "):
                lines[target] = line
    return lines


def test_verify_proves_the_kernels_compile_ships(tilec, tmp_path):
    """attention at D = 128: the form's default needs 229,376 bytes of shared memory, more than
    sm_80 has; verify once built that default and failed while the package compile built (at
    the cost model's pick) verified cleanly. Both now take each target's pick and say so."""
    from tilec.runtime import read_package

    spec = EXAMPLES / "attention.ta"
    status, out, err = tilec("verify", spec, "--shape", "D=128")
    assert status == 0, out + err
    said = _schedule_lines(out, spec)
    # B, H, S, T left free: sm_90a takes its best form, sm_80 (no such list) the model's pick
    assert sorted(said) == ["sm_80", "sm_90a"] and "the cost model's best" in said["sm_80"]
    assert "the target's best form" in said["sm_90a"]
    status, built, err = tilec("compile", spec, "--shape", "D=128", "-o", tmp_path / "a.tkp")
    assert status == 0, built + err
    assert _schedule_lines(built, spec) == said
    package = read_package(str(tmp_path / "a.tkp"))
    for target, line in said.items():
        assert f"schedule {package.kernel(target)['schedule']}: " in line
    # the proofs name the kernel each is about: every tile and CUDA row, both targets
    assert {t for t in ("sm_80", "sm_90a") if f"[tile {t}]" in out} == {"sm_80", "sm_90a"}


def test_every_command_takes_the_same_schedule_for_the_target_asked(tilec):
    """attention for sm_90a alone: the pick is a warp-specialised kernel (wgmma, the copy
    engine), which --emit tile|cuda prints, run --stage tile runs, layout draws and verify
    proves; what --emit prints on stdout is the IR alone, the schedule's line goes to stderr."""
    spec = EXAMPLES / "attention.ta"
    status, cuda, err = tilec("compile", spec, "--emit", "cuda", "--target", "sm_90a")
    assert status == 0, err
    said = _schedule_line(err, spec)
    assert "consumers=0" not in _schedule_of(said) and "wgmma.mma_async" in cuda
    assert not cuda.startswith(str(spec))
    status, tile, err = tilec("compile", spec, "--emit", "tile", "--target", "sm_90a")
    assert status == 0 and _schedule_line(err, spec) == said and '"tile.wgmma"' in tile, err
    status, out, err = tilec("run", spec, "--stage", "tile", "--target", "sm_90a")
    assert status == 0 and _schedule_line(out, spec) == said, out + err
    status, out, err = tilec("layout", spec, "--operand", "K", "--target", "sm_90a")
    assert status == 0 and _schedule_line(out, spec) == said, out + err
    status, out, err = tilec("verify", spec, "--target", "sm_90a")
    assert status == 0 and _schedule_line(out, spec) == said, out + err
    # both targets: a kernel sm_80 runs too, the mma.sync form
    status, cuda, err = tilec("compile", spec, "--emit", "cuda")
    assert status == 0 and "consumers=0" in _schedule_of(_schedule_line(err, spec)) and "wgmma" not in cuda, err
    # a schedule given is taken as given, with nothing said
    status, out, err = tilec("run", EXAMPLES / "gemm.ta", "--stage", "tile", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0 and ": schedule " not in out + err, out + err


def test_a_size_left_free_gets_the_targets_best_form_and_every_size_given_the_ranking(tmp_path, monkeypatch):
    """examples/gemm.ta without --shape (or with a size left free) runs at every size: sm_90a's
    first any-size schedule (the warp-specialised GEMM that measured best), with no ranking; with
    every size given the model ranks its space at them; sm_80 gives no any-size list, so its
    pick is the model's at the defaults."""
    from tilec.dialects.schedule import Schedule
    from tilec.tune import pick

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    spec = EXAMPLES / "gemm.ta"
    text = spec.read_text()
    ranked = []
    real = pick.rank
    monkeypatch.setattr(pick, "rank", lambda *a, **k: ranked.append(1) or real(*a, **k))
    chosen = pick.resolve_schedule(str(spec), text, {}, ("sm_90a",))
    assert chosen.how == pick.ANY_SIZE + pick.COPY_ENGINE_ROWS and not ranked
    assert chosen.schedule == Schedule.any_size("contraction", "sm_90a")[0].as_text()
    partly = pick.resolve_schedule(str(spec), text, {"M": 512, "N": 512}, ("sm_90a",))  # K left free
    assert partly == chosen and not ranked
    sized = pick.resolve_schedule(str(spec), text, {"M": 512, "N": 512, "K": 512}, ("sm_90a",))
    assert sized.how == pick.RANKED and ranked
    assert Schedule.any_size("contraction", "sm_80") == []
    assert pick.resolve_schedule(str(spec), text, {}, ("sm_80",)).how == pick.RANKED
    # attention: the first point (two CTAs an SM) lowers at D = 64, not at D = 128: the next
    attention = EXAMPLES / "attention.ta"
    first, second = Schedule.any_size("online", "sm_90a")[:2]
    for sizes, wanted in (({}, first), ({"D": 128}, second)):
        got = pick.resolve_schedule(str(attention), attention.read_text(), sizes, ("sm_90a",))
        assert got.schedule == wanted.as_text() and got.how.startswith(pick.ANY_SIZE), (sizes, got)


def test_every_any_size_schedule_lowers_and_compiles_without_spilling():
    """The any-size lists are data a pick trusts: each point builds for its form at the
    examples' defaults and ptxas spills nothing (else the pick would always pass it by)."""
    from torch_mlir import ir

    from tilec import dialects
    from tilec.codegen.compile import compile_cuda
    from tilec.codegen.cuda import emit_cuda
    from tilec.dialects.schedule import Schedule
    from tilec.frontend import load_spec
    from tilec.lowering.driver import build_tile

    for form, example in (("contraction", "gemm.ta"), ("online", "attention.ta")):
        points = Schedule.any_size(form, "sm_90a")
        assert points, form
        with dialects.context(), ir.Location.unknown():
            module = load_spec(str(EXAMPLES / example))
            for point in points:
                kernel = emit_cuda(build_tile(module, {}, point.as_text(), "sm_90a").tile)
                assert compile_cuda(kernel.source, kernel.name, "sm_90a")[1].spill_stores == 0, point.as_text()


def _sealed(key: str, payload: bytes) -> bytes:
    """An entry as tilec/cache.py writes it: the seal line, then the payload."""
    import hashlib

    return b"tilec-cache/1 " + key.encode() + b" " + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def test_a_broken_pick_entry_is_discarded_and_chosen_again(tmp_path, monkeypatch, capsys):
    """A truncated, unsealed, foreign or malformed entry of the picks cache is deleted with a
    warning, and the choice is made and written again."""
    from tilec.frontend import read_spec
    from tilec.tune import pick

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path))
    spec = str(EXAMPLES / "gemm.ta")
    first = pick.pick_schedule(spec, read_spec(spec), {}, ("sm_80",))
    (entry,) = (tmp_path / "picks").iterdir()
    written, key = entry.read_bytes(), entry.stem
    broken = {"does not match its seal": written[:len(written) - 9],  # truncated
              "has no seal": json.dumps({"key": key, "schedule": "bm=16", "why": ""}).encode(),
              "was written for another key": _sealed("0" * 64, b'{"schedule": "bm=16", "why": ""}'),
              "is not a schedule choice": _sealed(key, b"[]")}
    for why, data in broken.items():
        entry.write_bytes(data)
        calls = []
        monkeypatch.setattr(pick, "_rank_and_compile", lambda *a: calls.append(a) or (first, ""))
        capsys.readouterr()
        assert pick.pick_schedule(spec, read_spec(spec), {}, ("sm_80",)) == first and calls
        err = capsys.readouterr().err
        assert f"tilec: warning: cache entry picks/{entry.name} {why}" in err and "discarded, choosing again" in err
        assert json.loads(entry.read_bytes().partition(b"\n")[2])["schedule"] == first


def test_a_kernel_is_proved_once_and_a_tampered_proof_is_discarded(tmp_path, monkeypatch, capsys):
    from torch_mlir import ir

    from tilec import dialects
    from tilec.build import verification
    from tilec.lowering.driver import build_tile
    from tilec.frontend import load_spec
    from tilec.build.package import verify_build

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path))
    spec = str(EXAMPLES / "softmax.ta")
    text = open(spec).read()
    with dialects.context(), ir.Location.unknown():
        module = load_spec(spec)
        tiled = build_tile(module, {}, "")
        first = verify_build(module, {"sm_80": tiled}, spec, text, "", use_cache=True)
        assert first.status() == 0 and first.counts()["proved"] > 0
        checked = []
        real = verification.check_builds
        monkeypatch.setattr("tilec.build.verification.check_builds", lambda *a, **k: checked.append(1) or real(*a, **k))
        again = verify_build(module, {"sm_80": tiled}, spec, text, "", use_cache=True)
        assert not checked and again.as_json() == first.as_json()
        (entry,) = (tmp_path / "proofs").iterdir()
        stored = entry.read_bytes()
        entry.write_bytes(stored.replace(b'"verdict": "proved"', b'"verdict": "counterexample"', 1))
        capsys.readouterr()
        third = verify_build(module, {"sm_80": tiled}, spec, text, "", use_cache=True)
        assert len(checked) == 1 and third.summary() == first.summary()
        assert f"cache entry proofs/{entry.name} does not match its seal (truncated or edited); discarded, " \
               f"verifying again" in capsys.readouterr().err
        entry.write_bytes(entry.read_bytes()[:-40])  # truncated
        fourth = verify_build(module, {"sm_80": tiled}, spec, text, "", use_cache=True)
        assert len(checked) == 2 and fourth.summary() == first.summary()
        assert f"cache entry proofs/{entry.name} does not match its seal" in capsys.readouterr().err
        other = verify_build(module, {"sm_90a": tiled}, spec, text, "", use_cache=True)  # another target: proved anew
        assert len(checked) == 3 and other.status() == 0


def test_a_row_program_takes_its_own_default(tilec, tmp_path, monkeypatch):
    """The cost model does not rank row programs (its picks measured slower than the row
    program's default): the pick leaves the schedule to the default, which reads a fixed row
    once, shared by warps where it is wide, and says so."""
    from tilec.tune import pick

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    spec = EXAMPLES / "layernorm.ta"
    for shapes in ({}, {"C": 4096}, {"N": 8, "C": 4096}):
        chosen = pick.resolve_schedule(str(spec), spec.read_text(), shapes, ("sm_90a",))
        assert chosen.schedule == "" and pick.ROW_DEFAULT in chosen.how
    status, out, err = tilec("compile", spec, "--shape", "C=4096", "--target", "sm_90a", "--no-verify",
                             "-o", tmp_path / "ln.tkp")
    assert status == 0, err
    assert "schedule default: the kernel form's default (a row program's default" in out
    assert "bm=1,bn=4096,bk=32,warps=4" in out and "0 bytes spilled" in out
