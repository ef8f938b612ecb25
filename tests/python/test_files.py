""".npz files (numpy's savez and savez_compressed) read by posenc check and posenc.check alike, and
posenc table's CSV header as pandas reads it."""

import csv
import os
import zipfile

import numpy as np
import pytest

import posenc
from conftest import cli

VERDICT_CODES = (0, 1, 5, 6, 7)


@pytest.fixture
def archives(folder):
    pe = posenc.table("pe", d_model=32, max_len=100)
    stored = os.path.join(folder, "stored.npz")
    np.savez(stored, pe=pe, from1=posenc.table("pe", d_model=32, max_len=101)[1:])
    deflated = os.path.join(folder, "deflated.npz")
    np.savez_compressed(deflated, pe)
    return stored, deflated


@pytest.mark.parametrize("member", ["stored.npz:pe", "stored.npz:from1", "stored.npz:pe.npy", "deflated.npz",
                                    "deflated.npz:arr_0"])
def test_npz_members_are_checked_alike(folder, archives, member):
    path = os.path.join(folder, member)
    run = cli("check", path, "--json")
    assert run.code in VERDICT_CODES, run.err
    assert posenc.check(path).as_dict() == run.json()
    npy = os.path.join(folder, "m.npy")
    with np.load(path.split(".npz")[0] + ".npz") as f:
        name = member.split(":")[1] if ":" in member else "arr_0"
        np.save(npy, f[name.replace(".npy", "")])
    assert cli("check", npy, "--json").json() == run.json()


def test_npz_refusals(folder, archives):
    stored, _ = archives
    for path in (stored, stored + ":nothing"):
        run = cli("check", path)
        assert run.code == 2
        with pytest.raises(ValueError) as raised:
            posenc.check(path)
        assert str(raised.value) == run.message("check")
    # Cut short, a member's bytes changed: the reason, never a crash.
    with open(stored, "rb") as f:
        data = f.read()
    cut = os.path.join(folder, "cut.npz")
    with open(cut, "wb") as f:
        f.write(data[: len(data) // 2])
    assert cli("check", cut).code == 3
    with pytest.raises(OSError):
        posenc.check(cut)
    _, deflated = archives
    with open(deflated, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 3] ^= 0x55
    broken = os.path.join(folder, "broken.npz")
    with open(broken, "wb") as f:
        f.write(data)
    run = cli("check", broken)
    assert run.code in (2, 3), run.err
    with pytest.raises((OSError, ValueError)):
        posenc.check(broken)


def test_npz_members_other_than_arrays_are_left_out(folder):
    path = os.path.join(folder, "mixed.npz")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("README.txt", "not an array")
        with z.open("pe.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array(f, posenc.table("pe", d_model=16, max_len=40))
    assert posenc.check(path).verdict == "correct"
    assert cli("check", path).code == 0


def test_csv_header_names_the_columns(folder):
    path = os.path.join(folder, "pe.csv")
    assert cli("table", "pe", "-o", path, "--d-model", "4", "--max-len", "3").code == 0
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    # pandas.read_csv takes the first line as the columns' names: pe_0, not "# pe_0".
    assert rows[0] == ["pe_0", "pe_1", "pe_2", "pe_3"]
    assert np.array_equal(np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float32),
                          posenc.table("pe", d_model=4, max_len=3))
    assert posenc.check(path).as_dict() == cli("check", path, "--json").json()
    # A file of the old header ("# pe_0,...") is read as before.
    old = os.path.join(folder, "old.csv")
    with open(path) as f, open(old, "w") as g:
        g.write("# " + f.read())
    assert cli("check", old, "--json").json()["verdict"] == cli("check", path, "--json").json()["verdict"]


def test_zip64_directories(folder, monkeypatch):
    # numpy's archives past 4 GiB have ZIP64 sizes and offsets in the directory; small limits make them
    # here, the directory's end record ZIP64 too.
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", 8)
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 1)
    path = os.path.join(folder, "zip64.npz")
    np.savez(path, a=np.zeros((3, 3), np.float32), pe=posenc.table("pe", d_model=16, max_len=40))
    run = cli("check", path + ":pe", "--json")
    assert run.code == 0, run.err
    assert posenc.check(path + ":pe").as_dict() == run.json()
