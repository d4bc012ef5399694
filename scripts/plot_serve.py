#!/usr/bin/python3
"""Draws scripts/bench_serve.sh's serve.json as PNGs (Debian's python3-matplotlib):

  serve_capacity_latency.png   TTFT and added inter-chunk delay distributions at each concurrency
  serve_capacity_throughput.png  delivered tokens/s and server CPU per 1,000 tokens against concurrency
  serve_peer.png               textedge serve beside llama-server's own frontend: TTFT distributions,
                               throughput, CPU, and the prompt path

usage: /usr/bin/python3 scripts/plot_serve.py [SERVE_JSON (build/bench/serve.json)] [OUT_DIR (docs/images)]
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter  # noqa: E402

src = sys.argv[1] if len(sys.argv) > 1 else "build/bench/serve.json"
out_dir = sys.argv[2] if len(sys.argv) > 2 else "docs/images"
os.makedirs(out_dir, exist_ok=True)
data = json.load(open(src))
meta = data["meta"]
stamp = f"{meta['date'][:16].replace('T', ' ')} UTC, {meta['commit']}, {meta['cores']} shared cores"
plt.rcParams.update({"font.size": 9, "axes.grid": True, "grid.alpha": 0.3, "figure.dpi": 110})
written = []


def nines(p):
    """Percentile -> position on a 'nines' axis: 0 -> 0, 90 -> 1, 99 -> 2, 99.9 -> 3."""
    import math
    return -math.log10(max(1e-4, 1 - p / 100.0))


NINES_TICKS = [0, 50, 90, 99, 99.9, 99.99]


def nines_axis(ax):
    ax.xaxis.set_major_locator(FixedLocator([nines(p) for p in NINES_TICKS]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: {round(nines(p), 6): f"p{p:g}" for p in NINES_TICKS}.get(round(x, 6), "")))
    ax.set_xlim(0, nines(99.99) + 0.05)


def quantile_line(ax, summary, **kw):
    qs = summary.get("quantiles") or []
    if not qs:
        return
    xs = [nines(p) for p, _ in qs]
    ys = [v for _, v in qs]
    ax.plot(xs, ys, **kw)


def save(fig, name):
    path = os.path.join(out_dir, name)
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    written.append(path)


cap = sorted(data.get("capacity", []), key=lambda r: r["concurrency"])
if cap:
    flags = list(dict.fromkeys(r.get("threads_flag", "default") for r in cap))
    styles = {f: ls for f, ls in zip(flags, ["-", "--", ":", "-."])}
    levels = sorted({r["concurrency"] for r in cap})
    colors = dict(zip(levels, plt.cm.viridis([i / max(1, len(levels) - 1) * 0.85 for i in range(len(levels))])))

    def config(r):
        return f"{r['server_threads']} thread{'s' if r['server_threads'] != 1 else ''}" + (" (default)" if r.get("threads_flag") == "default" else "")

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.4))
    for r in cap:
        d = r["load"]
        kw = dict(color=colors[r["concurrency"]], ls=styles[r.get("threads_flag", "default")], marker=".", ms=3,
                  label=f"{r['concurrency']} clients, {config(r)}")
        quantile_line(a1, d["ttft_ms"], **kw)
        quantile_line(a2, d["added_delay_ms"], **kw)
    nominal = 1000.0 / meta["rate"]
    a1.axhline(nominal, color="grey", ls=":", lw=1)
    a1.text(nines(99.99), nominal, f"first token due at {nominal:g} ms ", va="top", ha="right", color="grey", fontsize=8)
    a1.set_title("time to first token")
    a1.set_ylabel("ms")
    a1.set_yscale("log")
    top = max(v for r in cap for _, v in r["load"]["ttft_ms"].get("quantiles", [[0, 1]]))
    ticks = [t for t in (10, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000, 10000) if t <= top * 1.5]
    a1.yaxis.set_major_locator(FixedLocator(ticks))
    a1.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    a1.yaxis.set_minor_formatter(FuncFormatter(lambda y, _: ""))
    a2.axhline(1.0, color="red", ls="--", lw=1)
    a2.text(0.05, 1.0, " goal: p99 < 1 ms", va="bottom", color="red", fontsize=8)
    a2.set_title(f"added inter-chunk delay (gap between content chunks - {nominal:g} ms)")
    a2.set_ylabel("ms")
    a2.set_yscale("symlog", linthresh=0.1)
    for a in (a1, a2):
        nines_axis(a)
        a.set_xlabel("percentile")
    h, l = a2.get_legend_handles_labels()
    fig.legend(h, l, fontsize=7, ncol=len(levels), loc="lower center", bbox_to_anchor=(0.5, -0.08))
    fig.suptitle(f"textedge serve over the scripted engine: {meta['answer_tokens']}-token answers at {meta['rate']} tokens/s "
                 f"per stream, load generator on the same machine ({stamp})", fontsize=9)
    save(fig, "serve_capacity_latency.png")

    fig, a1 = plt.subplots(figsize=(7.5, 4.2))
    a2 = a1.twinx()
    a1.plot(levels, [c * meta["rate"] for c in levels], color="grey", ls=":", label="offered (clients x rate)")
    for f in flags:
        rs = [r for r in cap if r.get("threads_flag", "default") == f]
        xs = [r["concurrency"] for r in rs]
        a1.plot(xs, [r["load"]["tokens_per_s"] for r in rs], color="C0", ls=styles[f], marker="o",
                label=f"delivered (usage / wall), {config(rs[0])}")
        a2.plot(xs, [1000 * (r["server_cpu_per_1k_tokens_s"] or 0) for r in rs], color="C3", ls=styles[f], marker="s",
                label=f"server ms / 1,000 tokens, {config(rs[0])}")
        if f == flags[0]:
            for x, r in zip(xs, rs):
                a1.annotate(f"{r['load']['tokens_per_s']:.0f}", (x, r["load"]["tokens_per_s"]), textcoords="offset points",
                            xytext=(-6, 6), ha="right", fontsize=7, color="C0")
    a1.set_xscale("log")
    a1.set_yscale("log")
    a1.set_xlabel("concurrent streaming clients")
    a1.set_ylabel("tokens/s")
    a2.set_ylabel("server CPU ms per 1,000 tokens", color="C3")
    a2.grid(False)
    a2.set_ylim(bottom=0)
    a1.legend(fontsize=7, loc="upper left", title="tokens/s (left axis)", title_fontsize=7)
    a2.legend(fontsize=7, loc="lower right", title="CPU (right axis)", title_fontsize=7)
    a1.set_title(f"textedge serve capacity (scripted engine, {meta['rate']} tokens/s per stream)\n{stamp}", fontsize=9)
    save(fig, "serve_capacity_throughput.png")

peer = data.get("peer", {}).get("runs", [])
prompt = data.get("prompt", {})
if peer:
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    (a1, a0), (a2, a3) = axes
    pstyles = {"direct": ("C1", "llama-server's /v1/chat/completions"), "textedge": ("C0", "through textedge serve")}
    for ax, runs in ((a1, peer), (a0, data["peer"].get("ttft_one_client", []))):
        for r in runs:
            color, label = pstyles[r["path"]]
            quantile_line(ax, r["load"]["ttft_ms"], color=color, alpha=0.8, marker=".", ms=2, lw=1,
                          label=label if r["round"] == 1 else None)
        nines_axis(ax)
        ax.set_xlabel("percentile (one line per round)")
        ax.set_ylabel("ms")
        ax.legend(fontsize=8, loc="upper left")
    n = peer[0]["load"]["concurrency"]
    a1.set_title(f"time to first token, {n} clients x 128 tokens")
    one = data["peer"].get("ttft_one_client_summary")
    a0.set_title("time to first token, one client, 8-token requests" +
                 (f" (p50: {one['direct_p50_ms']:.1f} direct, {one['textedge_p50_ms']:.1f} ms through textedge)" if one else ""),
                 fontsize=9)
    rounds = sorted({r["round"] for r in peer})
    w = 0.38
    for k, path in enumerate(("direct", "textedge")):
        ys = [next((r["load"]["tokens_per_s"] for r in peer if r["round"] == n and r["path"] == path), 0) for n in rounds]
        xs = [i + (k - 0.5) * w for i in range(len(rounds))]
        a2.bar(xs, ys, w, color=pstyles[path][0], label=pstyles[path][1])
        for x, y in zip(xs, ys):
            a2.text(x, y, f"{y:.0f}", ha="center", va="bottom", fontsize=7)
    a2.set_xticks(range(len(rounds)), [f"round {n}" for n in rounds])
    a2.set_ylabel("delivered tokens/s (usage / wall)")
    ratios = data["peer"]["summary"].get("throughput_ratio_per_round", [])
    a2.set_title("throughput, each round's two runs back to back" +
                 (f"\n(through textedge / direct per round: {', '.join(f'{x:.3f}' for x in ratios)})" if ratios else ""), fontsize=9)
    a2.legend(fontsize=8, loc="lower right")
    s = data["peer"]["summary"]
    names = ["direct", "textedge"]
    llama = [1000 * s[n]["llama_cpu_per_1k_tokens_s"] for n in names]
    te = [1000 * s[n]["textedge_cpu_per_1k_tokens_s"] for n in names]
    a3.bar([0, 1], llama, 0.6, color="C1", label="llama-server process (engine and, direct, its frontend)")
    a3.bar([0, 1], te, 0.6, bottom=llama, color="C0", label="textedge serve process")
    for i in range(2):
        a3.text(i, llama[i] + te[i], f"{llama[i]:.0f} + {te[i]:.0f}", ha="center", va="bottom", fontsize=8)
    a3.set_xticks([0, 1], ["llama-server direct", "through textedge"])
    a3.set_ylabel("CPU ms per 1,000 delivered tokens (median of rounds)")
    a3.set_title("CPU", fontsize=9)
    a3.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"the same streamed chat requests (Qwen3 template, tools, ignore_eos, seed) to one llama-server, direct and "
                 f"through textedge\n{stamp}", fontsize=9)
    fig.tight_layout()
    save(fig, "serve_peer.png")

if prompt.get("summary"):
    s = prompt["summary"]
    fig, a = plt.subplots(figsize=(8, 3))
    runs = prompt["runs"]
    te = [r["load"]["ms"]["p50"] for r in runs if r["flavor"] == "textedge"]
    ll = [r["load"] for r in runs if r["flavor"] == "llamacpp"]
    apply_ms = sorted(r["apply_template_ms"]["p50"] for r in ll)[len(ll) // 2]
    tok_ms = sorted(r["tokenize_ms"]["p50"] for r in ll)[len(ll) // 2]
    a.barh([1], [apply_ms], color="C1", label="/apply-template")
    a.barh([1], [tok_ms], left=[apply_ms], color="C5", label="/tokenize")
    ss = prompt.get("compare", {}).get("textedge_server_side", {})
    if "template_ms_mean" in ss and "tokenize_ms_mean" in ss:
        t_tpl, t_tok = ss["template_ms_mean"], ss["tokenize_ms_mean"]
        a.barh([0], [t_tpl], color="C2", label="textedge: template (its /metrics)")
        a.barh([0], [t_tok], left=[t_tpl], color="C9", label="textedge: tokenize (its /metrics)")
        a.barh([0], [max(0.0, s["textedge_ms"] - t_tpl - t_tok)], left=[t_tpl + t_tok], color="C0",
               label="textedge: the rest (HTTP, JSON in and out)")
    else:
        a.barh([0], [s["textedge_ms"]], color="C0", label="textedge POST /tokenize (messages)")
    a.text(apply_ms + tok_ms, 1, f" {s['llamacpp_ms']:.1f} ms", va="center", fontsize=8)
    detail = ""
    if "template_ms_mean" in ss and "tokenize_ms_mean" in ss:
        detail = f": template {ss['template_ms_mean']:.2f} + tokenize {ss['tokenize_ms_mean']:.2f} + the rest"
    a.text(s["textedge_ms"], 0, f" {s['textedge_ms']:.2f} ms ({s['speedup']:.0f}x faster){detail}", va="center", fontsize=8)
    a.set_yticks([0, 1], ["textedge serve", "llama-server"])
    a.set_xlabel("ms per request, median (template + tokenize, HTTP round trips included)")
    c = prompt.get("compare", {})
    same = "same ids" if c.get("ids_equal") else f"ids differ ({c.get('textedge_tokens')} vs {c.get('llamacpp_tokens')} tokens)"
    a.set_title(f"prompt path: 100 messages, {s['tokens']} tokens; {same}\n{stamp}", fontsize=9)
    a.set_xlim(0, (apply_ms + tok_ms) * 1.2)
    a.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=3)
    save(fig, "serve_prompt_path.png")

for p in written:
    print(p)
