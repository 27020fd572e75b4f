#!/usr/bin/env python3
"""Check openapi.yaml against the requests of the acceptance scenarios.

Usage: check-openapi-scenarios.py openapi.yaml SCENARIO_DIR

For every step of every scenario: the path must match a route of the spec, the method must be
one of the route's, the expected status must be among the operation's responses, and a JSON body
must validate against the operation's request schema (each UIKit operation is a route of its own,
`…/controllers/{cid}/present` and so on, with its body schema). Needs PyYAML, jsonschema and referencing, which
openapi-spec-validator brings. Prints one line per problem and "N steps checked, N problems".
"""
import glob
import json
import os
import re
import sys

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

VAR = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")


def main(spec_path, scenario_dir):
    with open(spec_path, encoding="utf-8") as fh:
        spec = yaml.safe_load(fh)
    registry = Registry().with_resource("urn:openapi", Resource.from_contents(spec, DRAFT202012))

    def validate(pointer, instance):
        schema = {"$ref": "urn:openapi#" + pointer}
        return [e.message for e in Draft202012Validator(schema, registry=registry).iter_errors(instance)]

    routes = []
    for template, item in spec["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        routes.append((template.count("{"), template, re.compile(pattern), item))
    routes.sort(key=lambda r: r[0])  # literal segments win over parameters

    steps = problems = 0
    for path in sorted(glob.glob(os.path.join(scenario_dir, "*.json"))):
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        for scenario in doc if isinstance(doc, list) else [doc]:
            for number, step in enumerate(scenario.get("steps", []), 1):
                steps += 1
                where = f"{os.path.basename(path)} :: {scenario.get('name')} step {number} ({step['do']})"
                method, _, target = step["do"].partition(" ")
                target = VAR.sub("x", target).split("?")[0]
                route = next(((t, item) for _, t, rx, item in routes if rx.match(target)), None)
                if route is None:
                    problems += 1
                    print(f"no route: {where}")
                    continue
                template, item = route
                operation = item.get(method.lower())
                if operation is None:
                    problems += 1
                    print(f"no {method} on {template}: {where}")
                    continue
                status = step.get("expect", {}).get("status")
                if status is not None and str(status) not in operation["responses"]:
                    problems += 1
                    print(f"status {status} undocumented for {method} {template}: {where}")
                if "body" not in step and "raw" not in step:
                    continue
                content = operation.get("requestBody", {}).get("content", {})
                if "raw" in step:
                    kind = next((v for k, v in step.get("headers", {}).items() if k.lower() == "content-type"), "")
                    if kind.split(";")[0].strip() not in content:
                        problems += 1
                        print(f"request content type {kind!r} undocumented: {where}")
                    continue
                if "application/json" not in content:
                    problems += 1
                    print(f"JSON body undocumented: {where}")
                    continue
                escaped = template.replace("~", "~0").replace("/", "~1")
                pointer = f"/paths/{escaped}/{method.lower()}/requestBody/content/application~1json/schema"
                for message in validate(pointer, step["body"])[:3]:
                    problems += 1
                    print(f"body: {message[:300]}: {where}")
    print(f"{steps} steps checked, {problems} problems")
    return 1 if problems or steps == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
