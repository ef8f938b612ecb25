"""posenc.table against posenc table: the same array, bit for bit, for every quantity; the same
refusal where the command refuses."""

import re

import numpy as np
import pytest

import posenc
from conftest import bits, cli


def quantities():
    # The command's own list, from its refusal of a word that is none.
    run = cli("table", "no-such-quantity", "-o", "x.npy")
    assert run.code == 2
    words = re.search(r"QUANTITY must be one of (.*); got", run.err).group(1)
    return [w.strip() for w in re.split(r",|\bor\b", words) if w.strip()]


@pytest.mark.parametrize("quantity", quantities())
def test_every_quantity_equals_the_command_line(folder, quantity):
    params = {"max_len": 24}
    flags = ["--max-len", "24"]
    path = "%s/t.npy" % folder
    run = cli("table", quantity, "-o", path, *flags)
    if run.code != 0:
        # Refused by both, in the same words.
        with pytest.raises(ValueError) as raised:
            posenc.table(quantity, **params)
        assert str(raised.value) == run.message("table")
        return
    table = posenc.table(quantity, **params)
    expected = np.load(path)
    assert table.dtype == np.float32 and table.shape == expected.shape
    assert bits(table) == bits(expected)


@pytest.mark.parametrize("params,flags", [
    ({"d_model": 64}, ["--d-model", "64"]),
    ({"preset": "llama-3-1-8b", "max_len": 300}, ["--preset", "llama-3-1-8b", "--max-len", "300"]),
    ({"encoding": "alibi", "heads": 8, "max_len": 5}, ["--encoding", "alibi", "--heads", "8", "--max-len", "5"]),
    ({"d_model": 16, "positions": "3:9", "dims": [0, 1, "4:6"]}, ["--d-model", "16", "--positions", "3:9",
                                                                 "--dims", "0,1,4:6"]),
    ({"d_model": 8, "rope_theta": 500000.0, "encoding": "rope", "head_dim": 8},
     ["--d-model", "8", "--rope-theta", "500000.0", "--encoding", "rope", "--head-dim", "8"]),
])
def test_parameters_are_the_flags(folder, params, flags):
    quantity = "alibi-bias" if params.get("encoding") == "alibi" else \
        "rope-cos" if "preset" in params or params.get("encoding") == "rope" else "pe"
    path = "%s/t.npy" % folder
    assert cli("table", quantity, "-o", path, *flags).code == 0
    assert bits(posenc.table(quantity, **params)) == bits(np.load(path))


def test_a_config_as_a_dict_or_a_path(folder):
    import json
    from conftest import config
    path = config("Meta-Llama-3.1-8B.json")
    with open(path) as f:
        as_dict = json.load(f)
    from_path = posenc.table("rope-cos", config=path, max_len=64)
    assert bits(posenc.table("rope-cos", config=as_dict, max_len=64)) == bits(from_path)
    out = "%s/t.npy" % folder
    assert cli("table", "rope-cos", "-o", out, "--config", path, "--max-len", "64").code == 0
    assert bits(from_path) == bits(np.load(out))


def test_the_array_is_writable_and_owns_its_memory():
    table = posenc.table("pe", d_model=8, max_len=4)
    table[0, 0] = 5
    assert table[0, 0] == 5
    assert posenc.table("pe", d_model=8, max_len=4)[0, 0] == 0


@pytest.mark.parametrize("params,exception", [
    ({"d_model": "abc"}, ValueError),
    ({"d_model": 0}, ValueError),
    ({"no_such_parameter": 1}, ValueError),
    ({"preset": "no-such-preset"}, ValueError),
    ({"config": "/no/such/config.json"}, OSError),
    ({"max_len": 1 << 20, "d_model": 1 << 16, "memory_budget": 1}, MemoryError),
])
def test_bad_parameters_raise_the_command_lines_message(folder, params, exception):
    flags = []
    for key, value in params.items():
        flags.append("--%s=%s" % (key.replace("_", "-"), value))
    run = cli("table", "pe", "-o", "%s/t.npy" % folder, "--whole", *flags)
    assert run.code != 0
    with pytest.raises(exception) as raised:
        posenc.table("pe", **params)
    assert str(raised.value) == run.message("table")


@pytest.mark.parametrize("params", [{"o": "t.npy"}, {"output": "t.npy"}, {"format": "csv"}, {"force": True}])
def test_the_flags_the_function_sets_are_no_keywords(folder, params, monkeypatch):
    # Where the table goes is the function's own: o= or format= would fight it (o= wrote a file).
    monkeypatch.chdir(folder)
    with pytest.raises(TypeError) as raised:
        posenc.table("pe", d_model=8, max_len=4, **params)
    assert "returned as an array" in str(raised.value)
    with pytest.raises(TypeError):
        posenc.figure("heatmap", d_model=8, max_len=4, **params)
    with pytest.raises(TypeError):
        posenc.check(posenc.table("pe", d_model=8, max_len=4), json=False)
    import os
    assert os.listdir(folder) == []
