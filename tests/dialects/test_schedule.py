"""A package always launches: a schedule that reads or writes rows with the copy engine is
legal only where the rows it will see are a multiple of 16 bytes apart (a tensor map's rule).
Fixed sizes are checked when the kernel is built (an explicit --schedule gets the rule, the pick
and the tuner skip the point), the sizes the cost model ranks for when it picks, and a symbolic
package's rows by tilec.runtime when it plans a call, before anything is launched."""

import pytest
import torch

from conftest import EXAMPLES

from tilec.dialects.schedule import Schedule

GEMM_BT = """param M = 1000, N = 1000, K = 999
input A[M, K] : bf16
input B[N, K] : bf16
output C[M, N] : bf16
C[i, j] = sum[k](A[i, k] * B[j, k])
"""
WARP_SPECIALISED = "bm=64,bn=128,bk=64,warps=4,stages=4,consumers=1"


def test_the_rule_names_the_tensor_its_rows_and_the_schedule_that_reads_any_row():
    s = Schedule(bm=64, bn=128, bk=64, warps=4, stages=4, consumers=1)
    (reason,) = s.copy_engine_reasons({"A": (1998, "read"), "B": (2048, "read")}, "sm_90a")
    assert "reads A in rows of 1998 bytes" in reason and "consumers=0" in reason and "B" not in reason
    (reason,) = s.copy_engine_reasons({"C": (2002, "write")}, "sm_90a")
    assert "writes C" in reason and "tma-store=false" in reason
    assert s.copy_engine_reasons({"A": (2048, "read"), "C": (256, "write")}, "sm_90a") == []
    assert s.copy_engine_reasons({"A": (1998, "read")}, "sm_80") == []  # no copy engine there


def test_legal_rejects_the_copy_engine_where_the_sizes_are_fixed():
    s = Schedule(bm=64, bn=128, bk=64, warps=4, stages=4, consumers=1)
    assert any("rows of 1998 bytes" in r for r in s.legal("contraction", {"copy_rows": {"A": (1998, "read")}},
                                                          "sm_90a"))
    assert not any("copy engine" in r for r in s.legal("contraction", {"copy_rows": {"A": (2048, "read")}}, "sm_90a"))
    # on a target without the copy engine the schedule is refused for that, not for a row length
    (reason,) = s.legal("contraction", {"copy_rows": {"A": (1998, "read")}}, "sm_80")
    assert "needs tma, wgmma, setmaxnreg, which sm_80 does not have" in reason


def test_an_explicit_schedule_at_fixed_sizes_is_a_compile_time_error(tilec, tmp_path):
    spec = tmp_path / "gemm_bt.ta"
    spec.write_text(GEMM_BT)
    status, out, err = tilec("compile", spec, "--shape", "M=1000,N=1000,K=999", "--target", "sm_90a",
                             "--schedule", WARP_SPECIALISED, "--emit", "tile")
    assert status == 1 and "Traceback" not in err, err
    assert "the copy engine reads A in rows of 1998 bytes, B in rows of 1998 bytes" in err and "consumers=0" in err
    status, out, err = tilec("compile", spec, "--shape", "M=1000,N=1000,K=1024", "--target", "sm_90a",
                             "--schedule", WARP_SPECIALISED, "--emit", "tile")
    assert status == 0, err  # rows of 2048 bytes: the copy engine takes them


def test_a_tma_store_of_rows_it_cannot_describe_is_refused(tilec, tmp_path):
    spec = tmp_path / "gemm.ta"
    spec.write_text(GEMM_BT.replace("B[N, K]", "B[K, N]").replace("B[j, k]", "B[k, j]"))
    status, out, err = tilec("compile", spec, "--shape", "M=1000,N=1001,K=1024", "--target", "sm_90a",
                             "--schedule", WARP_SPECIALISED + ",tma-store=true", "--emit", "tile")
    assert status == 1 and "writes C in rows of 2002 bytes" in err and "tma-store=false" in err, err


def test_the_pick_skips_the_copy_engine_at_the_sizes_it_ranks_for(tmp_path, monkeypatch):
    """The spec's default sizes (K = 999) are the ones the model ranks: no warp-specialised point."""
    pytest.importorskip("cuda.bindings.nvrtc")
    from tilec.tune.pick import resolve_schedule

    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "gemm_bt.ta"
    spec.write_text(GEMM_BT)
    chosen = resolve_schedule(str(spec), GEMM_BT, {}, ("sm_90a",))
    assert "consumers=0" in chosen.schedule.replace(" ", ","), chosen


@pytest.fixture(scope="module")
def symbolic_package(tmp_path_factory):
    """A warp-specialised GEMM for any sizes (it reads A and B with the copy engine)."""
    pytest.importorskip("cuda.bindings.nvrtc")
    from tilec.build.package import build

    where = tmp_path_factory.mktemp("tma")
    spec = where / "gemm_bt.ta"
    spec.write_text(GEMM_BT.replace("param M = 1000, N = 1000, K = 999", "param M, N, K"))
    build(str(spec), str(where / "g.tkp"), schedule=WARP_SPECIALISED.replace(",", " "), targets=("sm_90a",),
          use_cache=False, verify=False)
    return str(where / "g.tkp")


@pytest.mark.parametrize("k", [999, 1001, 77])
def test_the_runtime_refuses_odd_rows_before_the_launch(symbolic_package, k):
    from tilec.runtime import load
    from tilec.runtime.launch import check_maps
    from tilec.runtime.tensor_map import TensorMapError

    kernel = load(symbolic_package, register_op=False)
    assert [e["arg"] for e in kernel.manifest["tensor_maps"]] == ["A", "B"]
    a, b = torch.zeros(64, k, dtype=torch.bfloat16), torch.zeros(32, k, dtype=torch.bfloat16)
    env = {"M": 64, "N": 32, "K": k}
    with pytest.raises(TensorMapError, match=f"reads A with the copy engine: dim 0 steps {2 * k} bytes.*consumers=0"):
        check_maps(kernel, [a, b], [((64, 32), torch.bfloat16)], env)


def test_the_runtime_takes_rows_the_copy_engine_describes(symbolic_package):
    from tilec.runtime import load
    from tilec.runtime.launch import check_maps

    kernel = load(symbolic_package, register_op=False)
    a, b = torch.zeros(64, 1024, dtype=torch.bfloat16), torch.zeros(32, 1024, dtype=torch.bfloat16)
    check_maps(kernel, [a, b], [((64, 32), torch.bfloat16)], {"M": 64, "N": 32, "K": 1024})


def test_an_output_stored_through_a_view_is_checked_as_that_view(tmp_path):
    """Einsum attention writes O [B, S, H, D] as the row-major view [B, S, H*D] with the copy
    engine: the runtime's check takes the view's rank and strides, as the launch's tensor map does."""
    pytest.importorskip("cuda.bindings.nvrtc")
    from tilec.build.package import build
    from tilec.runtime import load
    from tilec.runtime.launch import check_maps

    out = tmp_path / "e.tkp"
    build(str(EXAMPLES / "einsum_attention.ta"), str(out), "bm=128 bn=128 warps=8 stages=2 consumers=2 tma-store=true",
          ("sm_90a",), use_cache=False, verify=False, shapes={"D": 64})
    kernel = load(str(out), register_op=False)
    (entry,) = [e for e in kernel.manifest["tensor_maps"] if e["arg"] == "O"]
    assert len(entry["box"]) == 3 and "view" in entry
    env = {"B": 2, "S": 97, "T": 130, "H": 3, "D": 64}
    q = torch.zeros(2, 97, 3, 64, dtype=torch.bfloat16)
    k = v = torch.zeros(2, 130, 3, 64, dtype=torch.bfloat16)
    check_maps(kernel, [q, k, v], [((2, 97, 3, 64), torch.bfloat16)], env)
