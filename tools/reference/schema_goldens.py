#!/usr/bin/python3
"""Labels JSON texts valid/invalid under each schema of tests/data/schema_cases.json with
python3-jsonschema (Debian's package: run with /usr/bin/python3), for tests/schema/schema_test.cpp.

For each case, the texts are its instances and mutations of them (missing/extra members, wrong
types, out-of-range numbers, longer/shorter strings and arrays), each written in the two forms the
whitespace policy allows (compact, and json.dumps' ", " / ": "), labelled by the validator; plus
forms that break the policy (indentation, a space before ':' or after '{'), labelled invalid.

A case may also list "texts": JSON texts written as given (in the whitespace policy's form), for
numbers that Python floats would round or rewrite. Numbers are compared exactly: every text is
parsed with its non-integers as Decimal, and the schema's too.

The documented deviations from plain jsonschema are applied to the reference too (docs/schema.md):
"integer" means a JSON integer literal (1.0 is not one); the formats date, time, date-time, uuid
and email are checked as the subsets textedge accepts; a number under minimum/maximum/
exclusiveMinimum/exclusiveMaximum is written without an exponent; "oneOf" accepts a value that
matches several branches (it is "anyOf").

Usage: schema_goldens.py CASES.json OUT.jsonl
OUT.jsonl: a {"meta"} line, one {"case", "text", "valid"} line per text, and {"end": {"cases": N}}.
"""
import datetime
import decimal
import importlib.metadata
import json
import os
import re
import sys

import jsonschema

LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"


def check_date(s):
    if not isinstance(s, str):
        return True
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        return False
    try:
        datetime.date(int(s[:4]), int(s[5:7]), int(s[8:]))
        return True
    except ValueError:
        return False


def check_time(s):
    if not isinstance(s, str):
        return True
    m = re.fullmatch(r"(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))", s)
    if not m:
        return False
    h, mi, sec = int(m[1]), int(m[2]), int(m[3])
    if h > 23 or mi > 59 or sec > 59:
        return False
    return m[6] is None or (int(m[6]) <= 23 and int(m[7]) <= 59)


def check_date_time(s):
    if not isinstance(s, str):
        return True
    date, sep, time = s.partition("T")
    return sep == "T" and check_date(date) and check_time(time)


def check_uuid(s):
    return not isinstance(s, str) or re.fullmatch(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}", s) is not None


def check_email(s):
    if not isinstance(s, str):
        return True
    local, at, domain = s.rpartition("@")
    return (at == "@" and re.fullmatch(ATOM + r"(\." + ATOM + ")*", local) is not None
            and all(re.fullmatch(LABEL, label) for label in domain.split(".")))


class WrittenNumber(decimal.Decimal):
    """A JSON non-integer, exact, remembering how it was written."""

    def __new__(cls, text):
        number = super().__new__(cls, text)
        number.text = text
        return number


def without_exponent(check):
    """A bound keyword that also refuses numbers written with an exponent (docs/schema.md)."""
    def validate(validator, bound, instance, schema):
        if isinstance(instance, WrittenNumber) and "e" in instance.text.lower():
            yield jsonschema.ValidationError(f"{instance.text}: exponent in a bounded number")
        yield from check(validator, bound, instance, schema)
    return validate


def validator_for(schema):
    checker = jsonschema.FormatChecker(formats=())
    for name, fn in [("date", check_date), ("time", check_time), ("date-time", check_date_time),
                     ("uuid", check_uuid), ("email", check_email)]:
        checker.checks(name)(fn)
    base = jsonschema.Draft202012Validator
    types = base.TYPE_CHECKER.redefine(
        "integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool))
    keywords = {key: without_exponent(base.VALIDATORS[key])
                for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")}
    keywords["oneOf"] = base.VALIDATORS["anyOf"]
    cls = jsonschema.validators.extend(base, keywords, type_checker=types)
    return cls(schema, format_checker=checker)


def parse(text):
    return json.loads(text, parse_float=WrittenNumber)


SCALARS = [None, True, False, 0, -1, 1.5, "", "x", 100000, [], {}]


def mutations(v, depth=0):
    """Values near v: v itself with one thing changed (recursively, one change per result)."""
    out = []
    if isinstance(v, dict):
        keys = list(v)
        for k in keys:
            out.append({kk: vv for kk, vv in v.items() if kk != k})
        out.append({**v, "zz_extra": 1})
        for k in keys:
            for m in mutations(v[k], depth + 1)[:12 if depth == 0 else 5]:
                out.append({**v, k: m})
    elif isinstance(v, list):
        if v:
            out.append(v[:-1])
            out.append(v + [v[-1]])
        out.append(v + [None])
        for i, e in enumerate(v[:3]):
            for m in mutations(e, depth + 1)[:6]:
                out.append(v[:i] + [m] + v[i + 1:])
    else:
        out.extend(s for s in SCALARS if s is not v)
        if isinstance(v, bool):
            pass
        elif isinstance(v, int):
            out += [v - 1, v + 1, v * 10, -v, v + 0.5]
        elif isinstance(v, str):
            out += [v + "a", v[:-1], v * 2, v.upper()]
    return out


def keys(v):
    if isinstance(v, dict):
        for k, e in v.items():
            yield k
            yield from keys(e)
    elif isinstance(v, list):
        for e in v:
            yield from keys(e)


def texts(v, literals):
    """(text, follows_policy) pairs for v. `literals`: the schema has enum/const, whose strings
    are matched in their canonical form only (docs/schema.md), as are member names."""
    compact = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    spaced = json.dumps(v, ensure_ascii=False)
    out = [(compact, True), (spaced, True)]
    escaped = json.dumps(v, separators=(",", ":"))  # \uXXXX escapes
    canonical_names = all(k.isascii() for k in keys(v))
    if all(ord(c) < 0x10000 for c in compact) and canonical_names and (escaped == compact or not literals):
        out.append((escaped, True))
    if isinstance(v, (dict, list)) and v:
        out.append((json.dumps(v, ensure_ascii=False, indent=1), False))
        out.append((compact[0] + " " + compact[1:], False))
        if isinstance(v, dict):
            out.append((compact.replace('":', '" :', 1), False))
            out.append((spaced.replace(", ", ",  ", 1).replace(": ", ":  ", 1), False))
    out.append((" " + compact, False))
    seen, unique = set(), []
    for t, ok in out:
        if t not in seen:
            seen.add(t)
            unique.append((t, ok))
    return unique


def main():
    cases = json.load(open(sys.argv[1], encoding="utf-8"))
    exact_schemas = [c["schema"] for c in json.load(open(sys.argv[1], encoding="utf-8"), parse_float=decimal.Decimal)]
    out_path = sys.argv[2]
    lines = [json.dumps({"meta": {"jsonschema": importlib.metadata.version("jsonschema")}})]

    def write(case, text, valid):
        lines.append(json.dumps({"case": case["name"], "text": text, "valid": valid}, ensure_ascii=False))

    for case, exact_schema in zip(cases, exact_schemas):
        validator = validator_for(exact_schema)
        literals = '"enum"' in json.dumps(case["schema"]) or '"const"' in json.dumps(case["schema"])
        for text in case.get("texts", []):
            write(case, text, validator.is_valid(parse(text)))
            write(case, " " + text, False)
        values, seen = [], set()
        for inst in case.get("instances", []):
            for v in [inst] + mutations(inst):
                key = json.dumps(v, sort_keys=False)
                if key not in seen:
                    seen.add(key)
                    values.append(v)
        for v in values:
            valid = validator.is_valid(parse(json.dumps(v)))
            for text, policy in texts(v, literals):
                write(case, text, valid and policy)
    lines.append(json.dumps({"end": {"cases": len(lines) - 1}}))
    # Written whole, then renamed: an interrupted run leaves no partial file behind.
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    os.replace(tmp, out_path)


if __name__ == "__main__":
    main()
