"""What the module's tests share: the command line built beside the module (POSENC), to compare
with, and temporary directories removed after each test (ctest's scratch directory must stay clean)."""

import json
import os
import subprocess
import tempfile

import numpy as np
import pytest

POSENC = os.environ.get("POSENC", "posenc")
HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, "..", "data", "configs")


class Run:
    def __init__(self, completed):
        self.code = completed.returncode
        self.out = completed.stdout
        self.err = completed.stderr

    def json(self):
        return json.loads(self.out)

    def message(self, command):
        """The error message without its "posenc COMMAND: " prefix, as the module raises it."""
        prefix = "posenc %s: " % command
        return "\n".join(line[len(prefix):] if line.startswith(prefix) else line
                         for line in self.err.strip().splitlines())


def cli(*arguments, cwd=None):
    """posenc ARGUMENTS... as a process."""
    return Run(subprocess.run([POSENC, *map(str, arguments)], capture_output=True, text=True, cwd=cwd,
                              timeout=600))


@pytest.fixture
def folder():
    with tempfile.TemporaryDirectory() as path:
        yield path


def save(folder, name, array):
    path = os.path.join(folder, name)
    np.save(path, array)
    return path


def bits(array):
    """The array's bytes, so that -inf, NaN and -0 compare too."""
    return np.ascontiguousarray(array).view(np.uint8).tobytes()


def config(name):
    return os.path.join(CONFIGS, name)
