#!/usr/bin/env python3
"""Writes the example stored selections of this directory, deterministically (standard library only).

    python3 Examples/stored-selections/make-examples.py

Each file is a selection kept the way a real blocker app keeps one (SPEC.md §1.1); the tokens are synthetic,
shaped like device tokens (128 bytes, the first 12 zero), made from SHA-256 of a label: no device data.
"""

import base64
import hashlib
import json
import plistlib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def token(label: str) -> bytes:
    body = b""
    counter = 0
    while len(body) < 116:
        body += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return bytes(12) + body[:116]


def selection(apps=(), cats=(), webs=(), entire=False):
    """The members JSONEncoder writes for a FamilyActivitySelection, tokens as bytes."""
    return {
        "applicationTokens": [token(a) for a in apps],
        "categoryTokens": [token(c) for c in cats],
        "webDomainTokens": [token(w) for w in webs],
        "includeEntireCategory": entire,
        "untokenizedApplicationIdentifiers": [],
        "untokenizedCategoryIdentifiers": [],
        "untokenizedWebDomainIdentifiers": [],
    }


def as_json(value):
    """Tokens as {"data": base64}, as JSONEncoder writes Data; `/` escaped as `\\/` as on iOS."""
    if isinstance(value, dict):
        return {k: ([{"data": base64.b64encode(t).decode()} for t in v] if k.endswith("Tokens") else as_json(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def as_plist(value):
    if isinstance(value, dict):
        return {k: ([{"data": t} for t in v] if k.endswith("Tokens") else as_plist(v)) for k, v in value.items()}
    return value


def dumps(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).replace("/", "\\/").encode()


def write(name: str, data: bytes):
    path = HERE / name
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def main():
    social = selection(apps=["instagram", "tiktok"], cats=["social"], entire=True)
    games = selection(cats=["games", "entertainment"], webs=["twitch"])

    # @AppStorage through a RawRepresentable whose rawValue is the JSON text.
    write("app-storage.json", dumps(as_json(social)))

    # A [String: ProfileSnapshot] dictionary: one profile's token was cut short (non-canonical base64), so a
    # `(try? JSONDecoder().decode(...)) ?? [:]` loses all three (field bug 9); the reference loses only that one.
    profiles = {
        "3F2A9C51-0D6E-4B7A-9E42-6A1F0C3B8D17": {"name": "Focus", "selectedActivity": as_json(social),
                                                 "schedule": {"start": "09:00", "end": "17:00"}},
        "8B1E4D02-5C7F-4A93-B6D8-2E9F1A7C4B60": {"name": "Evening", "selectedActivity": as_json(games),
                                                 "schedule": {"start": "21:00", "end": "07:00"}},
        "C47D2E19-8A3B-4F65-A1C0-9D5E6B2F7A84": {"name": "Weekend", "selectedActivity": as_json(social),
                                                 "schedule": None},
    }
    broken = profiles["C47D2E19-8A3B-4F65-A1C0-9D5E6B2F7A84"]["selectedActivity"]["applicationTokens"][0]
    broken["data"] = broken["data"][:-3]
    write("profiles.json", dumps(profiles))

    # PropertyListEncoder().encode(selection): binary by default, XML with outputFormat = .xml.
    write("selection.plist", plistlib.dumps(as_plist(games), fmt=plistlib.FMT_BINARY, sort_keys=True))
    write("selection.xml.plist", plistlib.dumps(as_plist(games), fmt=plistlib.FMT_XML, sort_keys=True))


if __name__ == "__main__":
    main()
