#!/usr/bin/python3
"""Writes tests/data/rope/hf_rope_type_keys.json from HF transformers' own source (run by hand, not
by the tests).

For each rope_type it records what src/transformers/modeling_rope_utils.py says, read from the file
with Python's ast so that nothing is copied by hand:
- required and optional: the set literals `required_keys` and `optional_keys` of
  RotaryEmbeddingConfigMixin._validate_<type>_rope_parameters (optional empty where the function
  has none: _check_received_keys then takes only partial_rotary_factor besides the required);
- takes_original: whether standardize_rope_params moves original_max_position_embeddings into the
  type's dict (its list `["llama3", "yarn", "longrope"]`).
tst_ropetypes compares posenc's RopeTypes table with this file.
Usage: /usr/bin/python3 tests/data/make_rope_types_fixture.py PATH/TO/transformers/src/transformers
"""
import ast
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))


def set_literal(node):
    return sorted(ast.literal_eval(node))


def main():
    source_dir = sys.argv[1]
    path = os.path.join(source_dir, "modeling_rope_utils.py")
    tree = ast.parse(open(path, encoding="utf-8").read())
    types = {}
    takes_original = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("_validate_") and node.name.endswith(
            "_rope_parameters"
        ):
            word = node.name[len("_validate_") : -len("_rope_parameters")]
            keys = {"required": [], "optional": []}
            for statement in ast.walk(node):
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                    target = statement.targets[0]
                    if isinstance(target, ast.Name) and target.id in ("required_keys", "optional_keys"):
                        keys[target.id.split("_")[0]] = set_literal(statement.value)
            types[word] = keys
        if isinstance(node, ast.FunctionDef) and node.name == "standardize_rope_params":
            for statement in ast.walk(node):
                if isinstance(statement, ast.Compare) and isinstance(statement.ops[0], ast.In):
                    right = statement.comparators[0]
                    if isinstance(right, ast.List):
                        takes_original = sorted(ast.literal_eval(right))
    for word, keys in types.items():
        keys["takes_original"] = word in takes_original
    out = os.path.join(here, "rope", "hf_rope_type_keys.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"source": "huggingface/transformers main, src/transformers/modeling_rope_utils.py",
                   "types": types}, f, indent=2, sort_keys=True)
        f.write("\n")
    print(out, ", ".join(sorted(types)))


if __name__ == "__main__":
    main()
