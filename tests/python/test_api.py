"""The module's surface as a user reads it: every public function, class and method has a docstring
(help(posenc)), and the .pyi stubs declare every public name with the same parameters."""

import ast
import inspect
import os

import pytest

import posenc
import posenc.testing


def public(module):
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    for name in names:
        value = getattr(module, name)
        if inspect.ismodule(value):
            continue
        if inspect.isfunction(value) and value.__module__ != module.__name__ and module is not posenc:
            continue  # imported for use, not defined here
        yield name, value


def members(cls):
    for name, value in vars(cls).items():
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property)):
            yield name, value


@pytest.mark.parametrize("module", [posenc, posenc.testing], ids=lambda m: m.__name__)
def test_every_public_name_has_a_docstring(module):
    assert inspect.getdoc(module)
    missing = []
    for name, value in public(module):
        if not inspect.getdoc(value):
            missing.append(name)
        if inspect.isclass(value):
            missing += ["%s.%s" % (name, m) for m, v in members(value) if not inspect.getdoc(v)]
    assert not missing, "no docstring: %s" % ", ".join(missing)


def stub(module):
    """The names the module's .pyi declares, with each function's parameters."""
    path = os.path.splitext(module.__file__)[0] + ".pyi"
    declared = {}
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.FunctionDef):
            arguments = node.args
            declared[node.name] = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
        elif isinstance(node, ast.ClassDef):
            declared[node.name] = None
        elif isinstance(node, ast.ImportFrom):
            declared.update((alias.asname or alias.name, None) for alias in node.names)
    return declared


@pytest.mark.parametrize("module", [posenc, posenc.testing], ids=lambda m: m.__name__)
def test_the_stubs_declare_every_public_name(module):
    declared = stub(module)
    for name, value in public(module):
        assert name in declared, "%s.%s is not in its .pyi" % (module.__name__, name)
        if inspect.isfunction(value):
            parameters = [p.name for p in inspect.signature(value).parameters.values()
                          if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
            assert declared[name] == parameters, name
