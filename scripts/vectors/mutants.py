"""Field-bug mutants: the oracle with one bug of SPEC §7 put in on purpose.

`make-vectors.py --mutants` runs every case tagged `field-bug-N` through each mutant of bug N and checks that the
mutant fails several of them. A tag that no mutant fails would be a tag that catches nothing.
"""

from __future__ import annotations

import functools

from . import activity, formats, oracle, settings, strictjson
from .oracle import Coded


_DECODE = oracle.decode_selection  # the real decoder, before any mutant swaps it


class Crash(Exception):
    """The mutant trapped (a force unwrap, a parser that traps)."""


def _decode_force_unwrap(text):
    """Field bug 1: `Data(base64Encoded: s)!` and `try! JSONDecoder().decode(…)`: malformed input traps."""
    try:
        return _DECODE(text)
    except Coded as exc:
        if exc.code in ("empty", "base64", "json"):
            raise Crash(exc.code)
        raise


def _decode_swallowing(text):
    """Field bug 2: `(try? decode(s)) ?? FamilyActivitySelection()`: every failure is an empty selection."""
    try:
        return _DECODE(text)
    except Coded:
        return oracle.Selection()


def _with_decoder(decoder):
    def ops():
        table = dict(oracle.OPERATIONS)
        saved = oracle.decode_selection

        def run(fn):
            def wrapped(inp):
                oracle.decode_selection = decoder
                try:
                    return fn(inp)
                finally:
                    oracle.decode_selection = saved
            return wrapped

        for name in ("selection.decode", "selection.equal", "selection.order", "selection.combine"):
            table[name] = run(oracle.OPERATIONS[name])
        return table
    return ops


def _equal_by_string(inp):
    oracle.decode_selection(inp["a"])
    oracle.decode_selection(inp["b"])
    return {"equal": inp["a"] == inp["b"]}


def _tokens_as_written(text):
    """The token data strings of each kind in the order written (the decode is assumed to succeed)."""
    doc, _ = strictjson.parse(oracle.b64_strict(text))
    return {key: [t.get("data") for t in doc.get(key)] for key in oracle.TOKEN_KEYS}


def _order_by_insertion(inp):
    oracle.decode_selection(inp["base64"])
    seen = []
    for d in _tokens_as_written(inp["base64"])[oracle.KIND_KEY[inp["kind"]]]:
        if d not in seen:
            seen.append(d)
    return {"tokens": seen}


def _order_by_bytes(inp):
    sel = oracle.decode_selection(inp["base64"])
    return {"tokens": sorted(sel.tokens[oracle.KIND_KEY[inp["kind"]]], key=lambda d: oracle.b64_strict(d))}


def _shield(except_unlists: bool, token_first: bool):
    def evaluate(inp):
        act = inp["activity"]
        app = act["kind"] == "application"
        listed, pol = ("applications", "applicationCategories") if app else ("webDomains", "webDomainCategories")
        cat_reason = "applicationCategory" if app else "webDomainCategory"
        tok_reason = "application" if app else "webDomain"
        by_cat = any(oracle._policy_shields(s.get(pol), act["token"], act["category"]) for s in inp["stores"])

        def listed_in(s):
            if act["token"] not in set(s.get(listed) or []):
                return False
            if except_unlists and s.get(pol) and act["token"] in set(s[pol].get("except") or []):
                return False
            return True

        by_tok = any(listed_in(s) for s in inp["stores"])
        if token_first and by_tok:
            return {"verdict": "shielded", "reason": tok_reason}
        if by_cat:
            return {"verdict": "shielded", "reason": cat_reason, "category": act["category"]}
        if by_tok:
            return {"verdict": "shielded", "reason": tok_reason}
        return {"verdict": "allowed"}
    return evaluate


def _policy(flicker_clears=False, notice_every_time=False, reapply_on_reapproval=False):
    def run(inp):
        approved, shields, actions = True, True, []
        for obs in inp["observations"]:
            if obs == "notDetermined":
                if flicker_clears and shields:
                    shields = False
                    actions.append("clearShields")
                continue
            if obs == "denied":
                if approved or notice_every_time:
                    if notice_every_time:
                        actions += ["clearShields", "notifyRevoked"]
                        shields = False
                    elif shields:
                        shields = False
                        actions += ["clearShields", "notifyRevoked"]
                approved = False
            elif obs in ("approved", "approvedWithDataAccess"):
                if not approved:
                    approved = True
                    if reapply_on_reapproval:
                        shields = True
                    else:
                        actions.append("requirePick")
                elif flicker_clears:
                    shields = True  # the buggy app re-applies after its own flicker clear
            elif obs == "pick" and approved:
                shields = True
        return {"actions": actions, "shieldsActive": shields}
    return run


def _tokens_revived(inp):
    """Field bug 6: tokens survive revocation; any token is valid while some grant runs."""
    running, minted = False, set()
    for ev in inp["events"]:
        if ev["kind"] == "authorize":
            running = True
        elif ev["kind"] == "revoke":
            running = False
        elif running:
            minted.add(ev["name"])
    return {"valid": {n: running and n in minted for n in inp["query"]}}


def _encode(keep, hex_format="%%%02X", space=None):
    def run(inp):
        out = []
        for ch in inp["text"]:
            if space is not None and ch == " ":
                out.append(space)
            elif keep(ch):
                out.append(ch)
            else:
                out.extend(hex_format % b for b in ch.encode("utf-8"))
        return {"encoded": "".join(out)}
    return run


def _template(missing_shows_key=False, traps=False):
    def run(inp):
        template = inp["template"]
        if traps:
            i = 0
            while (i := template.find("{", i)) >= 0:
                if not oracle.PLACEHOLDER.match(template, i):
                    raise Crash("placeholder parser trapped")
                i += 1
        if not missing_shows_key:
            return oracle.op_template_render(inp)
        out, missing, i = [], [], 0
        while i < len(template):
            m = oracle.PLACEHOLDER.match(template, i) if template[i] == "{" else None
            if not m:
                out.append(template[i])
                i += 1
                continue
            value = inp["values"].get(m.group(1))
            if not value and m.group(1) not in missing:
                missing.append(m.group(1))
            out.append(value or m.group(2) or m.group(1))
            i = m.end()
        return {"text": "".join(out), "missing": missing}
    return run


def _document_wiped(inp):
    """Field bug 9: `(try? JSONDecoder().decode([String: Profile].self, …)) ?? [:]`: one bad selection, nothing."""
    out = formats.op_selection_decode(inp)
    if inp.get("format") == "json-document" and any("error" in e for e in out["selections"]):
        return {"selections": []}
    return out


def _json_empty_array_is_empty(inp):
    """Field bug 10: the `"[]"` a failed `rawValue` wrote reads back as an empty selection."""
    if inp.get("format") == "json":
        raw = oracle.b64_strict(inp.get("data")) if isinstance(inp.get("data"), str) else None
        if raw is not None and raw.translate(None, b" \t\r\n") == b"[]":
            return oracle.Selection().output()
    return formats.op_selection_decode(inp)


def _nil_is_empty(inp):
    """Field bug 11: a key deleted by storing `nil` reads as an empty selection, in every non-default format."""
    fmt = inp.get("format")
    if fmt in formats.FORMATS and fmt != "base64-json" and inp.get(formats.member_for(fmt)) == "":
        return {"selections": []} if fmt == "json-document" else oracle.Selection().output()
    return formats.op_selection_decode(inp)


def _encoder_answers_empty(inp):
    """Field bug 12: the encoder answers "" whenever the selection does not decode."""
    try:
        return formats.op_selection_encode_wire(inp)
    except Coded as exc:
        if exc.code == "badInput":
            raise
        return {formats.member_for(inp["format"]): ""}


def _activity(n):
    """Field bugs 13–19 (SPEC §7.13–§7.19): the activity oracle with bug n switched on (activity.py `bugs`)."""
    return {"activity.schedule": functools.partial(activity.op_activity_schedule, bugs=frozenset({n})),
            "activity.monitor": functools.partial(activity.op_activity_monitor, bugs=frozenset({n}))}


ACTIVITY_BUGS = [
    (13, "midnight end on the start's day, hour 24"),
    (14, "overnight end computed on the start's day"),
    (15, "end clamped to 23:59:59 of the start's day"),
    (16, "usage before the call counted"),
    (17, "mixed kinds deliver callbacks"),
    (18, "the 21st startMonitoring succeeds"),
    (19, "stopMonitoring([]) stops nothing"),
]


SETTINGS_BUGS = [
    (20, "clearAllSettings clears only shields"),
    (21, "blockedApplications without a limit"),
    (22, "policy domains matched exactly"),
]


def _settings(n):
    """Field bugs 20–22 (SPEC §7.20–§7.22): the settings oracle with bug n switched on (settings.py `bugs`)."""
    return {"settings.evaluate": functools.partial(settings.op_settings_evaluate, bugs=frozenset({n}))}


def mutants():
    """(field bug number, mutant name, operation table)."""
    base = correct()
    return [
        (1, "force-unwrap decode", _with_decoder(_decode_force_unwrap)()),
        (2, "failure swallowed into an empty selection", _with_decoder(_decode_swallowing)()),
        (3, "equality of stored strings", base | {"selection.equal": _equal_by_string}),
        (4, "order as written", base | {"selection.order": _order_by_insertion}),
        (4, "order by token bytes", base | {"selection.order": _order_by_bytes}),
        (5, "except un-lists a listed app", base | {"shield.evaluate": _shield(True, False)}),
        (5, "application reason over category", base | {"shield.evaluate": _shield(False, True)}),
        (6, "notDetermined clears shields", base | {"auth.policy": _policy(flicker_clears=True)}),
        (6, "revocation notice every time", base | {"auth.policy": _policy(notice_every_time=True)}),
        (6, "old shields re-applied on re-approval", base | {"auth.policy": _policy(reapply_on_reapproval=True)}),
        (6, "tokens revived by re-authorization", base | {"auth.tokens": _tokens_revived}),
        (7, ".alphanumerics scalar by scalar", base | {"url.encode": _encode(lambda c: c.isalnum())}),
        (7, "lower-case hex", base | {"url.encode": _encode(lambda c: ord(c) < 128 and ord(c) in oracle.UNRESERVED,
                                                             "%%%02x")}),
        (7, "plus for space", base | {"url.encode": _encode(lambda c: ord(c) < 128 and ord(c) in oracle.UNRESERVED,
                                                            space="+")}),
        (7, "encodeURIComponent", base | {"url.encode": _encode(lambda c: ord(c) < 128 and (
            ord(c) in oracle.UNRESERVED or c in "!'()*"))}),
        (8, "missing name renders its key", base | {"template.render": _template(missing_shows_key=True)}),
        (8, "parser traps on malformed braces", base | {"template.render": _template(traps=True)}),
        (9, "one bad selection wipes the document", base | {"selection.decode": _document_wiped}),
        (10, "json [] read as an empty selection", base | {"selection.decode": _json_empty_array_is_empty}),
        (11, "empty stored value read as empty selection", base | {"selection.decode": _nil_is_empty}),
        (12, "encoder answers an empty string", base | {"selection.encode": _encoder_answers_empty}),
    ] + [(n, name, base | _activity(n)) for n, name in ACTIVITY_BUGS] + [
        (n, name, base | _settings(n)) for n, name in SETTINGS_BUGS]


def correct():
    """The oracle as an implementation: encode answers what a correct encoder writes (judged by reading back)."""
    return dict(oracle.OPERATIONS) | {"selection.encode": formats.op_selection_encode_wire}


def judge(expect, op_table, case) -> bool:
    """True when the mutant's answer matches the case's expectation."""
    try:
        out = op_table[case["op"]](case["input"])
    except Coded as exc:
        return expect.get("error") == exc.code
    except Exception:  # a crash, or a mistyped input the mutant does not check
        return False
    if "error" in expect:
        return False
    if case["op"] == "selection.encode":
        return formats.judge_encode(case, out)  # SPEC §5.3: read the answer back, compare canonical strings
    return all(out.get(k) == v for k, v in expect["output"].items())


def run(suites, minimum=2):
    """Prints, per mutant, how many of its field bug's cases it fails; returns the mutants that fail too few."""
    cases = [c for s in suites for c in s.cases]
    weak = []
    # The judge itself: the correct oracle (its encoder answering real bytes) must pass every case.
    # (The old operations do not type their inputs, so their hand-set badInput cases are left out.)
    table = correct()
    judged = [c for c in cases if c["expect"] != {"error": "badInput"} or c["op"] == "selection.encode"
              or c["op"].startswith(("activity.", "settings.")) or "format" in c["input"]]  # these ops type their inputs
    wrong = [c["id"] for c in judged if not judge(c["expect"], table, c)]
    print(f"oracle as implementation fails {len(wrong)} of {len(judged)}" + (": " + ", ".join(wrong[:5]) if wrong else ""))
    if wrong:
        weak.append("the oracle itself")
    # …and it must reject an encoder that writes the selection in another format than the one asked for.
    def other_format(inp):
        out = formats.op_selection_encode_wire(inp)
        fmt = inp["format"]
        wrong_fmt = "json" if fmt != "json" else "binary-plist"
        return {formats.member_for(fmt): formats.write(oracle.decode_selection(inp["selection"]), wrong_fmt)} \
            if out else out
    enc_cases = [c for c in cases if c["op"] == "selection.encode" and "output" in c["expect"]
                 and c["input"]["format"] not in ("base64-json",)]
    passed = [c["id"] for c in enc_cases if judge(c["expect"], correct() | {"selection.encode": other_format}, c)]
    print(f"encoder in the wrong format passes {len(passed)} of {len(enc_cases)} encode cases")
    if passed:
        weak.append("the encode judge")
    for n, name, table in mutants():
        tagged = [c for c in cases if f"field-bug-{n}" in c["tags"]]
        failed = [c["id"] for c in tagged if not judge(c["expect"], table, c)]
        print(f"field-bug-{n} {name:42} fails {len(failed):3} of {len(tagged):3}")
        if len(failed) < minimum:
            weak.append(f"field-bug-{n} ({name})")
    return weak
