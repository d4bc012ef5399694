#!/usr/bin/env python3
"""Builds the exactness corpus and the benchmark text (Python standard library only).

Writes, under build/corpus/ (or the directory given with --out):
  CATEGORY.jsonl  one JSON string per line, each line one test case (exact: no newline
                  ambiguity); cases range from "" and single characters to about 20 KB.
  bench.txt       a ~3 MB realistic mix (mostly English prose and code, some multilingual)
                  that scripts/bench_compare.sh measures by default.
  bench2.txt      a ~1.8 MB mix from other sources (JavaScript, Perl, JSON, translated man pages
                  and catalogs, emoji-heavy chat), the benchmark's second corpus.

Real text comes from what is installed here: man pages in many languages (roff stripped
crudely), gettext catalogs (.mo) for scripts man pages lack (Thai, Burmese, Arabic, ...),
C/C++ headers, the Python standard library, JSON files. The rest is generated from a fixed
seed. Output is deterministic for a given machine; a file is only rewritten when its
content changes, so scripts/goldens.sh can rely on modification times.

Each category's size is reported (and how much of it came from this machine). When a category
that holds this machine's text (REQUIRED: man pages in English and other languages, C/C++
headers, Python sources, JSON files, gettext catalogs) finds none, nothing is written and the
exit status is 1.
"""

import argparse
import gzip
import json
import os
import random
import re
import struct
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ["qwen3", "llama3_1", "gemma3", "deepseek_v3", "gptoss", "llama2"]
MAX_CASE_BYTES = 20000
SEED = 20240611


# ----------------------------------------------------------------------------- sources

def read_bytes_maybe_gzip(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except OSError:
            return b""
    return data


def decode_text(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


ROFF_CHARS = {
    "em": "\u2014", "en": "\u2013", "bu": "\u2022", "aq": "'", "dq": '"', "co": "\u00a9",
    "rg": "\u00ae", "lq": "\u201c", "rq": "\u201d", "oq": "\u2018", "cq": "\u2019",
    "hy": "-", "mi": "-", "pl": "+", "mu": "\u00d7", "di": "\u00f7", "de": "\u00b0",
    "ga": "`", "ha": "^", "ti": "~", "rs": "\\", "lh": "\u261c", "rh": "\u261e",
    "<=": "\u2264", ">=": "\u2265", "!=": "\u2260", "->": "\u2192", "<-": "\u2190",
    "tm": "\u2122", "sc": "\u00a7", "ps": "\u00b6", "Fo": "\u00ab", "Fc": "\u00bb",
    "fo": "\u2039", "fc": "\u203a", "ss": "\u00df", "ae": "\u00e6", ":a": "\u00e4",
    ":o": "\u00f6", ":u": "\u00fc", "'e": "\u00e9", "`e": "\u00e8", "^e": "\u00ea",
}
ROFF_ESCAPES = re.compile(
    r"\\(?:f(?:\[[^\]]*\]|\(..|.)|\((..)|\[([^\]]*)\]|\*(?:\(..|\[[^\]]*\]|.)|s[-+]?\d+"
    r"|[nkg](?:\(..|\[[^\]]*\]|.)|[&|^%c:]|e|-|\s|\"[^\n]*|(.))")


def strip_roff(text):
    """Man page source to readable text; crude, the text just needs to be real."""
    out = []
    for line in text.split("\n"):
        if line.startswith(('.\\"', "'\\\"", '\\"')):
            continue
        if line.startswith((".", "'")):
            parts = line[1:].split(None, 1)
            if not parts:
                continue
            macro = parts[0]
            if macro in ("TH", "SH", "SS", "B", "I", "BR", "BI", "IB", "IR", "RB", "RI", "IP",
                         "TP", "SM", "SB", "OP", "Nm", "Nd", "Ar", "Fl", "Op", "It", "Em", "Dq",
                         "UR", "MT", "Sh", "Xr", "Pa", "Cm"):
                if len(parts) > 1:
                    args = parts[1]
                    if macro in ("BR", "BI", "IB", "IR", "RB", "RI"):
                        args = "".join(a.strip('"') for a in re.findall(r'"[^"]*"|\S+', args))
                    else:
                        args = args.replace('"', "")
                    out.append(args)
                if macro in ("SH", "SS", "Sh", "PP", "LP", "P"):
                    out.append("")
            elif macro in ("PP", "LP", "P", "sp", "br"):
                out.append("")
            continue
        out.append(line)
    text = "\n".join(out)

    def repl(m):
        if m.group(1):
            return ROFF_CHARS.get(m.group(1), "")
        if m.group(2) is not None:
            name = m.group(2)
            if name.startswith(("u", "char")) and name[1:].isalnum():
                try:
                    return chr(int(name[1:], 16))
                except ValueError:
                    return ""
            return ROFF_CHARS.get(name, "")
        if m.group(3) is not None:
            return m.group(3)
        s = m.group(0)
        if s == "\\e":
            return "\\"
        if s == "\\-":
            return "-"
        if len(s) == 2 and s[1].isspace():
            return " "
        return ""

    text = ROFF_ESCAPES.sub(repl, text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def man_dirs():
    base = Path("/usr/share/man")
    langs = {}
    if not base.is_dir():
        return langs
    for d in sorted(base.iterdir()):
        if not d.is_dir():
            continue
        if d.name.startswith("man"):
            langs.setdefault("en", []).append(d)
        else:
            langs.setdefault(d.name, []).append(d)
    return langs


def man_text(dirs, budget, rng):
    files = sorted(p for d in dirs for p in d.rglob("*") if p.is_file())
    rng.shuffle(files)
    pieces, size = [], 0
    for p in files:
        if size >= budget:
            break
        try:
            text = strip_roff(decode_text(read_bytes_maybe_gzip(p)))
        except OSError:
            continue
        if len(text) < 200:
            continue
        text = text[: max(2000, budget // 4)]
        pieces.append(text)
        size += len(text.encode("utf-8"))
    return pieces


def read_mo(path):
    """Translated strings of a gettext catalog (the format is simple enough to read directly)."""
    data = Path(path).read_bytes()
    if len(data) < 28:
        return []
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if endian is None:
        return []
    _, count, _, trans_off = struct.unpack(endian + "4I", data[4:20])
    out = []
    for i in range(count):
        length, off = struct.unpack(endian + "2I", data[trans_off + 8 * i: trans_off + 8 * i + 8])
        raw = data[off: off + length]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if i == 0 and text.startswith("Project-Id") or "Content-Type" in text[:200]:
            continue
        for part in text.split("\x00"):  # plural forms
            if part.strip():
                out.append(part)
    return out


def catalog_text(langs, budget, rng):
    """Real sentences in the given locales from the installed .mo catalogs."""
    base = Path("/usr/share/locale")
    strings = []
    for lang in langs:
        d = base / lang / "LC_MESSAGES"
        if not d.is_dir():
            continue
        for p in sorted(d.glob("*.mo")):
            try:
                strings.extend(read_mo(p))
            except (OSError, struct.error):
                continue
    rng.shuffle(strings)
    out, size = [], 0
    for s in strings:
        if size >= budget:
            break
        out.append(s)
        size += len(s.encode("utf-8"))
    return out


def source_files(roots, suffixes, budget, rng, max_file=12000):
    files = []
    for root in roots:
        r = Path(root)
        if r.is_dir():
            files.extend(p for p in r.rglob("*") if p.suffix in suffixes and p.is_file())
    files.sort()
    rng.shuffle(files)
    out, size = [], 0
    for p in files:
        if size >= budget:
            break
        try:
            data = p.read_bytes()
        except OSError:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if not text.strip():
            continue
        if len(text) > max_file:
            start = rng.randrange(0, len(text) - max_file)
            text = text[start: start + max_file]
        out.append(text)
        size += len(text.encode("utf-8"))
    return out


# ----------------------------------------------------------------------------- generators

def rchars(rng, lo, hi, n):
    return "".join(chr(rng.randint(lo, hi)) for _ in range(n))


def join_words(rng, words, seps=(" ",), newline_every=12):
    out = []
    for i, w in enumerate(words):
        out.append(w)
        if newline_every and rng.randrange(newline_every) == 0:
            out.append(rng.choice(["\n", "\n\n", ".\n", ". ", "، ", "; "]))
        else:
            out.append(rng.choice(seps))
    return "".join(out)


def gen_thai(rng, n_words):
    cons = [chr(c) for c in range(0x0E01, 0x0E2F)]
    pre = ["", "", "\u0E40", "\u0E41", "\u0E42", "\u0E43", "\u0E44"]
    above = ["", "", "\u0E31", "\u0E34", "\u0E35", "\u0E36", "\u0E37", "\u0E38", "\u0E39", "\u0E47"]
    tone = ["", "", "", "\u0E48", "\u0E49", "\u0E4A", "\u0E4B"]
    post = ["", "", "\u0E32", "\u0E30", "\u0E33", "\u0E2D", "\u0E19", "\u0E07", "\u0E21"]
    words = []
    for _ in range(n_words):
        w = "".join(rng.choice(pre) + rng.choice(cons) + rng.choice(above) + rng.choice(tone)
                    + rng.choice(post) for _ in range(rng.randint(1, 5)))
        if rng.randrange(15) == 0:
            w += "".join(chr(0x0E50 + rng.randrange(10)) for _ in range(rng.randint(1, 4)))
        if rng.randrange(20) == 0:
            w += "\u0E46"  # mai yamok
        words.append(w)
    # Thai writes words without spaces; spaces separate phrases.
    return join_words(rng, words, seps=("", "", "", " "), newline_every=40)


def gen_burmese(rng, n_words):
    cons = [chr(c) for c in range(0x1000, 0x1021)]
    medial = ["", "", "\u103B", "\u103C", "\u103D", "\u103E", "\u103B\u103D"]
    vowel = ["", "\u102B", "\u102C", "\u102D", "\u102E", "\u102F", "\u1030", "\u1031", "\u1032",
             "\u1031\u102C", "\u102D\u102F"]
    final = ["", "", "\u1036", "\u1037", "\u1038", "\u103A", "\u1014\u103A", "\u1004\u103A\u1038"]
    words = []
    for _ in range(n_words):
        syl = []
        for _ in range(rng.randint(1, 4)):
            s = rng.choice(cons)
            if rng.randrange(10) == 0:
                s += "\u1039" + rng.choice(cons)  # stacked consonant
            syl.append(s + rng.choice(medial) + rng.choice(vowel) + rng.choice(final))
        w = "".join(syl)
        if rng.randrange(12) == 0:
            w += "".join(chr(0x1040 + rng.randrange(10)) for _ in range(rng.randint(1, 4)))
        words.append(w)
    return join_words(rng, words, seps=(" ", "", "\u104A ", "\u104B\n"), newline_every=30)


def gen_arabic(rng, n_words):
    letters = [chr(c) for c in range(0x0621, 0x063B)] + [chr(c) for c in range(0x0641, 0x064B)]
    harakat = [chr(c) for c in range(0x064B, 0x0653)]
    words = []
    for _ in range(n_words):
        w = []
        for _ in range(rng.randint(2, 8)):
            w.append(rng.choice(letters))
            if rng.randrange(3) == 0:
                w.append(rng.choice(harakat))
            if rng.randrange(30) == 0:
                w.append("\u0640")  # tatweel
        word = "".join(w)
        r = rng.randrange(40)
        if r == 0:
            word = "".join(chr(0x0660 + rng.randrange(10)) for _ in range(rng.randint(1, 6)))
        elif r == 1:
            word = "".join(chr(0x06F0 + rng.randrange(10)) for _ in range(rng.randint(1, 6)))
        elif r == 2:
            word = "\u200F" + word + "\u200E"
        elif r == 3:
            word = rchars(rng, 0xFE70, 0xFEFC, rng.randint(2, 6))  # presentation forms
        elif r == 4:
            word = "\u0644\u0627" + word  # lam-alef
        words.append(word)
    return join_words(rng, words, seps=(" ", " ", "\u060C ", "\u061B "), newline_every=20)


def gen_devanagari(rng, n_words):
    cons = [chr(c) for c in range(0x0915, 0x093A)]
    matra = ["", "", "\u093E", "\u093F", "\u0940", "\u0941", "\u0942", "\u0947", "\u0948",
             "\u094B", "\u094C", "\u0943"]
    tail = ["", "", "", "\u0902", "\u0901", "\u0903"]
    words = []
    for _ in range(n_words):
        w = []
        if rng.randrange(6) == 0:
            w.append(chr(rng.choice([0x0905, 0x0906, 0x0907, 0x0908, 0x0909, 0x090F, 0x0913])))
        for _ in range(rng.randint(1, 4)):
            c = rng.choice(cons)
            if rng.randrange(12) == 0:
                c += "\u093C"  # nukta
            if rng.randrange(6) == 0:
                c += "\u094D" + ("\u200D" if rng.randrange(8) == 0 else "") + rng.choice(cons)
            w.append(c + rng.choice(matra) + rng.choice(tail))
        word = "".join(w)
        if rng.randrange(20) == 0:
            word = "".join(chr(0x0966 + rng.randrange(10)) for _ in range(rng.randint(1, 5)))
        if rng.randrange(30) == 0:
            word += "\u094D\u200C"
        words.append(word)
    return join_words(rng, words, seps=(" ", " ", " ", "\u0964 ", "\u0965\n"), newline_every=25)


def gen_hebrew(rng, n_words):
    letters = [chr(c) for c in range(0x05D0, 0x05EB)]
    points = [chr(c) for c in range(0x05B0, 0x05BD)] + ["\u05C1", "\u05C2", "\u05BF"]
    words = []
    for _ in range(n_words):
        w = []
        for _ in range(rng.randint(2, 7)):
            w.append(rng.choice(letters))
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                w.append(rng.choice(points))
        word = "".join(w)
        if rng.randrange(25) == 0:
            word += "\u05F3" if rng.randrange(2) else "\u05F4" + rng.choice(letters)
        if rng.randrange(30) == 0:
            word = "\u202B" + word + "\u202C"
        words.append(word)
    return join_words(rng, words, seps=(" ", " ", "\u05BE", ", "), newline_every=20)


def gen_greek(rng, n_words):
    basic = [chr(c) for c in range(0x03B1, 0x03CA)]
    polytonic = [chr(c) for c in range(0x1F00, 0x1F16)] + [chr(c) for c in range(0x1F20, 0x1F46)]
    tonos = ["\u03AC", "\u03AD", "\u03AE", "\u03AF", "\u03CC", "\u03CD", "\u03CE", "\u0390"]
    words = []
    for _ in range(n_words):
        w = [rng.choice(basic) for _ in range(rng.randint(1, 8))]
        if rng.randrange(2) == 0:
            w.insert(rng.randrange(len(w) + 1), rng.choice(tonos))
        if rng.randrange(6) == 0:
            w.insert(0, rng.choice(polytonic))
        word = "".join(w)
        if rng.randrange(8) == 0:
            word = word.upper()
        if rng.randrange(20) == 0:
            word = unicodedata.normalize("NFD", word)  # decomposed accents
        if rng.randrange(30) == 0:
            word += "\u037E"  # Greek question mark: NFC turns it into ';'
        if word.endswith("\u03C3") and rng.randrange(2):
            word = word[:-1] + "\u03C2"
        words.append(word)
    return join_words(rng, words, seps=(" ", " ", ", ", "\u0387 "), newline_every=20)


def gen_cjk(rng, n):
    out = []
    for _ in range(n):
        r = rng.randrange(14)
        if r < 5:
            out.append(rchars(rng, 0x4E00, 0x9FA5, rng.randint(1, 12)))
        elif r == 5:
            out.append(rchars(rng, 0x3041, 0x3096, rng.randint(1, 8)))
        elif r == 6:
            out.append(rchars(rng, 0x30A1, 0x30FA, rng.randint(1, 8)) + "\u30FC" * rng.randint(0, 1))
        elif r == 7:
            out.append(rchars(rng, 0xAC00, 0xD7A3, rng.randint(1, 6)) + " ")
        elif r == 8:
            out.append(rchars(rng, 0xFF66, 0xFF9F, rng.randint(1, 6)))  # halfwidth katakana
        elif r == 9:
            out.append(rchars(rng, 0xFF01, 0xFF5E, rng.randint(1, 6)))  # fullwidth ASCII
        elif r == 10:
            out.append(rchars(rng, 0x20000, 0x2A6DF, rng.randint(1, 4)))  # extension B
        elif r == 11:
            # Compatibility ideographs and conjoining jamo: NFC changes both.
            if rng.randrange(2):
                out.append(rchars(rng, 0xF900, 0xFA6D, rng.randint(1, 3)))
            else:
                out.append("".join(chr(0x1100 + rng.randrange(19)) + chr(0x1161 + rng.randrange(21))
                                   + (chr(0x11A8 + rng.randrange(27)) if rng.randrange(2) else "")
                                   for _ in range(rng.randint(1, 3))))
        elif r == 12:
            out.append(rng.choice(["\u3002", "\u3001", "\u300C", "\u300D", "\uFF01", "\uFF1F", "\u3000",
                                   "\u30FB", "\u3005", "\u3007", "\uFF08", "\uFF09", "\u2026\u2026"]))
        else:
            out.append(rchars(rng, 0x3400, 0x4DB5, rng.randint(1, 3)))  # extension A
        if rng.randrange(25) == 0:
            out.append("\n")
    return "".join(out)


def gen_misc_scripts(rng, n):
    """Letters and marks of many more scripts, syllable-ish."""
    blocks = [(0x10D0, 0x10F0, None), (0x0531, 0x0556, None), (0x0561, 0x0587, None),
              (0x1200, 0x135A, None), (0x1780, 0x17B3, (0x17B6, 0x17D3)), (0x0E81, 0x0EB0, (0x0EB1, 0x0ECD)),
              (0x0B95, 0x0BB9, (0x0BBE, 0x0BCD)), (0x0C15, 0x0C39, (0x0C3E, 0x0C4D)),
              (0x0995, 0x09B9, (0x09BE, 0x09CD)), (0x0A95, 0x0AB9, (0x0ABE, 0x0ACD)),
              (0x0D95, 0x0DC6, (0x0DCF, 0x0DDF)), (0x0F40, 0x0F6C, (0x0F71, 0x0F84)),
              (0x13A0, 0x13F4, None), (0x1401, 0x166C, None), (0x0710, 0x072F, (0x0730, 0x074A)),
              (0x0780, 0x07A5, (0x07A6, 0x07B0)), (0x1820, 0x1877, None), (0xA000, 0xA48C, None),
              (0x10400, 0x1044F, None), (0x0400, 0x04FF, (0x0483, 0x0487)), (0x1E00, 0x1EFF, None)]
    out = []
    for _ in range(n):
        lo, hi, marks = rng.choice(blocks)
        w = []
        for _ in range(rng.randint(1, 8)):
            w.append(chr(rng.randint(lo, hi)))
            if marks and rng.randrange(2):
                w.append(chr(rng.randint(*marks)))
        out.append("".join(w))
        out.append(rng.choice([" ", " ", " ", "\n", ". ", ", ", "\u0589 ", "\u1362"]))
    return "".join(out)


def base_emoji(rng):
    r = rng.randrange(6)
    ranges = [(0x1F600, 0x1F64F), (0x1F300, 0x1F5FF), (0x1F680, 0x1F6FF), (0x1F900, 0x1F9FF),
              (0x2600, 0x26FF), (0x1FA70, 0x1FAFF)]
    return chr(rng.randint(*ranges[r]))


FLAG_CODES = ["US", "GB", "FR", "DE", "JP", "CN", "IN", "BR", "RU", "KR", "IT", "ES", "CA", "AU",
              "MX", "NG", "EG", "TH", "MM", "IL", "GR", "UA", "PL", "SE", "NO", "FI", "ZA", "AR"]
RI = lambda c: chr(0x1F1E6 + ord(c) - ord("A"))


def gen_emoji_token(rng):
    r = rng.randrange(12)
    tones = [chr(c) for c in range(0x1F3FB, 0x1F400)]
    people = ["\U0001F468", "\U0001F469", "\U0001F9D1", "\U0001F466", "\U0001F467"]
    if r == 0:
        return base_emoji(rng)
    if r == 1:
        return rng.choice(["\U0001F44D", "\U0001F44B", "\U0001F64F", "\U0001F9D1", "\u270C"]) + rng.choice(tones)
    if r == 2:  # families and couples
        return "\u200D".join(rng.choice(people) for _ in range(rng.randint(2, 4)))
    if r == 3:  # profession with skin tone
        return (rng.choice(people) + rng.choice(tones + [""]) + "\u200D"
                + rng.choice(["\U0001F680", "\U0001F52C", "\U0001F4BB", "\U0001F3A8", "\u2695\uFE0F",
                              "\U0001F373", "\u2708\uFE0F"]))
    if r == 4:
        return RI(rng.choice(FLAG_CODES)[0]) + RI(rng.choice(FLAG_CODES)[1]) if rng.randrange(4) == 0 \
            else "".join(RI(c) for c in rng.choice(FLAG_CODES))
    if r == 5:  # subdivision flags (tag sequences)
        tag = rng.choice(["gbeng", "gbsct", "gbwls", "usca", "ustx"])
        return "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in tag) + "\U000E007F"
    if r == 6:  # keycaps, with and without VS16
        return rng.choice("0123456789#*") + ("\uFE0F" if rng.randrange(3) else "") + "\u20E3"
    if r == 7:
        return rng.choice(["\u2764\uFE0F", "\u2764", "\u263A\uFE0F", "\u2600\uFE0E", "\U0001F3F3\uFE0F\u200D\U0001F308",
                           "\u2764\uFE0F\u200D\U0001F525", "\U0001F636\u200D\U0001F32B\uFE0F",
                           "\U0001F415\u200D\U0001F9BA", "\U0001F3F4\u200D\u2620\uFE0F"])
    if r == 8:  # lone pieces: stray ZWJ, modifier, regional indicator, VS
        return rng.choice(["\u200D", "\U0001F3FD", RI("Q"), "\uFE0F", "\u20E3", "\U000E0067"])
    if r == 9:  # hand-holding with two tones
        return "\U0001F9D1" + rng.choice(tones) + "\u200D\U0001F91D\u200D\U0001F9D1" + rng.choice(tones)
    if r == 10:
        return base_emoji(rng) * rng.randint(2, 6)
    return rng.choice([":)", ":-(", "\u00AF\\_(\u30C4)_/\u00AF", "(\u256F\u00B0\u25A1\u00B0)\u256F\uFE35 \u253B\u2501\u253B", "<3"])


def gen_emoji_text(rng, n):
    words = ["I", "love", "this", "so", "much", "lol", "the", "party", "was", "great", "see", "you",
             "tomorrow", "at", "the", "beach", "ok", "thanks", "wow", "Congrats!", "haha", "yes"]
    out = []
    for _ in range(n):
        r = rng.randrange(5)
        if r < 2:
            out.append(rng.choice(words))
            out.append(rng.choice([" ", " ", "", "\n"]))
        else:
            out.append(gen_emoji_token(rng))
            out.append(rng.choice([" ", "", "", "\n", "!"]))
    return "".join(out)


COMBINING_RANGES = [(0x0300, 0x036F), (0x1AB0, 0x1ACE), (0x1DC0, 0x1DFF), (0x20D0, 0x20F0),
                    (0xFE20, 0xFE2F), (0x0483, 0x0489), (0x0591, 0x05BD), (0x064B, 0x065F)]
NFC_SINGLETONS = ["\u212B", "\u2126", "\u212A", "\u0340", "\u0341", "\u0343", "\u0344", "\u0374",
                  "\u037E", "\u0387", "\u1F71", "\u1FFD", "\u2000", "\u2001", "\u2329", "\u232A",
                  "\u0958", "\u095C", "\u09DC", "\u0A33", "\u0B5C", "\u0F43", "\uFB1D", "\uFB2A",
                  "\U0001D15E", "\U0001D160", "\U0002F800", "\U0002F81F"]


def combining_mark(rng):
    lo, hi = rng.choice(COMBINING_RANGES)
    return chr(rng.randint(lo, hi))


def gen_combining(rng, n):
    latin_words = ["café", "naïve", "résumé", "Ångström", "Zürich", "São Paulo", "Tiếng Việt",
                   "Nguyễn", "phở", "Dvořák", "Łódź", "İstanbul", "ﬁnance", "Œuvre", "piñata",
                   "Ελληνικά", "Ŝ", "ǅ", "ḱṓ", "x̧̌", "Å", "ñ", "ç", "é"]
    out = []
    for _ in range(n):
        r = rng.randrange(10)
        if r == 0:  # zalgo: stacked marks
            base = rng.choice("aeiouxyzHEZ ∂0\u4E2D\U0001F600'")
            out.append(base + "".join(combining_mark(rng) for _ in range(rng.randint(3, 25))))
        elif r == 1:
            w = rng.choice(latin_words)
            out.append(unicodedata.normalize(rng.choice(["NFD", "NFC", "NFKD"]), w))
        elif r == 2:  # marks in non-canonical order (NFC reorders them)
            out.append(rng.choice("aeoqs") + rng.choice(["\u0301\u0323", "\u0308\u0327", "\u0300\u0316\u0301",
                                                        "\u0345\u0301", "\u05B8\u05B0"]))
        elif r == 3:
            out.append(rng.choice(NFC_SINGLETONS))
        elif r == 4:  # marks with no base: at start, after spaces, digits, punctuation, newline
            out.append(rng.choice([" ", "\n", "1", "(", "\t", "'", ""]) + combining_mark(rng) * rng.randint(1, 3))
        elif r == 5:  # conjoining Hangul jamo
            out.append(chr(0x1100 + rng.randrange(19)) + chr(0x1161 + rng.randrange(21))
                       + (chr(0x11A8 + rng.randrange(27)) if rng.randrange(2) else ""))
        elif r == 6:  # letters then enclosing/overlay marks
            out.append(rng.choice("ABC123") + rng.choice(["\u20DD", "\u20DE", "\u20E0", "\u0338", "\u20D2"]))
        elif r == 7:
            w = rng.choice(latin_words)
            out.append("".join(ch + (combining_mark(rng) if rng.randrange(3) == 0 else "") for ch in w))
        elif r == 8:  # variation selectors, incl. plane 14 ideographic VS
            out.append(rng.choice(["\u845B\U000E0100", "\u8FBB\U000E0101", "A\uFE00", "\u2764\uFE0E", "\u0030\uFE0F"]))
        else:
            out.append(rng.choice(["the", "and", "word", "Text", "ok"]))
        out.append(rng.choice([" ", " ", "", "\n", ", "]))
    return "".join(out)


WHITESPACE = [" ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x85", "\xa0", "\u1680",
              "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007",
              "\u2008", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
              "\u200b", "\ufeff", "\u180e", "\x1c", "\x1d", "\x1e", "\x1f"]


def ws_run(rng, max_len=12):
    r = rng.randrange(5)
    if r == 0:
        return rng.choice(WHITESPACE) * rng.randint(1, max_len)
    if r == 1:
        return " " * rng.randint(1, max_len)
    if r == 2:
        return rng.choice(["\n", "\r\n", "\n\n", " \n", "\n ", "\t\n", " \r\n ", "\n\t\t"])
    return "".join(rng.choice(WHITESPACE) for _ in range(rng.randint(1, max_len)))


def gen_whitespace(rng, n):
    tokens = ["word", "Hello", "x", "42", "3.5", "!", "?!", "(", ")", "\u4E2D\u6587", "\u00e9t\u00e9",
              "'s", "don't", "def", "{", "}", "//", "\U0001F600", "\u0928\u092E\u0938\u094D\u0924\u0947"]
    out = []
    for _ in range(n):
        out.append(ws_run(rng))
        out.append(rng.choice(tokens))
    if rng.randrange(2):
        out.append(ws_run(rng))
    return "".join(out)


def digits(rng, zero, n):
    return "".join(chr(zero + rng.randrange(10)) for _ in range(n))


def gen_number(rng):
    r = rng.randrange(16)
    if r == 0:
        return digits(rng, 0x30, rng.randint(1, 60))
    if r == 1:
        return f"{rng.uniform(-1e6, 1e6):.{rng.randint(0, 8)}f}"
    if r == 2:
        return f"{rng.randint(0, 10**12):,}" + rng.choice(["", ".00", ".5"])
    if r == 3:
        return f"{rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30):e}"
    if r == 4:
        return "0x" + "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(rng.randint(1, 16)))
    if r == 5:
        return digits(rng, 0x0660, rng.randint(1, 12))  # Arabic-Indic
    if r == 6:
        return digits(rng, 0x06F0, rng.randint(1, 12))  # Extended Arabic-Indic
    if r == 7:
        return digits(rng, 0x0966, rng.randint(1, 12))  # Devanagari
    if r == 8:
        return digits(rng, 0xFF10, rng.randint(1, 12))  # fullwidth
    if r == 9:
        return rng.choice(["\u00B2", "\u00B3", "\u00B9", "\u00BD", "\u00BC", "\u2153", "\u2160", "\u216B",
                           "\u2460", "\u2473", "\u2070", "\u2089", "\u3007", "\u4E00\u4E8C\u4E09"])
    if r == 10:
        return digits(rng, 0x1D7CE, rng.randint(1, 6))  # mathematical bold digits (plane 1)
    if r == 11:
        return f"{rng.randint(1900, 2099)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z"
    if r == 12:
        return f"v{rng.randint(0, 20)}.{rng.randint(0, 99)}.{rng.randint(0, 999)}"
    if r == 13:
        return f"+1 ({rng.randint(200, 999)}) {rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"
    if r == 14:
        return rng.choice(["abc", "x", "item", "\u00E9", "\u0905"]) + digits(rng, 0x30, rng.randint(1, 9)) + rng.choice(["", "th", "px", "%", "kg"])
    return digits(rng, rng.choice([0x0E50, 0x1040, 0x09E6, 0x0BE6, 0x17E0]), rng.randint(1, 8))


def gen_numbers(rng, n):
    out = []
    for _ in range(n):
        out.append(gen_number(rng))
        out.append(rng.choice([" ", " ", ", ", "\n", "", " + ", " = ", "/", ":", "\u00a0"]))
    return "".join(out)


def gen_contractions(rng, n):
    suffixes = ["s", "t", "re", "ve", "m", "ll", "d"]
    words = ["it", "he", "she", "we", "they", "you", "I", "that", "there", "who", "John", "DON", "can",
             "wouldn", "Y", "1990", "\u00e9t\u00e9", "\u0418\u0432\u0430\u043d", "x", "rock", "O", ""]
    out = []
    for _ in range(n):
        r = rng.randrange(8)
        apo = rng.choice(["'", "'", "\u2019", "\u2018", "`", "\u02BC", "''"])
        suf = rng.choice(suffixes)
        suf = rng.choice([suf, suf.upper(), suf.capitalize(), suf[:-1] + suf[-1].upper(), suf.swapcase()])
        if r < 4:
            out.append(rng.choice(words) + apo + suf)
        elif r == 4:
            out.append(apo + suf + rng.choice(["", "x", "s", "ll", " ", "1"]))  # contraction at word start
        elif r == 5:
            out.append(rng.choice(["y'all'd've", "'tis", "rock'n'roll", "O'Neil", "l'\u00e9t\u00e9",
                                   "'quoted'", "\u2018single\u2019", "don\u2019t", "DON'T", "I'M", "we'Re",
                                   "it''s", "'''", "'", "\u2019\u2019", "'S'LL'D", "won't've"]))
        elif r == 6:
            out.append(rng.choice(words) + apo)
        else:
            out.append(rng.choice(["the", "is", "a", "cat", "It", "was"]))
        out.append(rng.choice([" ", " ", " ", "\n", ", ", ". ", "", "  ", "\t"]))
    return "".join(out)


def random_codepoint(rng):
    r = rng.randrange(10)
    if r < 4:
        cp = rng.randint(0, 0xFFFF)
    elif r == 4:
        cp = rng.randint(0, 0x7F)
    elif r == 5:
        cp = rng.randint(0x80, 0x7FF)
    elif r == 6:
        cp = rng.randint(0x10000, 0x1FFFF)
    elif r == 7:
        cp = rng.randint(0x20000, 0x3FFFF)
    elif r == 8:
        cp = rng.choice([0xE0000 + rng.randrange(0x200), 0xF0000 + rng.randrange(0x10000),
                         0x100000 + rng.randrange(0x10000), 0x10FFFF, 0x10FFFE, 0xFFFE, 0xFFFF,
                         0xFDD0 + rng.randrange(32), 0, 0xFFFD, 0xFEFF])
    else:
        cp = rng.randint(0x40000, 0x10FFFF)
    if 0xD800 <= cp <= 0xDFFF:
        cp = 0xFFFD - (cp & 0xF)
    return chr(cp)


def gen_random_codepoints(rng, n):
    return "".join(random_codepoint(rng) for _ in range(n))


def json_value(rng, depth=0):
    r = rng.randrange(8 if depth < 4 else 5)
    if r == 0:
        return rng.randint(-10**9, 10**9)
    if r == 1:
        return round(rng.uniform(-1000, 1000), rng.randint(0, 6))
    if r == 2:
        return rng.choice([True, False, None])
    if r in (3, 4):
        pool = ["hello", "world", "caf\u00e9", "\u4E2D\u6587", "path/to/file.txt", "a\"quote\"", "tab\there",
                "line\nbreak", "\U0001F600", "<|im_end|>", "C:\\Users\\x", "", " ", "https://example.com/?q=1&r=2"]
        return rng.choice(pool)
    if r in (5, 6):
        keys = ["id", "name", "type", "value", "items", "metadata", "created_at", "enabled", "tags", "role",
                "content", "\u540D\u524D", "x-y_z"]
        return {rng.choice(keys) + ("" if rng.randrange(3) else str(i)): json_value(rng, depth + 1)
                for i in range(rng.randint(0, 6))}
    return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 6))]


def sweep_ranges():
    """Every code point of planes 0-2 and the tag/variation-selector block, some of 3 and 15-16."""
    yield from ((0x0000, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x2FFFF), (0x30000, 0x323AF),
                (0xE0000, 0xE01EF), (0xF0000, 0xF00FF), (0x10FF00, 0x10FFFF))


def gen_codepoint_sweep(rng):
    """Each code point in contexts that expose how pre-tokenizer patterns classify it (letter,
    number, mark, space, upper/lower case) and how normalizers treat it; one case per 256."""
    contexts = ["{c}", " {c}", "a{c}", "{c}a", "1{c}", "'{c}", "{c}{c}", " {c}\n", "A{c}b", "{c}'s"]
    cases = []
    for lo, hi in sweep_ranges():
        for start in range(lo, hi + 1, 256):
            parts = []
            for cp in range(start, min(hi, start + 255) + 1):
                parts.append(rng.choice(contexts).format(c=chr(cp)))
            cases.append("".join(parts))
    return cases


def gen_composition_cases(rng):
    """Canonically decomposable characters written decomposed (NFC must recompose them) and
    Hangul syllables written as conjoining jamo."""
    decomposed = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        d = unicodedata.decomposition(ch)
        if d and not d.startswith("<"):
            nfd = unicodedata.normalize("NFD", ch)
            if nfd != ch:
                decomposed.append(nfd)
    hangul = [unicodedata.normalize("NFD", chr(0xAC00 + i)) for i in rng.sample(range(11172), 3000)]
    pool = decomposed + hangul
    rng.shuffle(pool)
    cases = []
    for i in range(0, len(pool), 64):
        cases.append(rng.choice(["", " ", "x"]).join(pool[i:i + 64]))
    return cases


# Short pieces where pre-tokenizer patterns disagree most easily: contractions, letter case
# classes (Lu Ll Lt Lm Lo), marks, every kind of number and space, punctuation runs, symbols.
FUZZ_ALPHABET = [
    " ", "  ", "   ", "\t", "\n", "\r", "\r\n", "\n\n", " \n", "\u00a0", "\u3000", "\u2028", "\u0085", "\x0b",
    "\x0c", "\u200b", "\u2009", "'", "\u2019", "''", "'s", "'S", "'t", "'T", "'re", "'RE", "'rE", "'ve", "'Ve", "'m",
    "'M", "'ll", "'LL", "'lL", "'d", "'D", "\u2019s", "\u2019LL", "s", "t", "re", "ll", "a", "A", "Ab", "aB", "AB",
    "ab", "I", "\u01C5", "\u02B0", "\u00AA", "\u4E2D", "\u3042", "\u30A2", "\uAC00", "\u00e9", "\u00C9", "e\u0301",
    "\u0301", "\u0903", "\u20DD", "\u0E31", "\u093F", "1", "12", "123", "1234", "0", "\u0663", "\u06F5",
    "\u0967", "\u2167", "\u00BD", "\u00B2", "\uFF11", "\U0001D7CF", "!", "?", ".", ",", "...", "/", "//", "(",
    ")", "$", "_", "-", "--", "\u2014", "\u00AB", "\u00BB", "@", "#", "%", "&", "*", "+", "=", "<", ">", "[", "]", "{",
    "}", "|", "~", "`", "^", "\\", "\"", ";", ":", "\U0001F600", "\U0001F44D\U0001F3FD", "\u200d", "\ufe0f",
    "\u2581", "\u2581\u2581", "<s>", "</s>", "<|endoftext|>", "<|im_end|>", "<bos>", "<\uff5cUser\uff5c>", "\x00",
    "\x7f", "\u0080", "\ufeff", "\U0010FFFF", "\u05D0", "\u0627", "\u0E01", "\u1000", "\u0915\u094D",
    "\u03A3", "\u03C3", "\u0130", "\u0131", "\u1E9E", "\u00DF", "\uFB01", "\u2160", "\u24B6", "\U00010400",
    "\U0001E900", "x\u0308", "http://x.y/z?a=1", "3.14", "1,000", "-5", "1e10", "0x1F",
]


def gen_fuzz_cases(rng, n):
    cases = []
    for _ in range(n):
        cases.append("".join(rng.choice(FUZZ_ALPHABET) for _ in range(rng.randint(1, 16))))
    return cases


# ----------------------------------------------------------------------------- special tokens

def model_special_tokens():
    """Added-token strings of each model, read from models/*/tokenizer.json."""
    tokens = {}
    for m in MODELS:
        path = ROOT / "models" / m / "tokenizer.json"
        if not path.is_file():
            continue
        # Only the added_tokens array is needed; parsing the whole (up to 33 MB) file is slow.
        text = path.read_bytes().decode("utf-8")
        key = text.find('"added_tokens"')
        if key < 0:
            continue
        start = text.index("[", key)
        added, _ = json.JSONDecoder().raw_decode(text, start)
        tokens[m] = [t["content"] for t in added]
    return tokens


CHAT_TEMPLATES = [
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n{u}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n{a}<|im_end|>\n",
    "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\n\n<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n{u}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n{a}<|eot_id|>",
    "<bos><start_of_turn>user\n{u}<end_of_turn>\n<start_of_turn>model\n{a}<end_of_turn>\n",
    "<\uff5cbegin\u2581of\u2581sentence\uff5c>You are helpful.<\uff5cUser\uff5c>{u}<\uff5cAssistant\uff5c>{a}<\uff5cend\u2581of\u2581sentence\uff5c>",
    "<|start|>system<|message|>You are ChatGPT.\nReasoning: medium<|end|><|start|>user<|message|>{u}<|end|><|start|>assistant<|channel|>final<|message|>{a}<|return|>",
    "<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\n{u} [/INST] {a} </s><s>[INST] again [/INST]",
    "<|fim_prefix|>def f(x):\n    <|fim_suffix|>\n    return y<|fim_middle|>{a}",
    "<tool_call>\n{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"{u}\"}}}}\n</tool_call>",
]

MANGLED = ["<|im_start", "<|im_end|x", "<s", "</s", "</s>", "<s>", "<bos>", "<eos>", "<unk>", "<pad>",
           "<\uff5cbegin\u2581of\u2581sentence\uff5c>", "<|begin\u2581of\u2581sentence|>", "<\uff5cbegin of sentence\uff5c>",
           "<|im_start|", "|im_start|>", "<|IM_START|>", "< |im_end|>", "<||im_end||>", "<|im_end|>>",
           "<<s>>", "<s><s>", "</s></s>", "<|endoftext", "<|endoftext|>", "<|end_of_text|>", "<|eot_id",
           "<start_of_turn", "<end_of_turn>x", "<|start|", "<|message|>", "<|reserved_special_token_0|>",
           "<|reserved_special_token_999|>", "<unused0>", "<unused99999>", "[multimodal]", "<mask>",
           "<\uff5cUser\uff5c>", "<|User|>", "<\uff5cAssistant", "<think>", "</think>", "<tool_call>",
           "<|fim_prefix|>", "<|startoftext|>", "<|return|>", "<|channel|>", "<|constrain|>", "<|call|>",
           "<s >", "< s>", "<S>", "<\uff5c", "\uff5c>", "\u2581", "\u2581\u2581", "<0x41>", "<0xE3>", "<|", "|>", "<", ">"]


def special_token_cases(rng, tokens_by_model):
    cases = []
    all_tokens = []
    for m, toks in sorted(tokens_by_model.items()):
        # Every distinct-looking token, plus a sample of the numbered families (<unused12>, ...).
        numbered = [t for t in toks if re.search(r"\d", t)]
        sample = [t for t in toks if not re.search(r"\d", t)] + rng.sample(numbered, min(30, len(numbered)))
        all_tokens.extend(sample)
        for t in sample:
            cases.append(t)  # alone
    user = ["Hi! What's 2+2?", "Tell me about Zürich.", "\u4F60\u597D\uFF0C\u4E16\u754C", " leading space", "trailing  ",
            "", "\U0001F600 emoji", "Line1\nLine2", "<|im_end|>", "</s>"]
    html = ["<table><tr><td>1</td><td>x</td></tr></table>", "<b>bold</b> and <i>it</i>", "<s>strike</s>",
            "<h1>Title</h1>\n<p>para</p>", "<a href=\"x\">link</a>", "<div><span>a</span></div>", "<code>f()</code>",
            "<img src=x>", "</td >", "<TD>", "<table >", "<br/>"]
    for _ in range(120):
        cases.append("".join(rng.choice(html + ["\n" * rng.randint(1, 35), "\t" * rng.randint(1, 35),
                                                "\u2581" * rng.randint(1, 35), " " * rng.randint(1, 35), "text", " x"])
                             for _ in range(rng.randint(1, 8))))
    for tpl in CHAT_TEMPLATES:
        for _ in range(6):
            cases.append(tpl.format(u=rng.choice(user), a=rng.choice(user)))
    for _ in range(500):
        parts = []
        for _ in range(rng.randint(1, 12)):
            r = rng.randrange(6)
            if r < 2:
                parts.append(rng.choice(all_tokens))
            elif r == 2:
                parts.append(rng.choice(MANGLED))
            elif r == 3:
                t = rng.choice(all_tokens)
                cut = rng.randrange(len(t) + 1)
                parts.append(rng.choice([t[:cut], t[cut:], t[:cut] + t[cut + 1:], t[:cut] + "x" + t[cut:], t.upper()]))
            else:
                parts.append(rng.choice(["Hello", " world", "abc", "\n", " ", "  ", "\t", "x", ".", "\u4E2D",
                                         "\u2581", "'s", "123", "\u00e9", "\U0001F600", "\r\n"]))
        cases.append("".join(parts))
    return cases


# ----------------------------------------------------------------------------- chunking

def chunk(rng, text, max_bytes=MAX_CASE_BYTES, min_len=1):
    """Cuts text into cases of log-uniform length, sometimes at line ends, sometimes anywhere."""
    cases, i, n = [], 0, len(text)
    while i < n:
        target = int(2 ** rng.uniform(0, 14.3))  # 1 .. ~20000 characters
        end = min(n, i + max(min_len, target))
        if rng.randrange(2) and end < n:
            nl = text.rfind("\n", i + 1, end)
            if nl > i:
                end = nl + 1
        piece = text[i:end]
        while len(piece.encode("utf-8")) > max_bytes:
            piece = piece[: len(piece) * 3 // 4]
        if not piece:
            piece = text[i]
        cases.append(piece)
        i += len(piece)
    return cases


def fill(rng, gen, budget, n_per_call):
    """Calls gen until budget bytes are produced; returns chunked cases."""
    text, size = [], 0
    while size < budget:
        t = gen(rng, n_per_call)
        text.append(t)
        size += len(t.encode("utf-8"))
    return chunk(rng, "".join(text))


# ----------------------------------------------------------------------------- categories

def utf8_size(texts):
    return sum(len(t.encode("utf-8")) for t in texts)


def build(rng_seed, machine):
    """The categories; `machine` receives, per category, the bytes of text found on this machine."""
    rng = random.Random(rng_seed)
    sub = lambda name: random.Random(f"{rng_seed}:{name}")  # independent stream per category
    cats = {}

    # Edge cases: empty, every ASCII character alone, assorted single characters and short strings.
    edge = ["", " ", "  ", "\n", "\t", "\r\n", "a", "A", "'", "'s", "\u2581", "\u2581a", " \u2581",
            "\u00a0", "\u3000", "\ufeff", "\ufffd", "\U0010FFFF", "\x00", "\x7f", "\u0080", "\u00ff",
            "\u0100", "\u0301", "e\u0301", "\u00e9", "\U0001F600", "\U0001F468\u200D\U0001F469\u200D\U0001F467",
            "\u4E2D", "\u0E01", "\u1000", "\u0627", "\u0915\u094D\u0937", "\u05D0", "\u03B1", "1", "12",
            "123", "1234", "12345", "Hello", "Hello world", " Hello", "Hello ", "hello\n", "\nhello",
            "a b", "a  b", "a\tb", "a\nb", "a\r\nb", "a\n\nb", "!", "!!", "...", "\u2026", "<", ">", "<>",
            "<s>", "</s>", "<unk>", "<bos>", "<|endoftext|>", "  \n  ", "\n \n", "$", "\\", "\"", "{}"]
    edge += [chr(c) for c in range(128)]
    edge += [chr(c) for c in range(0x80, 0x100)]
    r = sub("edge")
    edge += ["".join(random_codepoint(r) for _ in range(r.randint(1, 4))) for _ in range(200)]
    cats["edge"] = edge

    # Man pages.
    dirs = man_dirs()
    for lang, ds in sorted(dirs.items()):
        r = sub("man_" + lang)
        budget = 100_000 if lang == "en" else 16_000
        pieces = man_text(ds, budget, r)
        if pieces:
            cats["man_" + lang.lower()] = chunk(r, "".join(pieces))
            machine["man_" + lang.lower()] = utf8_size(pieces)

    # Scripts: real sentences from gettext catalogs plus generated text.
    script_sets = {
        "thai": (["th"], gen_thai, 60),
        "burmese": (["my"], gen_burmese, 60),
        "arabic": (["ar", "fa", "ur", "ckb", "ug"], gen_arabic, 60),
        "devanagari": (["hi", "mr", "ne", "mai", "kok"], gen_devanagari, 60),
        "hebrew": (["he", "yi"], gen_hebrew, 60),
        "greek": (["el"], gen_greek, 60),
        "cjk": (["ja", "zh_CN", "zh_TW", "ko"], gen_cjk, 200),
        "scripts_misc": (["ka", "hy", "am", "km", "lo", "ta", "te", "kn", "ml", "bn", "gu", "pa", "si", "dz",
                          "chr", "iu", "ti", "dv", "mn", "vi", "tr", "uk", "be", "kk"], gen_misc_scripts, 80),
    }
    for name, (langs, gen, n) in script_sets.items():
        r = sub(name)
        real = catalog_text(langs, 40_000, r)
        machine[name] = utf8_size(real)
        cases = []
        # Catalog strings: some alone (short cases), the rest joined into longer texts.
        cases += real[:150]
        cases += chunk(r, "\n".join(real[150:]))
        cases += fill(r, gen, 20_000, n)
        cats[name] = cases

    # Code.
    r = sub("code_cpp")
    cpp = source_files(["/usr/include/c++", "/usr/include"], {".h", ".hpp", ".tcc", ""}, 100_000, r)
    cats["code_cpp"] = chunk(r, "".join(cpp))
    machine["code_cpp"] = utf8_size(cpp)
    r = sub("code_python")
    py = sorted(Path("/usr/lib").glob("python3*"))
    python = source_files([str(p) for p in py], {".py"}, 100_000, r)
    cats["code_python"] = chunk(r, "".join(python))
    machine["code_python"] = utf8_size(python)
    r = sub("json")
    json_roots = ["/usr/share/doc/nodejs"] + [str(p) for p in sorted(Path("/usr/share").glob("cmake*"))]
    js = source_files(json_roots, {".json"}, 30_000, r, max_file=6000)
    machine["json"] = utf8_size(js)
    gen_json = []
    for _ in range(300):
        v = json_value(r)
        gen_json.append(json.dumps(v, ensure_ascii=r.randrange(2) == 0, indent=r.choice([None, 2, 4, "\t"])))
    cats["json"] = chunk(r, "".join(js)) + gen_json
    refuse_if_missing(cats, machine)

    # Generated categories.
    r = sub("emoji")
    cats["emoji"] = [gen_emoji_token(r) for _ in range(200)] + fill(r, gen_emoji_text, 40_000, 80)
    r = sub("combining")
    cats["combining"] = [gen_combining(r, 1) for _ in range(300)] + fill(r, gen_combining, 30_000, 100)
    r = sub("whitespace")
    cats["whitespace"] = ([w for w in WHITESPACE] + [ws_run(r) for _ in range(200)]
                          + [gen_whitespace(r, r.randint(1, 6)) for _ in range(300)]
                          + fill(r, gen_whitespace, 30_000, 200))
    r = sub("numbers")
    cats["numbers"] = [gen_number(r) for _ in range(300)] + fill(r, gen_numbers, 30_000, 150)
    r = sub("contractions")
    cats["contractions"] = [gen_contractions(r, r.randint(1, 3)) for _ in range(300)] + fill(r, gen_contractions, 30_000, 150)
    r = sub("special_tokens")
    cats["special_tokens"] = special_token_cases(r, model_special_tokens())
    r = sub("random_codepoints")
    cats["random_codepoints"] = ([random_codepoint(r) for _ in range(400)]
                                 + [gen_random_codepoints(r, int(2 ** r.uniform(1, 12))) for _ in range(120)])

    cats["fuzz"] = gen_fuzz_cases(sub("fuzz"), 5000)

    # Every code point in context, and NFC compositions.
    cats["codepoint_sweep"] = gen_codepoint_sweep(sub("codepoint_sweep"))
    cats["composition"] = gen_composition_cases(sub("composition"))

    # Very long words and runs.
    r = sub("long")
    letters = "abcdefghijklmnopqrstuvwxyz"
    cats["long"] = [
        "".join(r.choice(letters) for _ in range(10_000)),
        "a" * 10_000,
        "".join(r.choice(letters + letters.upper()) for _ in range(10_000)),
        digits(r, 0x30, 10_000),
        " " * 10_000,
        "\t" * 10_000,
        "\n" * 10_000,
        "\r\n" * 5_000,
        "\u2581" * 5_000,
        "\u4E2D" * 6_000,
        rchars(r, 0x4E00, 0x9FA5, 6_000),
        "\U0001F600" * 4_000,
        "!" * 10_000,
        "'" * 10_000,
        "".join(r.choice("\u0430\u0431\u0432\u0433\u0434\u0435") for _ in range(8_000)),
        "ab" * 5_000,
        "x" + " " * 10_000 + "y",
        "word " * 2_000,
        "<s>" * 3_000,
        "<|endoftext|>" * 1_000,
        digits(r, 0x0660, 8_000),
        "e\u0301" * 4_000,
        "".join(r.choice(letters) for _ in range(5_000)) + digits(r, 0x30, 5_000),
    ]

    # Everything mixed together.
    r = sub("mixed")
    pool = [c for name, cs in cats.items() if name not in ("long", "codepoint_sweep", "composition", "fuzz") for c in cs if 0 < len(c) < 400]
    mixed = []
    for _ in range(400):
        mixed.append("".join(r.choice(pool) + r.choice(["", " ", "\n", ws_run(r, 3)])
                             for _ in range(r.randint(2, 25))))
    cats["mixed"] = mixed
    return cats


def build_bench(rng_seed, target_bytes=3_000_000):
    """Realistic mix: mostly English prose and code, some multilingual text."""
    r = random.Random(f"{rng_seed}:bench")
    prose = source_files(["/usr/share/doc/nodejs/api"], {".md"}, int(target_bytes * 0.35), r, max_file=40_000)
    prose += man_text(man_dirs().get("en", []), int(target_bytes * 0.15), r)
    prose += source_files(["/usr/share/common-licenses"], {""}, int(target_bytes * 0.05), r, max_file=40_000)
    code = source_files(["/usr/include/c++", "/usr/include"], {".h", ".hpp", ".tcc", ""}, int(target_bytes * 0.15), r,
                        max_file=30_000)
    code += source_files([str(p) for p in sorted(Path("/usr/lib").glob("python3*"))], {".py"},
                         int(target_bytes * 0.15), r, max_file=30_000)
    multi = []
    for lang, ds in sorted(man_dirs().items()):
        if lang != "en":
            multi += man_text(ds, int(target_bytes * 0.1) // 30, r)
    multi += catalog_text(["ja", "zh_CN", "ko", "ru", "ar", "hi", "th", "el", "he"], int(target_bytes * 0.05), r)
    docs = prose + code + multi
    r.shuffle(docs)
    return "\n\n".join(d.strip("\n") for d in docs) + "\n"


def build_bench2(rng_seed, target_bytes=1_800_000):
    """A second mix, from other sources than bench.txt: JavaScript and Perl code, JSON, translated
    man pages and message catalogs (CJK, Thai, Arabic, Hindi, Burmese, Cyrillic), emoji-heavy
    chat. Speed claims are checked on both (scripts/bench_compare.sh)."""
    r = random.Random(f"{rng_seed}:bench2")
    code = source_files(["/usr/share/nodejs", "/usr/lib/node_modules"], {".js", ".mjs"}, int(target_bytes * 0.2), r,
                        max_file=20_000)
    code += source_files(["/usr/share/perl5", "/usr/share/perl"], {".pm"}, int(target_bytes * 0.1), r, max_file=20_000)
    data = source_files(["/usr/share", "/usr/lib/node_modules"], {".json"}, int(target_bytes * 0.15), r, max_file=20_000)
    langs = sorted(l for l in man_dirs() if l != "en")
    multi = []
    for lang in langs:
        multi += man_text(man_dirs()[lang], int(target_bytes * 0.2) // max(1, len(langs)), r)
    multi += catalog_text(["ja", "zh_CN", "zh_TW", "ko", "th", "ar", "hi", "my", "ru", "uk", "vi", "he", "el"],
                          int(target_bytes * 0.2), r)
    chat = []
    size = 0
    while size < target_bytes * 0.15:  # chat lines: short messages full of emoji, CJK and Thai
        line = rng_chat_line(r)
        chat.append(line)
        size += len(line.encode("utf-8"))
    docs = code + data + multi + ["\n".join(chat[i:i + 40]) for i in range(0, len(chat), 40)]
    r.shuffle(docs)
    return "\n\n".join(d.strip("\n") for d in docs) + "\n"


def rng_chat_line(rng):
    who = rng.choice(["alice", "bob", "小明", "สมชาย", "user42", "María"])
    parts = []
    for _ in range(rng.randint(1, 6)):
        k = rng.randrange(4)
        parts.append(gen_emoji_text(rng, rng.randint(2, 8)) if k == 0 else
                     gen_cjk(rng, rng.randint(4, 20)) if k == 1 else
                     gen_thai(rng, rng.randint(2, 8)) if k == 2 else
                     rng.choice(["ok", "see you soon", "haha", "that's great!!", "brb", "what time?", "lol"]))
    return f"{who}: " + " ".join(p.strip() for p in parts)


# Where the categories that hold this machine's text get it. When one of them finds none, the
# corpus is refused rather than quietly smaller (the tests rely on that text).
CATALOGS = "gettext catalogs in /usr/share/locale/LANG/LC_MESSAGES (a minimized image excludes them; run unminimize)"
REQUIRED = {
    "man_en": "English man pages in /usr/share/man/man* (install man-db and manpages; on a minimized "
              "image, run unminimize)",
    "man_*": "translated man pages in /usr/share/man/LANG (a minimized image excludes them; run unminimize)",
    "code_cpp": "C and C++ headers in /usr/include (install g++)",
    "code_python": "the Python standard library in /usr/lib/python3*",
    "json": "JSON files in /usr/share/doc/nodejs and /usr/share/cmake* (install nodejs and cmake)",
    **{name: CATALOGS for name in ("thai", "burmese", "arabic", "devanagari", "hebrew", "greek", "cjk",
                                   "scripts_misc")},
}


def empty_required(machine):
    """The REQUIRED categories that found no text on this machine, with what provides it."""
    out = []
    for name, provider in REQUIRED.items():
        if name == "man_*":
            found = any(n.startswith("man_") and n != "man_en" and size for n, size in machine.items())
        else:
            found = machine.get(name, 0) > 0
        if not found:
            out.append(f"{name}: {provider}")
    return out


def report(cats, machine, bench_bytes=None):
    """Each category's size (and how much of it is text from this machine), on stderr."""
    lines = [f"{'category':<20} {'cases':>7} {'bytes':>11} {'from this machine':>18}"]
    for name, cases in sorted(cats.items()):
        found = f"{machine[name]:,}" if name in machine else "-"
        lines.append(f"{name:<20} {len(cases):>7,} {utf8_size(cases):>11,} {found:>18}")
    if bench_bytes is not None:
        lines.append(f"{'bench.txt':<20} {'':>7} {bench_bytes:>11,} {bench_bytes:>18,}")
    print("\n".join("make_corpus: " + line for line in lines), file=sys.stderr)


def refuse_if_missing(cats, machine):
    """Exits with status 1, before anything is written, when a REQUIRED category found no text."""
    missing = empty_required(machine)
    if missing:
        report(cats, machine)
        print("make_corpus: FAILED: categories the tests rely on found no text on this machine (nothing written):\n  "
              + "\n  ".join(missing), file=sys.stderr)
        sys.exit(1)


def write_if_changed(path, data):
    path = Path(path)
    if path.is_file() and path.read_bytes() == data:
        return False
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "build" / "corpus"))
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    out = Path(args.out)

    machine = {}
    cats = build(args.seed, machine)
    out.mkdir(parents=True, exist_ok=True)
    bench = build_bench(args.seed).encode("utf-8")
    bench2 = build_bench2(args.seed).encode("utf-8")
    report(cats, machine, len(bench))
    total_cases, total_bytes, changed = 0, 0, []
    for name, cases in sorted(cats.items()):
        lines = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases).encode("utf-8")
        total_cases += len(cases)
        total_bytes += sum(len(c.encode("utf-8")) for c in cases)
        if write_if_changed(out / f"{name}.jsonl", lines):
            changed.append(name)
    # Categories that no longer exist would otherwise linger and be tested forever.
    for stale in sorted(set(p.stem for p in out.glob("*.jsonl")) - set(cats)):
        (out / f"{stale}.jsonl").unlink()
        changed.append(stale + " (removed)")
    # The list of categories, rewritten only when it changes: goldens depend on it, so removing
    # a category regenerates them even though no remaining file changed.
    if write_if_changed(out / "categories.txt", "".join(f"{name}\n" for name in sorted(cats)).encode("utf-8")):
        changed.append("categories.txt")
    if write_if_changed(out / "bench.txt", bench):
        changed.append("bench.txt")
    if write_if_changed(out / "bench2.txt", bench2):
        changed.append("bench2.txt")
    print(f"make_corpus: {len(cats)} categories, {total_cases} cases, {total_bytes / 1e6:.2f} MB of text"
          f"; {'updated: ' + ', '.join(changed) if changed else 'unchanged'}", file=sys.stderr)


if __name__ == "__main__":
    main()
