"""The Jinja2 environment Hugging Face transformers renders chat templates in (apply_chat_template).

Mirrors transformers' _compile_jinja_template: an ImmutableSandboxedEnvironment with trim_blocks,
lstrip_blocks, loop controls and the {% generation %} block, plus its tojson filter and the
raise_exception / strftime_now globals. Run with /usr/bin/python3 (Debian's python3-jinja2).
strftime_now formats PINNED_NOW, not the clock, so goldens do not depend on the day they were
made; the C++ tests pin the same time (tests/support/pinned_now.hpp) and check the goldens'
meta line names it.
"""
import json
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

PINNED_NOW = datetime(2026, 1, 15, 10, 30, 0)  # a Thursday


class AssistantTracker(Extension):
    # {% generation %}...{% endgeneration %} renders as its body (inside a call block, as transformers does).
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    @jinja2.pass_eval_context
    def _generation_support(self, context, caller):
        return caller()


def make_environment(now=PINNED_NOW):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return now.strftime(format)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def compile_template(source):
    return make_environment().from_string(source)
