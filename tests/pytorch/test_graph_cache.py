"""The graph cache (tilec/pytorch/cache.py): a captured graph module raised once is read back
in a later compile without exporting, importing or raising it again; anything its ta
depends on changes the key; a broken or edited entry is discarded with a warning and raised again."""

import pytest
import torch

from tilec.cache import where
from tilec.pytorch import cache, importer
from tilec.pytorch.api import CompiledGraph


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path))


class _Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 6)

    def forward(self, x):
        return torch.softmax(self.lin(x) * 0.5, dim=-1)


def _graph_module(model, x):
    return torch.export.export(model, (x,), strict=False).module()


def test_a_graph_module_is_raised_once_and_read_back(monkeypatch):
    model, x = _Scaled(), torch.randn(3, 8)
    gm = _graph_module(model, x)
    first = CompiledGraph(gm, (x,), "loop", True, "g")
    assert len(list(where("graphs").glob("*.json"))) == 1

    def no_import(*args):
        raise AssertionError("a cached graph is not imported again")

    monkeypatch.setattr(importer, "import_torch", no_import)
    again = CompiledGraph(gm, (x,), "loop", True, "g")
    assert again.ta == first.ta and again.graph == first.graph
    with torch.no_grad():
        torch.testing.assert_close(again(x), model(x), rtol=1e-5, atol=1e-5)


def test_what_the_ta_depends_on_is_in_the_key():
    model, x = _Scaled(), torch.randn(3, 8)
    gm = _graph_module(model, x)
    key = cache.graph_key(gm, (x,), "g")
    assert key == cache.graph_key(_graph_module(model, x), (torch.randn(3, 8),), "g")  # values are inputs
    assert key != cache.graph_key(gm, (x,), "h")
    assert key != cache.graph_key(gm, (torch.randn(4, 8),), "g")
    assert key != cache.graph_key(gm, (torch.randn(8, 3).t(),), "g")  # strides
    gm.register_buffer("extra", torch.zeros(2))
    assert key != cache.graph_key(gm, (x,), "g")
    assert cache.graph_key(model, (x,), "g") is None  # not a graph module: known only once exported


def test_a_broken_entry_is_discarded_and_written_again(capsys):
    model, x = _Scaled(), torch.randn(3, 8)
    gm = _graph_module(model, x)
    key = cache.graph_key(gm, (x,), "g")
    where("graphs").mkdir(parents=True)
    (where("graphs") / f"{key}.json").write_text('{"ta": "func.func @broken(", "graph": []}')
    graph = CompiledGraph(gm, (x,), "loop", True, "g")
    with torch.no_grad():
        torch.testing.assert_close(graph(x), model(x), rtol=1e-5, atol=1e-5)
    assert f"cache entry graphs/{key}.json has no seal" in capsys.readouterr().err
    with graph.context:
        assert cache.load(key) is not None


def test_an_edited_entry_is_discarded_and_raised_again(capsys):
    """2 * relu(x) edited into 3 * relu(x) on disk: the entry fails its seal, is deleted, and the
    function is raised again; the compiled graph still computes 2 * relu(x)."""
    import tilec

    def twice_relu(x):
        return 2 * torch.relu(x)

    x = torch.randn(4, 8)
    tilec.compile(twice_relu, (x,), strict=True)
    (entry,) = where("graphs").glob("*.json")
    stored = entry.read_bytes()
    assert b"arith.constant 2.000000e+00" in stored
    entry.write_bytes(stored.replace(b"arith.constant 2.000000e+00", b"arith.constant 3.000000e+00"))
    capsys.readouterr()
    graph = tilec.compile(twice_relu, (x,), strict=True)
    with torch.no_grad():
        torch.testing.assert_close(graph(x), 2 * torch.relu(x))
    err = capsys.readouterr().err
    assert f"tilec: warning: cache entry graphs/{entry.name} does not match its seal" in err
    assert "discarded, raising the graph again" in err
    assert entry.read_bytes() == stored  # written again as it was


def test_a_module_is_raised_once_and_read_back_after_its_export(monkeypatch):
    """tilec.compile on a plain module: exported again, but neither imported nor raised again."""
    import tilec

    model, x = _Scaled(), torch.randn(3, 8)
    first = tilec.compile(model, (x,), strict=True)
    assert len(list(where("graphs").glob("*.json"))) == 1

    def no_import(*args):
        raise AssertionError("a cached graph is not imported again")

    monkeypatch.setattr(importer, "_linalg", no_import)
    again = tilec.compile(model, (x,), strict=True)
    assert again.ta == first.ta and again.graph == first.graph
    with torch.no_grad():
        torch.testing.assert_close(again(x), model(x), rtol=1e-5, atol=1e-5)


class _ScaledBy(_Scaled):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.softmax(self.lin(x) * self.scale, dim=-1)


def _shifted_by(c):
    def shifted(y):
        return y + c
    return shifted


def test_what_an_exported_graph_depends_on_is_in_its_key():
    model, x = _ScaledBy(0.5), torch.randn(3, 8)
    state = importer.state_of(model)

    def key(m, inputs, name="g", state=state):
        return cache.program_key(importer.exported(m, inputs)[0], state, inputs, name)

    first = key(model, (x,))
    assert first == key(_ScaledBy(0.5), (torch.randn(3, 8),))  # weights are inputs: their values are not
    assert first != key(_ScaledBy(0.25), (x,))                 # a constant in the code
    assert first != key(model, (x,), "h")
    assert first != key(model, (torch.randn(5, 8),))
    wide = _ScaledBy(0.5)
    wide.lin = torch.nn.Linear(8, 7)
    assert first != key(wide, (x,), state=importer.state_of(wide))
    y, c = torch.randn(4, 2), torch.tensor([1.0, 2.0])
    same = key(_shifted_by(c), (y,), state={})
    assert same == key(_shifted_by(c.clone()), (y,), state={})
    assert same != key(_shifted_by(torch.tensor([1.0, 3.0])), (y,), state={})  # a constant tensor's values
