"""The oracle for SPEC §9 (ManagedSettings beyond shields): `settings.evaluate` (wire shapes: §5.2).

Written from the text of SPEC.md §9.1–§9.5, §5.2 and assumptions A6, A28–A33 only; nothing here reads the Swift
reference. The shield members reuse oracle.py: its settings readers (`_ids`, `_policy_sets`, `_policy_shields`)
and its verdict (`op_shield_evaluate`), so a launch's shield verdict is exactly the one `shield.evaluate` answers.

`bugs` (a set of field-bug numbers, SPEC §7.20–§7.22) switches on the deliberate bugs that the mutants of
`mutants.py` use; the correct oracle runs with no bugs:
  20: `clearAllSettings` clears only the `shield.*` members;
  21: `blockedApplications` has no limit (past 50 the apps are hidden, no `limitExceeded`);
  22: policy domains are compared with the host exactly and case-sensitively (no subdomains, no lower-casing, no
      trailing dot dropped).
"""

from __future__ import annotations

import re

from . import oracle
from .oracle import Coded

LIMIT = 50  # SPEC §9.1 Limits (Apple doc), as for shields (§2)


def bad():
    return Coded("badInput")


# ---------------------------------------------------------------------------------------------------------------
# Members (SPEC §9.1) and their wire types (§5.2 "settings.evaluate shapes")

SHIELD_MEMBERS = {  # wire name -> the member of a shield.evaluate settings object (§2, §5.2)
    "shield.applications": "applications",
    "shield.applicationCategories": "applicationCategories",
    "shield.webDomains": "webDomains",
    "shield.webDomainCategories": "webDomainCategories",
}
BOOLEAN_MEMBERS = (
    "application.denyAppRemoval", "application.denyAppInstallation",
    "account.lockAccounts",
    "appStore.denyInAppPurchases", "appStore.requirePasswordForPurchases",
    "cellular.lockCellularPlan",
    "dateAndTime.requireAutomaticDateAndTime",
    "gameCenter.denyMultiplayerGaming", "gameCenter.denyAddingFriends",
    "media.denyExplicitContent",
    "passcode.lockPasscode",
    "siri.denySiri",
)
RATING = "appStore.maximumRating"
FILTER = "webContent.blockedByFilter"
BLOCKED_APPS = "application.blockedApplications"
RESTRICTIONS = BOOLEAN_MEMBERS + (RATING,)  # §9.4: every Boolean member, and appStore.maximumRating
MEMBERS = tuple(SHIELD_MEMBERS) + (FILTER, BLOCKED_APPS) + RESTRICTIONS
QUERY_KINDS = ("launch", "removal", "installation", "url", "privateBrowsing", "setting")


def is_int(v) -> bool:
    """An integer by value (`9.0` is `9`, as §5.3 compares numbers); not a Boolean."""
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) <= 2 ** 53)


def opt_str(obj, key):
    """An optional string member: absent or null is None (§5.2), else it must be a string."""
    v = obj.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise bad()
    return v


def read_ids(v):
    """An array of ids (§5.2, as in shield.evaluate)."""
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise bad()
    return list(v)


def read_shield_policy(v):
    """A shield.evaluate policy (§5.2): none; all with an optional except; specific requiring categories (A7)."""
    if not isinstance(v, dict) or not isinstance(v.get("policy"), str):
        raise bad()
    name = v["policy"]
    if name == "none":
        return {"policy": "none"}
    exc = [] if v.get("except") is None else read_ids(v["except"])
    if name == "all":
        return {"policy": "all", "except": exc}
    if name == "specific":
        if "categories" not in v:
            raise bad()
        return {"policy": "specific", "categories": read_ids(v["categories"]), "except": exc}
    raise bad()


def read_application(v):
    """An Application (§5.2): token, bundleIdentifier, localizedDisplayName, each optional. Two are the same value
    when every member is equal (§9.1), so the value is the triple."""
    if not isinstance(v, dict):
        raise bad()
    return (opt_str(v, "token"), opt_str(v, "bundleIdentifier"), opt_str(v, "localizedDisplayName"))


def read_web_domain(v):
    """A WebDomain (§5.2): {token, domain}, each optional, or a string short for {domain}; the value is the pair."""
    if isinstance(v, str):
        return (None, v)
    if not isinstance(v, dict):
        raise bad()
    return (opt_str(v, "token"), opt_str(v, "domain"))


def read_domains(v, required):
    """A policy's array of web domains: absent or null is empty unless required (`specific`'s `domains`)."""
    if v is None:
        if required:
            raise bad()
        return frozenset()
    if not isinstance(v, list):
        raise bad()
    return frozenset(read_web_domain(d) for d in v)


def read_filter(v):
    """A filter policy (§5.2, §9.1): (name, D, E); `specific` requires `domains`; unknown names are badInput (A33)."""
    if not isinstance(v, dict) or not isinstance(v.get("policy"), str):
        raise bad()
    name = v["policy"]
    if name == "none":
        return ("none", frozenset(), frozenset())
    if name == "specific":
        if "domains" not in v:
            raise bad()
        return ("specific", read_domains(v["domains"], True), frozenset())
    if name == "all":
        return ("all", frozenset(), read_domains(v.get("except"), False))
    if name == "auto":
        return ("auto", read_domains(v.get("domains"), False), read_domains(v.get("except"), False))
    raise bad()


def read_value(name, v):
    """The value of member `name` (not null): typed per §5.2."""
    if name in ("shield.applications", "shield.webDomains"):
        return read_ids(v)
    if name in ("shield.applicationCategories", "shield.webDomainCategories"):
        return read_shield_policy(v)
    if name == FILTER:
        return read_filter(v)
    if name == BLOCKED_APPS:
        if not isinstance(v, list):
            raise bad()
        return frozenset(read_application(a) for a in v)
    if name == RATING:
        if not is_int(v):
            raise bad()
        return int(v)
    if not isinstance(v, bool):
        raise bad()
    return v


# ---------------------------------------------------------------------------------------------------------------
# Steps (SPEC §5.2; §9.1 members, clearAllSettings, stores of the same name share)


def read_step(obj):
    """(store key, action, assignments): the store is None for the unnamed store (absent or null), else its name."""
    if not isinstance(obj, dict):
        raise bad()
    store = opt_str(obj, "store")
    action = obj.get("do")
    if not isinstance(action, str):
        raise bad()
    if action == "clearAllSettings":
        return store, action, []
    if action != "assign":
        raise bad()  # A33: an unknown step action
    members = obj.get("members")
    if not isinstance(members, dict):
        raise bad()
    assignments = []
    for name, v in members.items():
        if name not in MEMBERS:
            raise bad()  # A33: an unknown member name
        assignments.append((name, None if v is None else read_value(name, v)))
    return store, action, assignments


def apply_steps(steps, bugs=frozenset()):
    """Stores by key in order of first appearance; each store maps member names to values (absent = not set)."""
    stores: dict = {}
    for key, action, assignments in steps:
        store = stores.setdefault(key, {})
        if action == "clearAllSettings":
            if 20 in bugs:  # field bug 20: only the shields go
                for name in SHIELD_MEMBERS:
                    store.pop(name, None)
            else:  # §9.1: every member of every group, shields and denyAppRemoval included
                store.clear()
        for name, v in assignments:
            if v is None:
                store.pop(name, None)  # §9.1: setting a member to nil deletes it
            else:
                store[name] = v
    return stores


# ---------------------------------------------------------------------------------------------------------------
# Domain names and URLs (SPEC §9.3; A30)

_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z")


def ascii_lower(s: str) -> str:
    """Lower-cases A–Z only (str.lower would also fold, for instance, KELVIN SIGN to `k`)."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def domain_name(s: str):
    """§9.3: ASCII letters lower-cased, one trailing `.` dropped; labels of 1–63 of [a-z0-9-], no `-` at either
    end, 253 characters at most. The normalized name, or None when it is not a domain name."""
    d = ascii_lower(s)
    if d.endswith("."):
        d = d[:-1]
    if not d or len(d) > 253:
        return None
    if not all(_LABEL.match(label) for label in d.split(".")):
        return None
    return d


_SCHEME = re.compile(r"(?i:https?)://")
_PORT = re.compile(r":[0-9]*\Z")


def url_host(url: str):
    """§9.3 A URL's host: (raw host, normalized host); `invalidURL` when it cannot be read."""
    m = _SCHEME.match(url)
    if not m:
        raise Coded("invalidURL")
    rest = url[m.end():]
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    host = authority.rsplit("@", 1)[-1]  # user information: everything up to the last `@`
    host = _PORT.sub("", host, count=1)  # a final `:` and digits only (possibly none)
    normalized = domain_name(host)
    if normalized is None:
        raise Coded("invalidURL")
    return host, normalized


def covers(domain_raw: str, host_raw: str, host: str, bugs=frozenset()) -> bool:
    """§9.3 Matching (A31): `d` covers `h` when h is d or ends with `.d` (both normalized)."""
    if 22 in bugs:  # field bug 22: as typed, exactly
        return domain_raw == host_raw
    d = domain_name(domain_raw)
    return host == d or host.endswith("." + d)


def store_say(policy, host_raw, host, bugs=frozenset()):
    """§9.3 One store's say over a URL: None, "blocked" or "dependsOnSystemFilter". Token-only domains match no
    URL (A31)."""
    if policy is None:
        return None
    name, d_set, e_set = policy

    def any_match(domains):
        return any(dom is not None and covers(dom, host_raw, host, bugs) for _, dom in domains)

    if name == "none":
        return None
    if name == "specific":
        return "blocked" if any_match(d_set) else None
    if any_match(e_set):  # all / auto: an exception overrides the filter and D
        return None
    if name == "all":
        return "blocked"
    return "blocked" if any_match(d_set) else "dependsOnSystemFilter"


# ---------------------------------------------------------------------------------------------------------------
# Checks before any query (SPEC §9.5; A6, A31, A32)


def shield_settings(store) -> dict:
    """The store's shield members as a shield.evaluate settings object (§2)."""
    return {member: store.get(name) for name, member in SHIELD_MEMBERS.items()}


def over_limit(store, bugs=frozenset()) -> bool:
    """§9.1 Limits / §9.5: the six sets of §2, then blockedApplications, then the policy's D, then its E; repeated
    values count once (they are sets)."""
    sh = shield_settings(store)
    for key in ("applications", "webDomains"):
        if len(oracle._ids(sh[key])) > oracle.SHIELD_LIMIT:
            return True
    for key in ("applicationCategories", "webDomainCategories"):
        cats, exc = oracle._policy_sets(sh[key])
        if len(cats) > oracle.SHIELD_LIMIT or len(exc) > oracle.SHIELD_LIMIT:
            return True
    if 21 not in bugs and len(store.get(BLOCKED_APPS, ())) > LIMIT:
        return True
    policy = store.get(FILTER)
    return policy is not None and (len(policy[1]) > LIMIT or len(policy[2]) > LIMIT)


def check_stores(stores, bugs=frozenset()):
    """§9.5: limits over every store first, then every policy domain store by store (`invalidWebDomain`)."""
    for store in stores.values():
        if over_limit(store, bugs):
            raise Coded("limitExceeded")
    for store in stores.values():
        policy = store.get(FILTER)
        if policy is None:
            continue
        for _, dom in sorted(policy[1] | policy[2], key=repr):
            if dom is not None and domain_name(dom) is None:
                raise Coded("invalidWebDomain")


# ---------------------------------------------------------------------------------------------------------------
# Queries (SPEC §9.2–§9.4)


def read_query(obj):
    """A query (§5.2): its kind and members; unknown kinds and settings are badInput (A33)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
        raise bad()
    kind = obj["kind"]
    if kind not in QUERY_KINDS:
        raise bad()
    q = {"kind": kind}
    if kind == "launch":
        for key in ("application", "category"):
            if not isinstance(obj.get(key), str):
                raise bad()
        q.update(application=obj["application"], category=obj["category"],
                 bundleIdentifier=opt_str(obj, "bundleIdentifier"))
    elif kind == "url":
        if not isinstance(obj.get("url"), str):
            raise bad()
        q["url"] = obj["url"]
    elif kind == "setting":
        if obj.get("name") not in RESTRICTIONS:
            raise bad()
        q["name"] = obj["name"]
    return q


def names(keys) -> list:
    """§5.2: the responsible stores, the unnamed one first as null, then names in code point order."""
    keys = set(keys)
    return ([None] if None in keys else []) + sorted(k for k in keys if k is not None)


def launch(stores, q):
    """§9.2 Launch: hidden (A29) over shielded (§2) over allowed."""
    app, bundle = q["application"], q["bundleIdentifier"]

    def hides(store):
        return any((tok is not None and tok == app) or (bid is not None and bundle is not None and bid == bundle)
                   for tok, bid, _ in store.get(BLOCKED_APPS, ()))

    hiding = [k for k, s in stores.items() if hides(s)]
    if hiding:
        return {"verdict": "hidden", "stores": names(hiding)}
    activity = {"kind": "application", "token": app, "category": q["category"]}
    verdict = oracle.op_shield_evaluate({"stores": [shield_settings(s) for s in stores.values()], "activity": activity})
    if verdict["verdict"] == "allowed":
        return {"verdict": "allowed", "stores": []}
    if verdict["reason"] == "applicationCategory":
        resp = [k for k, s in stores.items()
                if oracle._policy_shields(s.get("shield.applicationCategories"), app, q["category"])]
    else:
        resp = [k for k, s in stores.items() if app in oracle._ids(s.get("shield.applications"))]
    return dict(verdict, stores=names(resp))


def deny(stores, member):
    """§9.2 Removal and installation: denied when some store sets the member true (A28)."""
    resp = [k for k, s in stores.items() if s.get(member) is True]
    return {"verdict": "denied" if resp else "allowed", "stores": names(resp)}


def url(stores, q, bugs=frozenset()):
    """§9.3 Over every store: blocked, else dependsOnSystemFilter, else allowed (A28)."""
    host_raw, host = url_host(q["url"])
    says = {k: store_say(s.get(FILTER), host_raw, host, bugs) for k, s in stores.items()}
    for verdict in ("blocked", "dependsOnSystemFilter"):
        resp = [k for k, v in says.items() if v == verdict]
        if resp:
            return {"verdict": verdict, "stores": names(resp)}
    return {"verdict": "allowed", "stores": []}


def private_browsing(stores):
    """§9.3 Private browsing: denied when some store's blockedByFilter is set to a policy other than none."""
    resp = [k for k, s in stores.items() if s.get(FILTER) is not None and s[FILTER][0] != "none"]
    return {"verdict": "denied" if resp else "allowed", "stores": names(resp)}


def setting(stores, name):
    """§9.4 Effective value (§9.1, A28): true beats false; the least rating; null when no store sets it. The
    stores responsible are those whose own value equals it."""
    values = {k: s[name] for k, s in stores.items() if name in s}
    if not values:
        return {"value": None, "stores": []}
    effective = min(values.values()) if name == RATING else any(values.values())
    return {"value": effective,
            "stores": names(k for k, v in values.items() if v == effective and type(v) is type(effective))}


def op_settings_evaluate(inp, bugs=frozenset()):
    """§5.2: steps read and applied first, then the query read; then §9.5's checks; then the query."""
    if not isinstance(inp, dict) or not isinstance(inp.get("steps"), list):
        raise bad()
    steps = [read_step(s) for s in inp["steps"]]
    stores = apply_steps(steps, bugs)
    if "query" not in inp:
        raise bad()
    q = read_query(inp["query"])
    check_stores(stores, bugs)
    kind = q["kind"]
    if kind == "launch":
        return launch(stores, q)
    if kind == "removal":
        return deny(stores, "application.denyAppRemoval")
    if kind == "installation":
        return deny(stores, "application.denyAppInstallation")
    if kind == "url":
        return url(stores, q, bugs)
    if kind == "privateBrowsing":
        return private_browsing(stores)
    return setting(stores, q["name"])


OPERATIONS = {"settings.evaluate": op_settings_evaluate}

oracle.OPERATIONS.update(OPERATIONS)
