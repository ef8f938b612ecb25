#!/usr/bin/python3
"""Writes the reader fixtures of tests/data with numpy itself (run by hand, not by the tests).

Every array holds v(r, c) = (4 r + c - 5) / 4 in its dtype (integers: 4 r + c - 5, unsigned and
bool kinds: 4 r + c), shape (3, 4), so the tests can state each expected cell by formula.
The .safetensors files are written byte by byte after the format's spec (8-byte little-endian
header length, JSON header padded with spaces to a multiple of 8, then the data).
Usage: /usr/bin/python3 tests/data/make_fixtures.py
"""
import json
import os
import struct

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
r, c = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
signed = (4 * r + c - 5).astype(np.int64)
quarter = signed / 4.0


def npy(name, array, version=None):
    path = os.path.join(here, "npy", name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=False)


npy("f4_c.npy", quarter.astype("<f4"))
npy("f8_fortran_big.npy", np.asfortranarray(quarter.astype(">f8")))
npy("f2_little.npy", quarter.astype("<f2"))
npy("f2_fortran_big.npy", np.asfortranarray(quarter.astype(">f2")))
npy("i2_big.npy", signed.astype(">i2"))
npy("i8_little.npy", signed.astype("<i8"))
npy("u1.npy", (signed + 5).astype("|u1"))
npy("b1.npy", (signed + 5) % 2 == 1)
npy("f4_v2.npy", quarter.astype("<f4"), version=(2, 0))
npy("f4_v3.npy", quarter.astype("<f4"), version=(3, 0))
npy("f4_3d.npy", np.zeros((2, 3, 4), dtype="<f4"))


def safetensors(name, tensors, metadata=None):
    header, data, offset = {}, b"", 0
    if metadata:
        header["__metadata__"] = metadata
    for key, dtype, array_bytes, shape in tensors:
        header[key] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(array_bytes)]}
        data += array_bytes
        offset += len(array_bytes)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(here, "safetensors", name), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


bf16 = (quarter.astype("<f4").view("<u4") >> 16).astype("<u2")
safetensors(
    "model.safetensors",
    [
        ("wte", "F32", quarter.astype("<f4").tobytes(), (3, 4)),
        ("wpe", "F16", quarter.astype("<f2").tobytes(), (3, 4)),
        ("ln.bias", "BF16", bf16.tobytes(), (3, 4)),
        ("head", "F64", quarter.astype("<f8").tobytes(), (3, 4)),
        ("ids", "I64", signed.astype("<i8").tobytes(), (12,)),
        ("cube", "F32", np.zeros((2, 3, 4), dtype="<f4").tobytes(), (2, 3, 4)),
    ],
    metadata={"format": "pt"},
)
safetensors("single.safetensors", [("weight", "BF16", bf16.tobytes(), (3, 4))])
