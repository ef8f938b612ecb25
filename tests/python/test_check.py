"""posenc.check and posenc.check_apply against posenc check --json: the same document for the same
table, whether the table is a file, a numpy array, a torch tensor or a strided view of one."""

import json
import os
import struct
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import posenc
from conftest import cli, config, save

VERDICT_CODES = {"correct": 0, "mistake": 1, "variant": 5, "learned": 6, "unknown": 7}


def tables():
    pe = posenc.table("pe", d_model=64, max_len=256)
    rng = np.random.default_rng(61)
    return {
        "the paper's sinusoid": pe,
        "positions from 1": posenc.table("pe", d_model=64, max_len=257)[1:],
        "base 500": posenc.table("pe", d_model=64, max_len=256, base=500.0),
        "llama 3.1's cos": posenc.table("rope-cos", preset="llama-3-1-8b", max_len=512),
        "a learned table": rng.normal(size=(200, 48)).astype(np.float32),
        "one cell off": np.where(np.arange(pe.size).reshape(pe.shape) == 700, pe + 0.01, pe).astype(np.float32),
    }


def checked(folder, array, *flags):
    run = cli("check", save(folder, "t.npy", array), "--json", *flags)
    assert run.code in VERDICT_CODES.values(), run.err
    return run


@pytest.mark.parametrize("name", list(tables()))
def test_the_same_document_as_the_command_line(folder, name):
    array = tables()[name]
    run = checked(folder, array)
    verdict = posenc.check(array)
    assert verdict.as_dict() == run.json()
    assert VERDICT_CODES[verdict.verdict] == run.code
    assert verdict.ok == (run.code == 0)
    document = run.json()
    assert verdict.mistakes == document["mistakes"]
    assert verdict.diagnosis == document["diagnosis"]
    assert verdict.max_error == document["max_abs_error"]
    # A path is checked as the command line checks it.
    assert posenc.check("%s/t.npy" % folder).as_dict() == document


def tensors():
    """Arrays that are no table, as engineers dump them: a RoPE inv_freq vector, ALiBi's slopes, a
    stack of ALiBi heads' biases [H, L, L], a batch of PE tables [B, L, d]."""
    inv_freq = posenc.table("rope-frequencies", preset="llama-3-1-8b")[:, 0].copy()
    slopes = posenc.table("alibi-slopes", heads=12)[:, 1].copy()
    heads = np.stack([posenc.table("alibi-bias", heads=4, head=h, max_len=16) for h in range(1, 5)])
    pe = posenc.table("pe", d_model=32, max_len=64)
    return {
        "llama 3.1's inv_freq": inv_freq,
        "inv_freq of a wrong base": (1.0 / 20000.0 ** (np.arange(0, 128, 2) / 128)).astype(np.float32),
        "12 heads' slopes": slopes,
        "4 heads' biases": heads,
        "a batch of two tables": np.stack([pe, pe]),
    }


@pytest.mark.parametrize("name", list(tensors()))
def test_the_shapes_engineers_dump_as_the_command_line(folder, name):
    # Read from memory as a file of the same array is read (TableFile::openTensor).
    array = tensors()[name]
    run = checked(folder, array)
    assert posenc.check(array).as_dict() == run.json()


def test_an_array_whose_rows_do_not_lie_in_one_run_is_refused_by_name():
    heads = np.stack([posenc.table("pe", d_model=8, max_len=4)] * 3)  # [3, 4, 8]
    with pytest.raises(ValueError) as raised:
        posenc.check(heads.transpose(1, 0, 2))
    assert "ascontiguousarray" in str(raised.value)
    assert posenc.check(np.ascontiguousarray(heads.transpose(1, 0, 2))).verdict in VERDICT_CODES


def test_the_worst_cell_is_located(folder):
    verdict = posenc.check(tables()["one cell off"], expect="sinusoidal", d_model=64)
    assert verdict.verdict == "mistake"
    assert verdict.location == (700 // 64, 700 % 64)
    assert abs(verdict.max_error - 0.01) < 1e-6


def test_declared_references(folder):
    cos = tables()["llama 3.1's cos"]
    path = save(folder, "cos.npy", cos)
    llama = config("Meta-Llama-3.1-8B.json")
    with open(llama) as f:
        llama_dict = json.load(f)
    cases = [
        (dict(expect="rope", preset="llama-3-1-8b"), ["--expect", "rope", "--preset", "llama-3-1-8b"]),
        (dict(expect="rope", rope_theta=10000.0), ["--expect", "rope", "--rope-theta", "10000.0"]),
        (dict(expect_config=llama), ["--expect-config", llama]),
        (dict(expect_config=llama_dict), ["--expect-config", llama]),
        (dict(expect_table=cos), ["--expect-table", path]),
        (dict(expect_table=path), ["--expect-table", path]),
    ]
    for kwargs, flags in cases:
        run = cli("check", path, "--json", *flags)
        document = posenc.check(cos, **kwargs).as_dict()
        assert document["verdict"] == run.json()["verdict"], kwargs
        assert document == run.json() or "expect_table" in kwargs, kwargs


def test_torch_tensors_of_every_precision(folder):
    torch = pytest.importorskip("torch")
    pe = tables()["the paper's sinusoid"]
    tensor = torch.from_numpy(pe.copy())
    assert posenc.check(tensor).as_dict() == checked(folder, pe).json()
    half = tensor.to(torch.float16)
    assert posenc.check(half).as_dict() == checked(folder, half.numpy()).json()
    # bfloat16, which numpy has not: the command line reads it from a .safetensors file.
    bf16 = tensor.to(torch.bfloat16)
    raw = bf16.view(torch.int16).numpy().tobytes()
    header = json.dumps({"t": {"dtype": "BF16", "shape": list(pe.shape), "data_offsets": [0, len(raw)]}}).encode()
    path = "%s/t.safetensors" % folder
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + raw)
    run = cli("check", path + ":t", "--json")
    assert posenc.check(bf16).as_dict() == run.json()
    assert run.json()["verdict"] == "correct" and run.json()["precision"] is not None
    # A parameter that requires grad is read through detach().
    parameter = torch.nn.Parameter(tensor.clone())
    assert posenc.check(parameter).verdict == "correct"
    # A strided view of a tensor, as it lies.
    wide = torch.from_numpy(np.repeat(pe, 2, axis=1).copy())[:, ::2]
    assert not wide.is_contiguous()
    assert posenc.check(wide).as_dict() == checked(folder, wide.contiguous().numpy()).json()
    # A view with torch's negative bit set (DLPack exports its storage unnegated): read as its values.
    negated = torch.complex(-tensor, tensor).conj().imag
    assert negated.is_neg()
    assert posenc.check(negated).as_dict() == checked(folder, -pe).json()


def test_anything_with_array_or_dlpack(folder):
    pe = tables()["the paper's sinusoid"]

    class WithArray:
        def __array__(self, dtype=None):
            return pe

    class WithDlpack:
        def __init__(self, tensor):
            self.tensor = tensor

        def __dlpack__(self, stream=None):
            return self.tensor.__dlpack__()

    expected = checked(folder, pe).json()
    assert posenc.check(WithArray()).as_dict() == expected
    torch = pytest.importorskip("torch")
    assert posenc.check(WithDlpack(torch.from_numpy(pe))).as_dict() == expected


@pytest.mark.parametrize("view", ["every other row", "transposed", "reversed columns", "fortran", "a column slice",
                                  "float64", "big-endian float32", "int16"])
def test_non_contiguous_arrays_are_read_where_they_lie(folder, view):
    pe = posenc.table("pe", d_model=64, max_len=512)
    array = {
        "every other row": pe[::2],
        "transposed": np.ascontiguousarray(pe.T).T,
        "reversed columns": pe[:, ::-1],
        "fortran": np.asfortranarray(pe),
        "a column slice": posenc.table("pe", d_model=96, max_len=512)[:, 16:80],
        "float64": pe.astype(np.float64)[::3],
        "big-endian float32": pe.astype(">f4"),
        "int16": (pe * 1000).astype(np.int16),
    }[view]
    assert posenc.check(array).as_dict() == checked(folder, np.ascontiguousarray(array)).json()


def test_the_array_is_not_copied():
    pe = np.tile(posenc.table("pe", d_model=1024, max_len=4096), (1, 1))
    strided = np.repeat(pe, 2, axis=0)[::2]
    for array in (pe, strided):
        tracemalloc.start()
        posenc.check(array, threads=2)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        # 16 MiB of table; a copy by numpy would show here.
        assert peak < array.nbytes // 16, peak


# In a process of its own: the largest resident size before the check and after, for a 256 MiB
# table viewed as a user holds it. A copy anywhere (numpy's, or the native part's into a buffer of
# its own) would add the viewed bytes; the check's rows are converted a block at a time.
PEAK_SCRIPT = """
import resource, sys
import numpy as np
import posenc
rows, cols = 65536, 1024
order = "F" if sys.argv[1] == "fortran" else "C"
table = np.empty((rows, cols), np.float32, order=order)
for r in range(0, rows, 4096):
    table[r:r + 4096] = posenc.table("pe", d_model=cols, max_len=rows, positions="%d:%d" % (r, r + 4096))
view = {"contiguous": table, "every other row": table[::2], "fortran": table,
        "reversed": table[::-1, ::-1]}[sys.argv[1]]
posenc.check(np.zeros((4, 4), np.float32))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
posenc.check(view, threads=2)
print(view.nbytes, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


@pytest.mark.parametrize("view", ["contiguous", "every other row", "fortran", "reversed"])
def test_the_native_part_copies_nothing(view):
    # With malloc's own thresholds, as a user's Python has them: the tests' (GLIBC_TUNABLES,
    # tests/CMakeLists.txt) keep freed blocks resident, where a copy could reuse them unseen.
    environment = {name: value for name, value in os.environ.items() if name != "GLIBC_TUNABLES"}
    done = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, view], capture_output=True, text=True, timeout=600,
                          env=environment)
    assert done.returncode == 0, done.stderr
    viewed, growth = map(int, done.stdout.split())
    assert growth < viewed // 8, "the check's peak grew by %d bytes over a view of %d" % (growth, viewed)


def test_check_apply_equals_the_command_line(folder):
    rng = np.random.default_rng(7)
    cos = posenc.table("rope-cos", encoding="rope", head_dim=64, max_len=32, rope_theta=10000.0)
    sin = posenc.table("rope-sin", encoding="rope", head_dim=64, max_len=32, rope_theta=10000.0)
    x = rng.normal(size=(32, 64)).astype(np.float32)
    half = np.concatenate([-x[:, 32:], x[:, :32]], axis=1)
    y = (x * cos + half * sin).astype(np.float32)
    run = cli("check", "--json", "--apply", save(folder, "x.npy", x), save(folder, "y.npy", y))
    assert run.code in VERDICT_CODES.values(), run.err
    verdict = posenc.check_apply(x, y)
    assert verdict.as_dict() == run.json()
    assert verdict.verdict == run.json()["verdict"]
    llama = config("Meta-Llama-3.1-8B.json")
    # 64 columns where the config's head has 128: refused alike.
    run = cli("check", "--json", "--apply", "%s/x.npy" % folder, "%s/y.npy" % folder, "--config", llama)
    with pytest.raises(ValueError) as raised:
        posenc.check_apply(x, y, config=llama)
    assert str(raised.value) == run.message("check")
    # Llama 3.1's own rotation, against its config given as a path and as a dict.
    cos = posenc.table("rope-cos", preset="llama-3-1-8b", max_len=32)
    sin = posenc.table("rope-sin", preset="llama-3-1-8b", max_len=32)
    x = rng.normal(size=(32, 128)).astype(np.float32)
    y = (x * cos + np.concatenate([-x[:, 64:], x[:, :64]], axis=1) * sin).astype(np.float32)
    run = cli("check", "--json", "--apply", save(folder, "x.npy", x), save(folder, "y.npy", y), "--config", llama)
    assert run.code == 0, run.out + run.err
    assert posenc.check_apply(x, y, config=llama).as_dict() == run.json()
    with open(llama) as f:
        assert posenc.check_apply(x, y, config=json.load(f)).verdict == "correct"


def test_assert_correct():
    pe = tables()["the paper's sinusoid"]
    posenc.testing.assert_correct(pe)
    posenc.testing.assert_correct(pe, expect="sinusoidal", d_model=64)
    # Rows from position 1 are a window of the paper's table, said and not judged; against positions
    # declared from 0 (--positions 0:256), position-offset.
    from_one = tables()["positions from 1"]
    posenc.testing.assert_correct(from_one)
    window = posenc.check(from_one).as_dict()["positions"]
    assert (window["first"], window["last"], window["declared"]) == (1, 256, False)
    with pytest.raises(AssertionError) as raised:
        posenc.testing.assert_correct(from_one, positions="0:256")
    declared = posenc.check(from_one, positions="0:256")
    assert declared.mistakes == ["position-offset"]
    assert "mistake" in str(raised.value) and declared.diagnosis in str(raised.value)
    with pytest.raises(AssertionError, match="row 10, column 60"):
        posenc.testing.assert_correct(tables()["one cell off"], expect="sinusoidal", d_model=64)


def test_bad_input_raises_never_crashes(folder):
    pe = tables()["the paper's sinusoid"]
    nan = pe.copy()
    nan[3, 5] = np.nan
    run = cli("check", save(folder, "nan.npy", nan))
    with pytest.raises(ValueError) as raised:
        posenc.check(nan)
    assert str(raised.value) == run.message("check").replace("%s/nan.npy" % folder, "<array>")
    # A stack of tables is read as the command line reads the file; a scalar is refused as it is.
    zeros = np.zeros((2, 3, 4), np.float32)
    assert posenc.check(zeros).as_dict() == cli("check", save(folder, "z.npy", zeros), "--json").json()
    run = cli("check", save(folder, "scalar.npy", np.float32(3.0)))
    assert run.code == 2
    with pytest.raises(ValueError) as raised:
        posenc.check(np.float32(3.0))
    assert str(raised.value) == run.message("check").replace("%s/scalar.npy" % folder, "<array>")
    with pytest.raises(ValueError, match="dtype complex64"):
        posenc.check(np.zeros((4, 4), np.complex64))
    with pytest.raises(TypeError):
        posenc.check(object())
    run = cli("check", "%s/t.npy" % folder, "--layout", "diagonal")
    with pytest.raises(ValueError) as raised:
        posenc.check(pe, layout="diagonal")
    assert str(raised.value) == run.message("check")
    with pytest.raises(ValueError):
        posenc.check(pe, no_such_flag=3)
    with pytest.raises(ValueError, match="expect_config="):
        posenc.check(pe, config=config("Meta-Llama-3.1-8B.json"))
    with pytest.raises(OSError) as raised:
        posenc.check("%s/missing.npy" % folder)
    assert str(raised.value) == cli("check", "%s/missing.npy" % folder).message("check")
    with pytest.raises(OSError):
        posenc.check(pe, expect_config="%s/missing.json" % folder)
    with pytest.raises(ValueError):
        posenc.check(pe, expect_config={"model_type": "llama", "rope_theta": "abc"})
    # A dict that is no JSON names the parameter; numpy's scalars are the numbers they hold.
    for value, message in [(float("nan"), "Out of range float"), (object(), "object is not a JSON value")]:
        with pytest.raises(ValueError, match="^expect_config: the dict is not a config.json: %s" % message):
            posenc.check(pe, expect_config={"model_type": "llama", "rope_theta": value})
    with open(config("Meta-Llama-3.1-8B.json")) as f:
        llama = json.load(f)
    numbers = dict(llama, rope_theta=np.float32(llama["rope_theta"]),
                   max_position_embeddings=np.int64(llama["max_position_embeddings"]))
    cos = tables()["llama 3.1's cos"]
    assert posenc.check(cos, expect_config=numbers).as_dict() == posenc.check(cos, expect_config=llama).as_dict()
    assert posenc.read_config(numbers).as_dict() == posenc.read_config(llama).as_dict()
    with pytest.raises(MemoryError):
        posenc.check(np.zeros((1 << 16, 64), np.float32), memory_budget="0.0001")
    # Empty and one-row tables are answered, not crashed on.
    for shape in [(0, 8), (1, 8), (8, 0)]:
        try:
            posenc.check(np.zeros(shape, np.float32))
        except ValueError:
            pass
