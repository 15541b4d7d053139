#!/usr/bin/env python3
"""Wrong adapters (e): the settings field bugs of SPEC §7.20–§7.22, one per run. The first argument names the bug;
the proxy changes what the app would have set (or how it would have compared) the way the buggy code does, and the
reference answers the rest:

    python3 Examples/wrong-adapters/settings-field-bugs.py 20 [REFERENCE COMMAND]

| bug | what the app does | how the proxy plants it |
| --- | --- | --- |
| 20 | takes `clearAllSettings()` to clear the shield only | a `clearAllSettings` step becomes an assignment of the four `shield.*` members to `null` |
| 21 | fills `blockedApplications` from a selection past 50 apps and carries on | a `blockedApplications` array of more than 50 distinct applications keeps its first 50 |
| 22 | compares typed domains with the host as strings | every valid policy domain and every URL host is replaced by a name made from its exact text (case, `www.` and trailing dot included), so that only identical strings match and a domain never covers a subdomain |
"""
import copy
import hashlib
import json
import re
import sys

from _reference_proxy import run

SHIELD = ("shield.applications", "shield.applicationCategories", "shield.webDomains", "shield.webDomainCategories")
LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


def is_domain_name(text):
    """SPEC §9.3: ASCII labels of letters, digits and hyphens (not first or last), one trailing dot dropped."""
    if not isinstance(text, str) or not text.isascii():
        return False
    name = text.lower()[:-1] if text.endswith(".") else text.lower()
    return 0 < len(name) <= 253 and all(LABEL.match(label) for label in name.split("."))


def exact(text):
    """A domain name that equals another only when the texts are identical, and covers no other."""
    return "h" + hashlib.sha1(text.encode()).hexdigest()[:20] + ".test"


def url_host(url):
    """(start, end) of the host in an http/https URL, as SPEC §9.3 reads it, or None."""
    lower = url.lower()
    for scheme in ("http://", "https://"):
        if lower.startswith(scheme):
            start = len(scheme)
            break
    else:
        return None
    end = start
    while end < len(url) and url[end] not in "/?#":
        end += 1
    host_start = url.rfind("@", start, end) + 1 or start
    host_end = end
    colon = url.rfind(":", host_start, end)
    if colon >= 0 and url[colon + 1:end].isdigit() or colon == end - 1 and colon >= host_start:
        host_end = colon
    return host_start, host_end


def request_rewriter(bug):
    def rewrite(op, inp):
        if op != "settings.evaluate" or not isinstance(inp, dict) or not isinstance(inp.get("steps"), list):
            return None
        inp = copy.deepcopy(inp)
        for step in inp["steps"]:
            if not isinstance(step, dict):
                continue
            if bug == 20 and step.get("do") == "clearAllSettings":
                step["do"] = "assign"
                step["members"] = {name: None for name in SHIELD}
            members = step.get("members")
            if not isinstance(members, dict):
                continue
            apps = members.get("application.blockedApplications")
            if bug == 21 and isinstance(apps, list):
                kept, seen = [], set()
                for app in apps:
                    key = json.dumps(app, sort_keys=True)
                    if key not in seen and len(seen) == 50:
                        continue
                    seen.add(key)
                    kept.append(app)
                members["application.blockedApplications"] = kept
            policy = members.get("webContent.blockedByFilter")
            if bug == 22 and isinstance(policy, dict):
                for key in ("domains", "except"):
                    if isinstance(policy.get(key), list):
                        policy[key] = [exact_domain(d) for d in policy[key]]
        query = inp.get("query")
        if bug == 22 and isinstance(query, dict) and query.get("kind") == "url" and isinstance(query.get("url"), str):
            url = query["url"]
            span = url_host(url)
            if span and is_domain_name(url[span[0]:span[1]]):
                query["url"] = url[:span[0]] + exact(url[span[0]:span[1]]) + url[span[1]:]
        return inp
    return rewrite


def exact_domain(domain):
    if isinstance(domain, str) and is_domain_name(domain):
        return exact(domain)
    if isinstance(domain, dict) and is_domain_name(domain.get("domain")):
        return {**domain, "domain": exact(domain["domain"])}
    return domain


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("20", "21", "22"):
        print("usage: settings-field-bugs.py 20|21|22 [REFERENCE COMMAND]", file=sys.stderr)
        sys.exit(2)
    bug = int(sys.argv.pop(1))
    sys.exit(run(lambda op, inp, answer: None, request_rewriter(bug)))
