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
    a1.text(0.05, nominal, f" first token due at {nominal:g} ms", va="bottom", color="grey", fontsize=8)
    a1.set_title("time to first token")
    a1.set_ylabel("ms")
    a1.set_yscale("log")
    a2.axhline(1.0, color="red", ls="--", lw=1)
    a2.text(0.05, 1.0, " goal: p99 < 1 ms", va="bottom", color="red", fontsize=8)
    a2.set_title(f"added inter-chunk delay (gap between content chunks - {nominal:g} ms)")
    a2.set_ylabel("ms")
    a2.set_yscale("symlog", linthresh=0.1)
    for a in (a1, a2):
        nines_axis(a)
        a.set_xlabel("percentile")
    a2.legend(fontsize=7, ncol=2, loc="upper left")
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
                label=f"delivered tokens/s, {config(rs[0])}")
        a2.plot(xs, [1000 * (r["server_cpu_per_1k_tokens_s"] or 0) for r in rs], color="C3", ls=styles[f], marker="s",
                label=f"server CPU ms / 1,000 tokens, {config(rs[0])}")
        for x, r in zip(xs, rs):
            a1.annotate(f"{r['load']['tokens_per_s']:.0f}", (x, r["load"]["tokens_per_s"]), textcoords="offset points",
                        xytext=(4, -12), fontsize=7, color="C0")
    a1.set_xscale("log")
    a1.set_yscale("log")
    a1.set_xlabel("concurrent streaming clients")
    a1.set_ylabel("tokens/s")
    a2.set_ylabel("server CPU ms per 1,000 tokens", color="C3")
    a2.grid(False)
    a2.set_ylim(bottom=0)
    h1, l1 = a1.get_legend_handles_labels()
    h2, l2 = a2.get_legend_handles_labels()
    a1.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper left")
    a1.set_title(f"textedge serve capacity (scripted engine, {meta['rate']} tokens/s per stream)\n{stamp}", fontsize=9)
    save(fig, "serve_capacity_throughput.png")

peer = data.get("peer", {}).get("runs", [])
prompt = data.get("prompt", {})
if peer:
    fig, axes = plt.subplots(1, 4, figsize=(16, 4), gridspec_kw={"width_ratios": [1.3, 1.3, 0.8, 0.8]})
    a1, a0, a2, a3 = axes
    pstyles = {"direct": ("C1", "llama-server /v1/chat/completions"), "textedge": ("C0", "textedge serve -> llama-server /completion")}
    for r in peer:
        color, label = pstyles[r["path"]]
        quantile_line(a1, r["load"]["ttft_ms"], color=color, alpha=0.85, marker=".", ms=3,
                      ls="-" if r["round"] == 1 else "--", label=f"{label}, round {r['round']}")
    for r in data["peer"].get("ttft_one_client", []):
        color, label = pstyles[r["path"]]
        quantile_line(a0, r["load"]["ttft_ms"], color=color, alpha=0.85, marker=".", ms=3,
                      ls="-" if r["round"] == 1 else "--", label=f"{label}, round {r['round']}")
    for a in (a1, a0):
        nines_axis(a)
        a.set_xlabel("percentile")
        a.set_ylabel("ms")
        a.legend(fontsize=6)
    n = peer[0]["load"]["concurrency"]
    a1.set_title(f"time to first token, {n} clients x 128 tokens")
    one = data["peer"].get("ttft_one_client_summary")
    a0.set_title("time to first token, one client, 8-token requests" +
                 (f"\n(p50 added by textedge: {one['added_p50_ms']:+.2f} ms)" if one else ""))
    s = data["peer"]["summary"]
    names = ["direct", "textedge"]
    a2.bar([0, 1], [s[n]["tokens_per_s"] for n in names], color=[pstyles[n][0] for n in names])
    for i, n in enumerate(names):
        a2.text(i, s[n]["tokens_per_s"], f"{s[n]['tokens_per_s']:.0f}", ha="center", va="bottom", fontsize=8)
    a2.set_xticks([0, 1], ["llama-server\ndirect", "through\ntextedge"])
    a2.set_ylabel("delivered tokens/s (median of rounds)")
    a2.set_title("throughput")
    w = 0.38
    llama = [1000 * s[n]["llama_cpu_per_1k_tokens_s"] for n in names]
    te = [1000 * s[n]["textedge_cpu_per_1k_tokens_s"] for n in names]
    a3.bar([0, 1], llama, w * 2, color="C1", label="llama-server process")
    a3.bar([0, 1], te, w * 2, bottom=llama, color="C0", label="textedge process")
    a3.set_xticks([0, 1], ["llama-server\ndirect", "through\ntextedge"])
    a3.set_ylabel("CPU ms per 1,000 delivered tokens")
    a3.set_title("CPU")
    a3.legend(fontsize=8)
    fig.suptitle(f"the same streamed chat requests (Qwen3 template, tools, 128 tokens, ignore_eos) to one llama-server, "
                 f"direct and through textedge ({stamp})", fontsize=9)
    save(fig, "serve_peer.png")

if prompt.get("summary"):
    s = prompt["summary"]
    fig, a = plt.subplots(figsize=(7, 2.6))
    runs = prompt["runs"]
    te = [r["load"]["ms"]["p50"] for r in runs if r["flavor"] == "textedge"]
    ll = [r["load"] for r in runs if r["flavor"] == "llamacpp"]
    apply_ms = sorted(r["apply_template_ms"]["p50"] for r in ll)[len(ll) // 2]
    tok_ms = sorted(r["tokenize_ms"]["p50"] for r in ll)[len(ll) // 2]
    a.barh([1], [apply_ms], color="C1", label="/apply-template")
    a.barh([1], [tok_ms], left=[apply_ms], color="C5", label="/tokenize")
    a.barh([0], [s["textedge_ms"]], color="C0", label="textedge POST /tokenize (messages)")
    a.text(apply_ms + tok_ms, 1, f" {s['llamacpp_ms']:.1f} ms", va="center", fontsize=8)
    a.text(s["textedge_ms"], 0, f" {s['textedge_ms']:.2f} ms ({s['speedup']:.0f}x)", va="center", fontsize=8)
    a.set_yticks([0, 1], ["textedge serve", "llama-server"])
    a.set_xlabel("ms per request, median (template + tokenize, HTTP round trips included)")
    c = prompt.get("compare", {})
    same = "same ids" if c.get("ids_equal") else f"ids differ ({c.get('textedge_tokens')} vs {c.get('llamacpp_tokens')} tokens)"
    a.set_title(f"prompt path: 100 messages, {s['tokens']} tokens; {same}\n{stamp}", fontsize=9)
    a.legend(fontsize=8, loc="lower right")
    a.set_xlim(0, (apply_ms + tok_ms) * 1.25)
    save(fig, "serve_prompt_path.png")

for p in written:
    print(p)
