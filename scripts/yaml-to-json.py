#!/usr/bin/env python3
"""Prints a YAML file as JSON, read strictly, for Tests/StcTests/WorkflowFileTests.swift.

PyYAML parses it (a complete YAML parser, so a file it accepts has no syntax error); every scalar stays the
string it was written as (YAML 1.1 would read `on:` as the boolean true, and `3600` as a number), and a key
given twice in a mapping is an error, as GitHub Actions treats it. Exit 1 with the reason on any error; exit 2
when PyYAML is missing (.ci/run installs it).

    python3 scripts/yaml-to-json.py .github/workflows/cflite_pr.yml
"""
import json
import sys

try:
    import yaml
except ImportError:
    print("yaml-to-json: PyYAML is missing: python3 -m pip install pyyaml (.ci/run installs it)", file=sys.stderr)
    sys.exit(2)


class StrictLoader(yaml.BaseLoader):
    """BaseLoader (no implicit types), and no duplicate keys."""


def construct_mapping(loader, node):
    mapping = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, f"the key {key!r} is given twice", key_node.start_mark)
        mapping[key] = loader.construct_object(value_node, deep=True)
    return mapping


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)

if len(sys.argv) != 2:
    print("usage: yaml-to-json.py FILE", file=sys.stderr)
    sys.exit(2)
try:
    with open(sys.argv[1], encoding="utf-8") as handle:
        document = yaml.load(handle, Loader=StrictLoader)
except (OSError, yaml.YAMLError) as error:
    print(f"yaml-to-json: {sys.argv[1]}: {error}", file=sys.stderr)
    sys.exit(1)
print(json.dumps(document))
