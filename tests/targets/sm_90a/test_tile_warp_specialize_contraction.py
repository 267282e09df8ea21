"""sm_90a's warp-specialised contraction (copy engine, mbarriers, wgmma): the tile interpreter
matches the oracle at shapes that divide no tile and size-1 dims, for every operand storage
and 1-3 consumer warpgroups; a broken ring deadlocks or reads stale data in the interpreter,
as does a stage released while its asynchronous wgmma is in flight;
the verifier proves the ring and the tiles, and refutes each of its mutants."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import run_tile_stage as _run  # spec -> oracle and tile interpreter, compared
from tilec import dialects
from tilec.dialects import layout
from tilec.diagnostics import TilecError
from tilec.lowering.driver import build_tile, to_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.build.verification_spec import verify_spec
from tilec.verify.kernels import check_build

ONE = "bm=64 bn=64 bk=64 warps=4 stages=2 consumers=1"
TWO = "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2"
THREE = "bm=192 bn=64 bk=64 warps=12 stages=2 consumers=3"


def gemm(a: str, b: str, dtype: str = "bf16", out: str = "f32") -> str:
    dims = {"mk": ("[M, K]", "[i, k]"), "km": ("[K, M]", "[k, i]"), "kn": ("[K, N]", "[k, j]"),
            "nk": ("[N, K]", "[j, k]")}
    return (f"param M = 100, N = 72, K = 200\ninput A{dims[a][0]} : {dtype}\ninput B{dims[b][0]} : {dtype}\n"
            f"output C[M, N] : {out}\nC[i, j] = sum[k](A{dims[a][1]} * B{dims[b][1]})\n")


SHAPES = [{"M": 130, "N": 72, "K": 200}, {"M": 1, "N": 1, "K": 1}, {"M": 65, "N": 129, "K": 64}]


def assert_gemms_match(schedule: str, storages, shapes, out: str = "f32") -> None:
    """The tile interpreter matches the oracle on gemm(storage, out) at every shape."""
    for storage in storages:
        for sizes in shapes:
            with dialects.context(), ir.Location.unknown():
                results = _run(spec_to_ta(gemm(*storage.split(), out=out), "hopper.ta"), sizes, schedule)
            assert all(r.ok for r in results), (storage, sizes, [str(r) for r in results])


def assert_examples_match(schedule: str, cases) -> None:
    """The tile interpreter matches the oracle on each (example name, shapes)."""
    for name, sizes in cases:
        with dialects.context(), ir.Location.unknown():
            results = _run(load_spec(str(EXAMPLES / f"{name}.ta")), sizes, schedule)
        assert all(r.ok for r in results), (name, sizes, [str(r) for r in results])


@pytest.mark.parametrize("storage", ["mk kn", "km kn", "mk nk", "km nk"])
@pytest.mark.parametrize("schedule", [ONE, TWO, THREE], ids=["one-consumer", "two", "three"])
def test_operand_storage_matches_the_oracle(storage, schedule):
    assert_gemms_match(schedule, [storage], SHAPES)


@pytest.mark.parametrize("name,shapes", [("matmul_bias_gelu", {"M": 33, "N": 70, "K": 100}),
                                         ("batched_gemm", {"Bt": 3, "M": 17, "N": 9, "K": 130}),
                                         ("gemm", {"M": 1, "N": 256, "K": 1000})])
def test_epilogues_and_batches_match_the_oracle(name, shapes):
    with dialects.context(), ir.Location.unknown():
        results = _run(load_spec(str(EXAMPLES / f"{name}.ta")), shapes, TWO)
    assert all(r.ok for r in results), [str(r) for r in results]


# -- mutants: each a one-line change of the emitted tile IR ------------------------------------
def _consumer_parity(text):
    """the consumers wait for parity n + 1 of full (the producer's parity: a phase too early)"""
    waits = re.findall(r'"tile.mbarrier_wait"\((%\d+), (%\d+), (%\d+)\)', text)
    (_, _, producer_parity), (bar, stage, parity) = waits
    return text.replace(f'"tile.mbarrier_wait"({bar}, {stage}, {parity})',
                        f'"tile.mbarrier_wait"({bar}, {stage}, {producer_parity})')


def _producer_parity(text):
    """the producer waits for parity n of empty (a fresh barrier's wait then stalls)"""
    waits = re.findall(r'"tile.mbarrier_wait"\((%\d+), (%\d+), (%\d+)\)', text)
    (bar, stage, parity), _ = waits
    n = re.search(rf"{re.escape(parity)} = arith.subi %c1, (%\d+)", text).group(1)
    return text.replace(f'"tile.mbarrier_wait"({bar}, {stage}, {parity})', f'"tile.mbarrier_wait"({bar}, {stage}, {n})')


def _no_release(text):
    """the consumers never release a stage"""
    return re.sub(r'\s*"tile.mbarrier_arrive"\(.*\n', "\n", text, count=1)


def _wrong_bytes(text):
    """the producer expects one 16-byte chunk too few"""
    return re.sub(r"bytes = (\d+) : i64", lambda m: f"bytes = {int(m.group(1)) - 16} : i64", text, count=1)


def _overrun(text):
    """the producer copies into a stage without waiting for its release"""
    return re.sub(r'\s*"tile.mbarrier_wait"\(.*\n', "\n", text, count=1)


def _early_release(text):
    """the consumers release the previous stage before waiting for its wgmma group"""
    wait = '\n        "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()'
    assert wait in text
    return re.sub(r"(\n\s*scf.yield %\d+ : tensor)", wait + r"\1", text.replace(wait, "", 1), count=1)


def _two_in_flight(text):
    """the consumers' wgmma_wait leaves two groups in flight before the release"""
    return text.replace("{pending = 1 : i64}", "{pending = 2 : i64}", 1)


def _release_current(text):
    """the consumers release the stage they just issued a wgmma on (not the previous one)"""
    m = re.search(r"(%\d+) = arith.subi (%arg\d+), %c1 : index\n(\s*)(%\d+) = arith.remsi \1", text)
    return text.replace(m.group(0), f"{m.group(1)} = arith.subi {m.group(2)}, %c0 : index\n{m.group(3)}"
                                     f"{m.group(4)} = arith.remsi {m.group(1)}", 1)


def _no_drain(text):
    """the epilogue reads the accumulator without waiting for the last wgmma group"""
    return text.replace('"tile.wgmma_wait"() {pending = 0 : i64} : () -> ()', "", 1)


def _no_tail_release(text):
    """the last iteration's stage is never released"""
    arrives = re.findall(r'\n\s*"tile.mbarrier_arrive"\(.*', text)
    return text.replace(arrives[-1], "")


def _arrivals(text):
    """empty counts half the consumer warps"""
    return re.sub(r"arrivals = (\d+) : i64", lambda m: f"arrivals = {int(m.group(1)) // 2} : i64",
                  text.replace("arrivals = 1 : i64", "arrivals = ONE"), count=1).replace("arrivals = ONE",
                                                                                         "arrivals = 1 : i64")


def _wrong_stage(text):
    """the consumers wait on the stage of the next iteration"""
    m = re.search(r'"tile.mbarrier_wait"\((%\d+), (%\d+), (%\d+)\)(?=[^\n]*\n[^\n]*"tile.wgmma")', text)
    bar, stage, parity = m.groups()
    return text.replace(m.group(0), f'"tile.mbarrier_wait"({bar}, {parity}, {parity})')


def _copy_on_empty(text):
    """the second copy completes on the empty barrier"""
    full, empty = re.findall(r'(%\d+) = "tile.mbarrier_alloc"', text)
    copies = re.findall(r'"tile.tma_copy"\([^)]*\)', text)
    return text.replace(copies[1], copies[1][:-len(full) - 1] + empty + ")")


MUTANTS = [_consumer_parity, _producer_parity, _no_release, _wrong_bytes, _overrun, _early_release, _arrivals,
           _wrong_stage, _copy_on_empty, _two_in_flight, _release_current, _no_drain, _no_tail_release]


def _verdicts(schedule: str, mutate=None, spec=None, path: str = "hopper.ta", shapes=None) -> list:
    """(check, verdict, detail) of the kernel of ``spec`` (text; or the file ``path``) under
    ``schedule``, its tile IR first edited by ``mutate``."""
    with dialects.context(), ir.Location.unknown():
        from_file = spec is None and path != "hopper.ta"
        module = load_spec(path) if from_file else spec_to_ta(spec or gemm("mk", "kn"), path)
        build = build_tile(module, shapes, schedule)
        if mutate is not None:
            text = str(build.tile)
            broken = mutate(text)
            assert broken != text, "the mutation did not apply"
            build.tile = ir.Module.parse(broken)
        return [(r.check, r.verdict, r.detail) for r in check_build(build, path)]


def assert_proved(schedule: str, claims: tuple, **kwargs) -> None:
    """Every row of the kernel under ``schedule`` is proved, and some row states each claim."""
    rows = _verdicts(schedule, **kwargs)
    assert all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]
    checks = " ".join(c for c, _, _ in rows)
    for claim in claims:
        assert claim in checks, claim


@pytest.mark.parametrize("schedule", [ONE, TWO, THREE], ids=["one-consumer", "two", "three"])
@pytest.mark.parametrize("storage", ["mk kn", "km nk"])
def test_the_ring_and_tiles_are_proved(schedule, storage):
    rows = _verdicts(schedule, spec=gemm(*storage.split()))
    assert all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]
    checks = " ".join(c for c, _, _ in rows)
    for claim in ("ring of", "counts the arrivals", "bytes expected on full", "phase n of full",
                  "no wait is left unsatisfied", "wgmma reads through its descriptor", "each copy box lands",
                  "8 bank groups", "accumulates A at the reference's indices", "stored element is the fused ta's"):
        assert claim in checks, claim


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.__name__.strip("_") for m in MUTANTS])
def test_each_ring_mutant_is_refuted(mutant):
    rows = _verdicts(TWO, mutant)
    assert any(v == "counterexample" for _, v, _ in rows), rows


def descriptors_in_the_64_byte_mode(monkeypatch) -> None:
    """Make every wgmma descriptor (what the emitter prints and the verifier reads) say the
    64-byte swizzle mode; the tiles are in the 128-byte one."""
    right = layout.wgmma_operand

    def wrong(lay, k_major, eb):
        fields, step = right(lay, k_major, eb)
        return (fields & ~(3 << 62)) | (2 << 62), step

    monkeypatch.setattr(layout, "wgmma_operand", wrong)


def test_a_descriptor_in_the_wrong_swizzle_mode_is_refuted(monkeypatch):
    descriptors_in_the_64_byte_mode(monkeypatch)
    rows = _verdicts(TWO)
    refuted = [c for c, v, _ in rows if v == "counterexample"]
    assert refuted and all("wgmma reads through its descriptor" in c for c in refuted), rows


@pytest.mark.parametrize("mutant,message", [(_wrong_bytes, "bytes more than its phase expects|deadlock"),
                                            (_no_release, "deadlock"), (_producer_parity, "deadlock")])
def test_the_interpreter_stops_on_a_broken_ring(mutant, message):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=message):
            _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 130, "N": 72, "K": 400}, TWO,
                 mutant)


@pytest.mark.parametrize("k", [400])
def test_an_overrunning_producer_overwrites_stages_in_the_interpreter(k):
    """two rounds ahead, a stage's phase completes twice and the consumers' parity never comes
    back (a stall, as on the GPU); one round ahead, they read the newer tile (wrong numbers)"""
    with dialects.context(), ir.Location.unknown():
        try:
            results = _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 130, "N": 72, "K": k}, TWO, _overrun)
        except TilecError as err:
            assert "deadlock" in str(err)
            return
    assert not all(r.ok for r in results)


def test_a_release_before_the_wgmma_wait_reads_refilled_stages_in_the_interpreter():
    """the stage is released while its wgmma group is in flight: the producer refills it at
    once, and the group reads the newer tile when it retires (wrong numbers, not a stall)"""
    with dialects.context(), ir.Location.unknown():
        right = _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 130, "N": 72, "K": 400}, TWO)
        wrong = _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 130, "N": 72, "K": 400}, TWO, _early_release)
    assert all(r.ok for r in right) and not all(r.ok for r in wrong)


def test_reading_the_accumulator_before_the_last_group_retires_stops_the_interpreter():
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="read before a tile.wgmma_wait retired its group"):
            _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 130, "N": 72, "K": 400}, TWO, _no_drain)


@pytest.mark.parametrize("schedule,reason", [
    ("bm=128 bn=128 bk=64 warps=4 stages=3 consumers=2", "2 consumer warpgroups are 8 warps"),
    ("bm=64 bn=128 bk=64 warps=8 stages=3 consumers=2", "each of the 2 consumer warpgroups owns 64 rows"),
    ("bm=128 bn=128 bk=32 warps=8 stages=3 consumers=2", "bk = 64"),
    ("bm=128 bn=96 bk=64 warps=8 stages=3 consumers=2", "bn=96 must be 64, 128, 192 or 256"),
    ("bm=128 bn=256 bk=64 warps=8 stages=6 consumers=2", "bytes of shared memory"),
    # ptxas cannot compile an m64n256 wgmma in the 128 registers 512 threads have at launch
    ("bm=192 bn=256 bk=64 warps=12 stages=3 consumers=3", "needs about 154 registers; 512 threads have 128"),
])
def test_illegal_warp_specialised_schedules_are_refused(schedule, reason):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=reason):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), schedule)


@pytest.mark.parametrize("shapes", [{"M": 130, "N": 72, "K": 200}, {"M": 1, "N": 1, "K": 1}])
def test_contractions_sharing_a_match_the_oracle(shapes):
    """SwiGLU's two contractions: each stage holds X's k tile and one of each weight, each
    contraction its accumulator; the ring and the tiles are proved."""
    with dialects.context(), ir.Location.unknown():
        results = _run(load_spec(str(EXAMPLES / "swiglu.ta")), shapes, TWO)
    assert all(r.ok for r in results), [str(r) for r in results]
    report = verify_spec(str(EXAMPLES / "swiglu.ta"), TWO, targets=("sm_90a",))
    bad = [(r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    assert sum("bytes expected on full are the bytes the copies bring (49152)" in r.check for r in report.results) == 1


def test_forms_the_warp_specialised_kernel_does_not_take_say_so():
    two = ("param M = 64, N = 64, K = 64\ninput X[M, K] : bf16\ninput G[K, N] : bf16\ninput U[K, N] : bf16\n"
           "output Y[M, N] : f32\nY[i, j] = sum[k](X[i, k] * G[k, j]) * sum[k](X[i, k] * U[k, j])\n")
    with dialects.context(), ir.Location.unknown():
        # two accumulators of 64 x 256 per consumer warpgroup do not fit its registers
        with pytest.raises(TilecError, match="keeps 256 accumulators per thread"):
            to_tile(spec_to_ta(two, "swiglu.ta"), "bm=128 bn=256 bk=64 warps=8 stages=3 consumers=2")
        with pytest.raises(TilecError, match="builds contractions and attention, not row programs"):
            build_tile(load_spec(str(EXAMPLES / "softmax.ta")), None, "bm=64 bn=64 warps=4 consumers=1")


def test_the_package_carries_tensor_maps_and_the_sm90a_kernel_alone(tmp_path):
    from tilec.build.package import build

    manifest = build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "g.tkp"), TWO, ("sm_90a",), use_cache=False)
    assert list(manifest["kernels"]) == ["sm_90a"]
    manifest = manifest["kernels"]["sm_90a"]
    assert manifest["variants"] == {"aligned": "gemm"}  # the copy engine: no element-copy variant
    assert manifest["tensor_maps"] == [{"arg": "A", "box": [128, 64], "swizzle": 128},
                                       {"arg": "B", "box": [64, 64], "swizzle": 128}]
    assert manifest["threads"] == 384 and manifest["ptxas"]["spill_stores"] == 0
    import zipfile

    source = zipfile.ZipFile(tmp_path / "g.tkp").read("gemm.sm_90a.cu").decode()
    for text in ("__launch_bounds__(384, 1)", "setmaxnreg.dec.sync.aligned.u32 40", "wgmma.mma_async.sync.aligned.m64n128k16",
                 "const __grid_constant__ TensorMap tm_A", "cp.async.bulk.tensor.2d"):
        assert text in source, text
    with pytest.raises(TilecError, match=r"which sm_80 does not have \(targets with them: sm_90a\): give it to those "
                                         r"alone \(--schedule sm_90a:...\)"):
        build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "h.tkp"), TWO, ("sm_80", "sm_90a"), use_cache=False)
