"""posenc.read_config, posenc.describe and posenc.figure against the commands they run."""

import json
import os

import pytest

import posenc
from conftest import cli, config

CONFIGS = ["Meta-Llama-3.1-8B.json", "gpt-neox-20b.json", "Qwen2-VL-7B-Instruct.json"]


@pytest.mark.parametrize("name", CONFIGS)
def test_read_config_is_the_config_check(name):
    path = config(name)
    run = cli("check", "--config", path, "--json")
    document = run.json()
    layers = posenc.read_config(path)
    assert list(layers) == document["layers"]
    assert layers.findings == document["findings"]
    assert layers.as_dict() == document
    with open(path) as f:
        from_dict = posenc.read_config(json.load(f)).as_dict()
    # The same but the name the config is read under.
    assert from_dict.pop("config") == "<config>"
    document.pop("config")
    assert from_dict == document


def test_read_config_refusals(folder):
    missing = os.path.join(folder, "missing.json")
    with pytest.raises(OSError) as raised:
        posenc.read_config(missing)
    assert str(raised.value) == cli("check", "--config", missing).message("check")
    bad = os.path.join(folder, "bad.json")
    with open(bad, "w") as f:
        f.write("[1, 2]")
    run = cli("check", "--config", bad)
    with pytest.raises((OSError, ValueError)) as raised:
        posenc.read_config(bad)
    assert str(raised.value) == run.message("check")


@pytest.mark.parametrize("params,flags", [
    ({"encoding": "rope", "preset": "llama-3-1-8b"}, ["--encoding", "rope", "--preset", "llama-3-1-8b"]),
    ({"encoding": "alibi", "heads": 12}, ["--encoding", "alibi", "--heads", "12"]),
    ({"config": config("gpt-neox-20b.json")}, ["--config", config("gpt-neox-20b.json")]),
])
def test_describe_is_the_command(params, flags):
    assert posenc.describe(**params) == cli("describe", "--json", *flags).json()


def test_describe_refuses_as_the_command():
    run = cli("describe")
    with pytest.raises(ValueError) as raised:
        posenc.describe()
    assert str(raised.value) == run.message("describe")


def test_figures_are_the_exported_files(folder):
    png = os.path.join(folder, "f.png")
    svg = os.path.join(folder, "f.svg")
    assert cli("export", "heatmap", "-o", png, "--d-model", "64", "--width", "400", "--height", "300").code == 0
    assert cli("export", "heatmap", "-o", svg, "--d-model", "64", "--width", "400", "--height", "300").code == 0
    figure = posenc.figure("heatmap", d_model=64, size=(400, 300))
    with open(png, "rb") as f:
        assert figure._repr_png_() == f.read()
    with open(svg, encoding="utf-8") as f:
        assert figure._repr_svg_() == f.read()
    saved = os.path.join(folder, "saved.pdf")
    figure.save(saved)
    with open(saved, "rb") as f:
        assert f.read(5) == b"%PDF-"
    figure.save(saved)  # replaced, as a notebook saves again


def test_a_lessons_figure(folder):
    path = os.path.join(folder, "l.png")
    assert cli("export", "--lesson", "rope-scaling", "-o", path, "--size", "slide").code == 0
    with open(path, "rb") as f:
        assert posenc.figure(lesson="rope-scaling", size="slide").png() == f.read()


def test_figure_refusals():
    run = cli("export", "no-such-figure", "-o", "x.png")
    with pytest.raises(ValueError) as raised:
        posenc.figure("no-such-figure")
    assert str(raised.value) == run.message("export")
    with pytest.raises(ValueError):
        posenc.figure("heatmap", d_model=-3)
    with pytest.raises(ValueError):
        posenc.figure()
