"""tilec/tune/pick.py: every command builds a spec at the one schedule a package of it ships,
for the targets asked, and says which; tilec/proofs.py: a kernel verified once is not proved
again, and a cache entry that fails its checks is discarded."""

import json
import zipfile

import pytest

from conftest import EXAMPLES

pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")


def _schedule_line(text: str, spec) -> str:
    lines = [line for line in text.splitlines() if line.startswith(f"{spec}: schedule ")]
    assert len(lines) == 1, text
    return lines[0]


def test_verify_proves_the_kernel_compile_ships(tilec, tmp_path):
    """attention at D = 128: the form's default needs 229,376 bytes of shared memory, more than
    sm_80 has; verify once built that default and failed while the package compile built (at
    the cost model's pick) verified cleanly. Both now take the pick and say so."""
    spec = EXAMPLES / "attention.ta"
    status, out, err = tilec("verify", spec, "--shape", "D=128")
    assert status == 0, out + err
    said = _schedule_line(out, spec)
    assert "the cost model's best" in said
    status, built, err = tilec("compile", spec, "--shape", "D=128", "-o", tmp_path / "a.tkp")
    assert status == 0, built + err
    assert _schedule_line(built, spec) == said
    manifest = json.loads(zipfile.ZipFile(tmp_path / "a.tkp").read("manifest.json"))
    assert said.endswith(f"schedule {manifest['schedule']}: {said.split(': ', 2)[2]}")


def test_every_command_takes_the_same_schedule_for_the_target_asked(tilec):
    """attention for sm_90a alone: the pick is a warp-specialised kernel (wgmma, the copy
    engine), which --emit tile|cuda prints, run --stage tile runs, layout draws and verify
    proves; what --emit prints on stdout is the IR alone, the schedule's line goes to stderr."""
    spec = EXAMPLES / "attention.ta"
    status, cuda, err = tilec("compile", spec, "--emit", "cuda", "--target", "sm_90a")
    assert status == 0, err
    said = _schedule_line(err, spec)
    assert "consumers=0" not in said and "wgmma.mma_async" in cuda
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
    assert status == 0 and "consumers=0" in _schedule_line(err, spec) and "wgmma" not in cuda, err
    # a schedule given is taken as given, with nothing said
    status, out, err = tilec("run", EXAMPLES / "gemm.ta", "--stage", "tile", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0 and ": schedule " not in out + err, out + err


def test_a_broken_pick_entry_is_recomputed(tmp_path, monkeypatch):
    """A truncated or foreign entry in the picks cache is ignored and written again."""
    from tilec.frontend import read_spec
    from tilec.tune import pick

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "kernels"))
    spec = str(EXAMPLES / "gemm.ta")
    first = pick.pick_schedule(spec, read_spec(spec), {}, ("sm_80",))
    (entry,) = (tmp_path / "picks").iterdir()
    for broken in ('{"schedule": "bm=6', json.dumps({"key": "another", "schedule": "bm=16"}), "[]"):
        entry.write_text(broken)
        calls = []
        monkeypatch.setattr(pick, "_rank_and_compile", lambda *a: calls.append(a) or (first, ""))
        assert pick.pick_schedule(spec, read_spec(spec), {}, ("sm_80",)) == first and calls
        assert json.loads(entry.read_text())["schedule"] == first


def test_a_kernel_is_proved_once_and_a_tampered_proof_is_discarded(tmp_path, monkeypatch, capsys):
    from torch_mlir import ir

    from tilec import dialects, verification
    from tilec.driver import build_tile
    from tilec.frontend import load_spec
    from tilec.package import verify_build

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "kernels"))
    spec = str(EXAMPLES / "softmax.ta")
    text = open(spec).read()
    with dialects.context(), ir.Location.unknown():
        module = load_spec(spec)
        tiled = build_tile(module, {}, "")
        first = verify_build(module, tiled, spec, text, "", ("sm_80",), use_cache=True)
        assert first.status() == 0 and first.counts()["proved"] > 0
        checked = []
        real = verification.check_spec
        monkeypatch.setattr(verification, "check_spec", lambda *a, **k: checked.append(1) or real(*a, **k))
        again = verify_build(module, tiled, spec, text, "", ("sm_80",), use_cache=True)
        assert not checked and again.as_json() == first.as_json()
        (entry,) = (tmp_path / "proofs").iterdir()
        stored = json.loads(entry.read_text())
        stored["report"] = stored["report"].replace('"verdict": "proved"', '"verdict": "counterexample"', 1)
        entry.write_text(json.dumps(stored))
        capsys.readouterr()
        third = verify_build(module, tiled, spec, text, "", ("sm_80",), use_cache=True)
        assert checked and third.summary() == first.summary()
        assert "discarding the cached verification report" in capsys.readouterr().err
        other = verify_build(module, tiled, spec, text, "", ("sm_90a",), use_cache=True)  # another target: proved anew
        assert len(checked) == 2 and other.status() == 0
