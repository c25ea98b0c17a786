#!/usr/bin/env python3
"""results.py JSON LOG...: the table of make bench, from the "BENCH section
key=value..." lines of the guest runs (harness/bench/guest-bench.sh) and of
the host's report timing (harness/bench/run). Prints the table and writes
every figure, with its repetitions, to JSON. Exits 1 if a row is missing,
a section mixes clocks or a run's counts are wrong (a probe that missed
calls is shown, not an error).

Each guest line says its clock. On the wall clock (clock=wall) a figure is
a rate or a time, shown as median [min-max] over the repetitions. Under
QEMU -icount (clock=icount) guest nanoseconds are guest instructions, and a
per-call figure is the instructions a probe adds to a call of the target
over the bare loop (case none), shown as mean +-spread, the spread being
(max - min) / mean over the repetitions.
"""
import json
import os
import shlex
import statistics
import sys

PERCALL = [
    ("none", "no probe"),
    ("ftrace", "ftrace_ops hook only"),
    ("fprobe-entry", "fprobe, entry handler"),
    ("fprobe-exit", "fprobe, entry+exit handlers"),
    ("fprobe-mixed", "fprobe entry-only + fprobe entry+exit"),
    ("kprobe", "kprobe"),
    ("kretprobe", "kretprobe"),
    ("fprobe-event", "fprobe event (tracefs)"),
    ("fprobe-event-exit", "fprobe event + %return"),
    ("fprobe-event-fetch", "fprobe event, $arg1 and $comm"),
    ("fprobe-event-exit-perf", "fprobe event + %return, perf samples"),
    ("pmu", "fprobe PMU, a record per call"),
    ("pmu-callchain", "fprobe PMU, a record + kernel callchain"),
    ("pmu-period", "fprobe PMU, a sample per 100 records"),
    ("pmu-count", "fprobe PMU, counting"),
    ("pmu-fetch", "fprobe PMU, an entry record, $arg1 and $comm"),
]
SCALE = ["1", "1000", "10000", "all"]
KERNELS = ("patched", "base")
# figures whose spread over the repetitions is above this are named
SPREAD_NOTE = 0.01
TOOLS = [
    ("none", "workload alone"),
    ("perf-fprobe", "perf fprobe record -a vfs_read"),
    ("perf-record", "perf record -e <fprobe events>"),
    ("perf-ftrace", "perf ftrace -t function_graph"),
]
errors = []
# the kernels without fprobe (6.12 on arm64): their fprobe cases are n/a;
# those which refuse a kprobe on the target (riscv): their kprobe cases
nofprobe = set()
nokprobe = set()


def na(case, k):
    """the text of a case a kernel cannot run, or None if it should have"""
    if case.startswith("pmu") and k == "base":
        return "n/a (no PMU)"
    if case.startswith("fprobe") and k in nofprobe:
        return "n/a (no fprobe)"
    if case in ("kprobe", "kretprobe") and k in nokprobe:
        return "n/a (no kprobe)"
    return None


# The per-call ratios printed under the table: name, (kernel, case) A, B
RATIO_PAIRS = (
    ("fprobe-exit / kretprobe (patched)", ("patched", "fprobe-exit"), ("patched", "kretprobe")),
    ("fprobe-exit / kretprobe (base)", ("base", "fprobe-exit"), ("base", "kretprobe")),
    ("fprobe-entry / kprobe (patched)", ("patched", "fprobe-entry"), ("patched", "kprobe")),
    ("PMU / bare fprobe entry+exit (patched)", ("patched", "pmu"), ("patched", "fprobe-exit")),
    ("PMU / fprobe event + %return (patched)", ("patched", "pmu"), ("patched", "fprobe-event-exit")),
    ("PMU counting / bare fprobe entry+exit (patched)", ("patched", "pmu-count"), ("patched", "fprobe-exit")),
    ("PMU fetch / fprobe event fetch (patched)", ("patched", "pmu-fetch"), ("patched", "fprobe-event-fetch")),
    ("PMU / fprobe event + %return through perf (patched)", ("patched", "pmu"), ("patched", "fprobe-event-exit-perf")),
)

# the keys each section's lines must carry
REQUIRED = {
    "percall": ("kernel", "rep", "case", "calls", "ns"),
    "contexts": ("kernel", "rep", "case", "ctx", "calls", "ns"),
    "scale": ("kernel", "rep", "n", "calls", "ns", "reg_ns", "unreg_ns", "missed"),
    "tool": ("kernel", "rep", "tool", "calls", "ns"),
    "peers": ("kernel", "rep", "tool", "calls", "ns"),
    "everything": ("kernel", "rep", "load", "samples", "lost"),
    "peerlost": ("kernel", "rep", "tool", "lost"),
    "peercount": ("kernel", "rep", "tool", "counted"),
    "exact": ("kernel", "part", "load", "counted", "uncounted"),
    "setup": ("kernel", "rep", "tool", "funcs", "ns"),
    "records": ("kernel", "rep", "tool", "calls", "samples"),
    "report": ("rep", "tool", "ns"),
    "reportmem": ("rep", "output", "calls", "kib"),
}


def parse(paths):
    """the BENCH lines of the logs, as dicts; a guest line with no clock
    (an older log) was on the wall clock"""
    rows = []
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                if not line.startswith("BENCH "):
                    continue
                words = shlex.split(line.strip())
                row = {"section": words[1]}
                for w in words[2:]:
                    k, _, v = w.partition("=")
                    row[k] = v
                missing = [k for k in REQUIRED.get(row["section"], ()) if k not in row]
                if missing:
                    errors.append(f"{path}: a {row['section']} line without "
                                  f"{', '.join(missing)}: {line.strip()}")
                    continue
                if row["section"] in ("percall", "scale", "tool", "setup", "peers"):
                    row.setdefault("clock", "wall")
                rows.append(row)
    return rows


def section_clock(rows, section):
    """the one clock of a section's lines (wall if it has none)"""
    clocks = sorted({r["clock"] for r in rows if r["section"] == section})
    if len(clocks) > 1:
        errors.append(f"the {section} lines mix clocks: {', '.join(clocks)}")
    return clocks[0] if clocks else "wall"


def mean_spread(values):
    """mean, min, max, spread ((max - min) / mean) and relative standard
    deviation of a list of numbers, with the list"""
    m = statistics.fmean(values)
    lo, hi = min(values), max(values)
    rsd = statistics.stdev(values) / abs(m) if len(values) > 1 and m else 0.0
    return {"mean": m, "min": lo, "max": hi,
            "spread": (hi - lo) / abs(m) if m else (0.0 if hi == lo else float("inf")),
            "rsd": rsd, "reps": values}


def fmt_insn(s):
    """mean +-spread% of a mean_spread()"""
    m = s["mean"]
    num = f"{m:.1f}" if abs(m) < 1000 else f"{m:.0f}"
    return f"{num} \u00b1{s['spread'] * 100:.2f}%"


def fmt_mean_ratio(a, b):
    return f"{a['mean'] / b['mean']:.2f}x" if b["mean"] else "n/a"


wide = []


def note_spread(name, s):
    if s["spread"] > SPREAD_NOTE:
        wide.append(f"{name}: {s['spread'] * 100:.2f}%")


def spread(values):
    """median, min, max and the list, of a list of numbers"""
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "reps": values}


def human(v, unit=""):
    if unit == "ns":
        for div, u in ((1e6, "ms"), (1e3, "us")):
            if abs(v) >= div:
                return f"{v / div:.3g}{u}"
        return f"{v:.3g}ns"
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return f"{v / div:.3g}{suf}{unit}"
    return f"{v:.3g}{unit}"


def fmt(s, unit="", scale=1.0):
    """median [min-max]"""
    u = unit if unit == "ns" else ""
    return (f"{human(s['median'] * scale, unit)} "
            f"[{human(s['min'] * scale, u)}-{human(s['max'] * scale, u)}]")


def fmt_ratio(s):
    return f"{s['median']:.2f}x [{s['min']:.2f}-{s['max']:.2f}]"


def select(rows, section, **kw):
    return [r for r in rows if r["section"] == section and
            all(r.get(k) == v for k, v in kw.items())]


def rate(r):
    return int(r["calls"]) * 1e9 / int(r["ns"])


def per_rep(rows, key=rate):
    return {r["rep"]: key(r) for r in rows}


def ratio_reps(a, b):
    """ratios of two {rep: value} maps, rep by rep"""
    reps = sorted(set(a) & set(b))
    return spread([a[r] / b[r] for r in reps]) if reps else None


def check_counts(r, kernel):
    calls, case = int(r["calls"]), r.get("case")
    hits, missed = int(r.get("hits", 0)), int(r.get("missed", 0))
    want = {"ftrace": calls, "fprobe-entry": calls, "kprobe": calls,
            "kretprobe": calls, "fprobe-exit": 2 * calls,
            "fprobe-mixed": 3 * calls}.get(case)
    if want is not None and hits + missed < want:
        errors.append(f"{kernel} {case} rep {r['rep']}: {hits} handler runs "
                      f"and {missed} missed for {calls} calls")
    if case in ("pmu", "pmu-callchain", "pmu-fetch") and int(r["records"]) + int(r["lost"]) != calls:
        errors.append(f"{kernel} {case} rep {r['rep']}: {r['records']} records "
                      f"and {r['lost']} lost for {calls} calls")
    if case == "fprobe-event-exit-perf" and int(r["records"]) + int(r["lost"]) != 2 * calls:
        errors.append(f"{kernel} {case} rep {r['rep']}: {r['records']} records "
                      f"and {r['lost']} lost for {calls} calls, two events")
    if case == "pmu-period" and (int(r["records"]) != calls // 100 or int(r["lost"])):
        errors.append(f"{kernel} pmu-period rep {r['rep']}: {r['records']} samples "
                      f"and {r['lost']} lost for {calls} calls")
    if case == "pmu-count" and (int(r["count"]) != calls or int(r["lost"])):
        errors.append(f"{kernel} pmu-count rep {r['rep']}: count {r['count']} "
                      f"and {r['lost']} lost for {calls} calls")


def percall_wall(rows, res):
    """section 1 on the wall clock: calls/s"""
    print("\n1. Per-call cost of a probed noinline kernel function, called in "
          "a loop (fprobe_bench.ko);\n   normalized: patched/base of each "
          "kernel's calls/s over its own no-probe calls/s")
    hdr = (f"{'case':<32}{'patched calls/s':>26}{'base calls/s':>26}{'patched/base':>22}"
           f"{'normalized':>22}")
    print(hdr)
    rates = {}
    for case, desc in PERCALL:
        line = f"{desc:<32}"
        res["percall"][case] = {}
        for k in ("patched", "base"):
            sel = select(rows, "percall", kernel=k, case=case)
            for r in sel:
                check_counts(r, k)
            rates[(k, case)] = per_rep(sel)
            if sel:
                s = spread([rate(r) for r in sel])
                s["ns_per_call"] = spread([int(r["ns"]) / int(r["calls"]) for r in sel])
                s["missed"] = sum(int(r.get("missed", 0)) for r in sel)
                if case in ("pmu", "pmu-callchain", "pmu-period", "pmu-fetch",
                            "fprobe-event-exit-perf"):
                    s["records"] = sum(int(r["records"]) for r in sel)
                    s["lost"] = sum(int(r["lost"]) for r in sel)
                res["percall"][case][k] = s
                line += f"{fmt(s):>26}"
            elif na(case, k):
                line += f"{na(case, k):>26}"
            else:
                errors.append(f"no per-call result for {case} on {k}")
                line += f"{'missing':>26}"
        rt = ratio_reps(rates[("patched", case)], rates[("base", case)])
        if rt:
            res["ratios"][f"{case} patched/base"] = rt
        line += f"{fmt_ratio(rt) if rt else '':>22}"
        # the same, each kernel's rate taken relative to its own no-probe
        # loop in the same repetition: what the probe costs, less the drift
        # of the machine between the two boots
        norm = {k: {r: v / rates[(k, "none")][r] for r, v in rates[(k, case)].items()
                    if r in rates[(k, "none")]} for k in ("patched", "base")}
        nt = ratio_reps(norm["patched"], norm["base"])
        if nt:
            res["ratios"][f"{case} patched/base normalized"] = nt
        line += f"{fmt_ratio(nt) if nt else '':>22}"
        print(line)
    print("\n   ratios of calls/s, repetition by repetition:")
    for name, a, b in RATIO_PAIRS:
        rt = ratio_reps(rates.get(a, {}), rates.get(b, {}))
        if not rt:
            errors.append(f"no ratio {name}")
            continue
        res["ratios"][name] = rt
        print(f"   {name:<42}{fmt_ratio(rt):>22}")


def scale_wall(rows, res):
    """section 2 on the wall clock: calls/s, register and unregister time"""
    print("\n2. One fprobe (entry+exit) on the target and N-1 other functions: "
          "the target's calls/s, register and unregister time")
    print(f"{'N':<8}{'kernel':<9}{'calls/s':>26}{'register':>26}{'unregister':>26}{'missed':>8}")
    for n in SCALE:
        res["scale"][n] = {}
        for k in ("patched", "base"):
            sel = select(rows, "scale", kernel=k, n=n)
            if not sel:
                errors.append(f"no scale result for N={n} on {k}")
                print(f"{n:<8}{k:<9}{'missing':>26}")
                continue
            s = {"calls_per_s": spread([rate(r) for r in sel]),
                 "register_s": spread([int(r["reg_ns"]) / 1e9 for r in sel]),
                 "unregister_s": spread([int(r["unreg_ns"]) / 1e9 for r in sel]),
                 "missed": sum(int(r["missed"]) for r in sel),
                 "functions": sel[0].get("nsyms") if n != "all" else "all"}
            res["scale"][n][k] = s
            print(f"{n:<8}{k:<9}{fmt(s['calls_per_s']):>26}{fmt(s['register_s'], 's'):>26}"
                  f"{fmt(s['unregister_s'], 's'):>26}{s['missed']:>8}")
        sp = {k: per_rep(select(rows, "scale", kernel=k, n=n)) for k in ("patched", "base")}
        rt = ratio_reps(sp["patched"], sp["base"])
        reg = {k: per_rep(select(rows, "scale", kernel=k, n=n), lambda r: int(r["reg_ns"]))
               for k in ("patched", "base")}
        rr = ratio_reps(reg["base"], reg["patched"])
        if rt and rr:
            res["ratios"][f"scale N={n} calls/s patched/base"] = rt
            res["ratios"][f"scale N={n} register time base/patched"] = rr
            print(f"{'':<8}{'ratio':<9}{fmt_ratio(rt):>26}{'base/patched ' + fmt_ratio(rr):>26}")


def insn_per_call(r):
    """guest instructions per call of a run under icount"""
    return int(r["ns"]) / int(r["calls"])


def percall_icount(rows, res):
    """section 1 under icount: the instructions each probe adds to a call"""
    print("\n1. Per-call cost of a probed noinline kernel function, called in "
          "a loop (fprobe_bench.ko), in guest\n   instructions (QEMU -icount): "
          "instructions/call added over the bare loop, mean \u00b1spread\n"
          "   ((max-min)/mean) over the repetitions; patched/base of the means")
    print(f"{'case (instructions/call added)':<46}{'patched':>20}{'base':>20}"
          f"{'patched/base':>14}")
    bare, added = {}, {}
    for case, desc in PERCALL:
        res["percall"][case] = {}
        line = f"{desc if case != 'none' else 'bare loop (instructions/call)':<46}"
        for k in KERNELS:
            sel = select(rows, "percall", kernel=k, case=case)
            for r in sel:
                check_counts(r, k)
            if not sel:
                if na(case, k):
                    line += f"{na(case, k):>20}"
                else:
                    errors.append(f"no per-call result for {case} on {k}")
                    line += f"{'missing':>20}"
                continue
            ipc = per_rep(sel, insn_per_call)
            if case == "none":
                bare[k] = ipc
            # each run less the bare loop of the same repetition
            add = [v - bare[k][r] for r, v in ipc.items() if r in bare.get(k, {})]
            if len(add) != len(ipc):
                errors.append(f"{case} on {k}: repetitions without a bare loop")
            s = {"instructions_per_call": mean_spread(list(ipc.values())),
                 "added_per_call": mean_spread(add) if add else None,
                 "calls": int(sel[0]["calls"]),
                 "missed": sum(int(r.get("missed", 0)) for r in sel)}
            if case in ("pmu", "pmu-callchain", "pmu-period", "pmu-fetch",
                            "fprobe-event-exit-perf"):
                s["records"] = sum(int(r["records"]) for r in sel)
                s["lost"] = sum(int(r["lost"]) for r in sel)
            res["percall"][case][k] = s
            shown = s["instructions_per_call"] if case == "none" else s["added_per_call"]
            added[(k, case)] = shown
            note_spread(f"{case} on {k}", shown)
            line += f"{fmt_insn(shown):>20}"
        a, b = added.get(("patched", case)), added.get(("base", case))
        if a and b:
            res["ratios"][f"{case} patched/base"] = {"ratio": a["mean"] / b["mean"]}
            line += f"{fmt_mean_ratio(a, b):>14}"
        print(line)
    print("\n   instructions/call added, A / B:")
    for name, a, b in RATIO_PAIRS:
        if a not in added or b not in added:
            if na(a[1], a[0]) or na(b[1], b[0]):
                continue
            errors.append(f"no ratio {name}")
            continue
        res["ratios"][name] = {"ratio": added[a]["mean"] / added[b]["mean"]}
        print(f"   {name:<52}{fmt_mean_ratio(added[a], added[b]):>14}")
    # the two fprobes on one function, against the sum of each alone
    for k in KERNELS:
        parts = [added.get((k, c)) for c in ("fprobe-mixed", "fprobe-entry", "fprobe-exit")]
        if k in nofprobe:
            continue
        if None in parts:
            errors.append(f"no ratio fprobe-mixed / (fprobe-entry + fprobe-exit) on {k}")
            continue
        name = f"fprobe-mixed / (entry + entry+exit alone) ({k})"
        both = {"mean": parts[1]["mean"] + parts[2]["mean"]}
        res["ratios"][name] = {"ratio": parts[0]["mean"] / both["mean"]}
        print(f"   {name:<52}{fmt_mean_ratio(parts[0], both):>14}")
    return bare


CONTEXTS = ("task", "bh", "softirq", "hardirq")
CONTEXT_CASES = ("fprobe-entry", "fprobe-exit", "kprobe", "fprobe-event",
                 "fprobe-event-exit")


def contexts_section(rows, res):
    """section 1b under icount: the instructions each probe adds to a call
    made in each context, for every kernel of the run (in their order)"""
    kernels = list(dict.fromkeys(r["kernel"] for r in rows if r["section"] == "contexts"))
    if not kernels:
        return
    print("\n1b. The cost of section 1 with the calls made in a task, a task with "
          "bottom halves disabled,\n   a softirq (the BH workqueue) and a hard "
          "interrupt (a hard irq_work): instructions/call added\n   over the bare "
          "loop in the same context, mean \u00b1spread")
    print(f"{'case':<20}{'context':<10}" + "".join(f"{k:>20}" for k in kernels))
    res["contexts"] = {}
    for case in CONTEXT_CASES:
        for ctx in CONTEXTS:
            line = f"{case:<20}{ctx:<10}"
            shown = 0
            for k in kernels:
                bare = per_rep(select(rows, "contexts", kernel=k, case="none", ctx=ctx),
                               insn_per_call)
                sel = select(rows, "contexts", kernel=k, case=case, ctx=ctx)
                for r in sel:
                    check_counts(r, k)
                ipc = per_rep(sel, insn_per_call)
                add = [v - bare[r] for r, v in ipc.items() if r in bare]
                if not add:
                    line += f"{'n/a':>20}"
                    continue
                s = mean_spread(add)
                res["contexts"].setdefault(case, {}).setdefault(ctx, {})[k] = s
                note_spread(f"{case} in {ctx} on {k}", s)
                line += f"{fmt_insn(s):>20}"
                shown += 1
            if shown:
                print(line)


def scale_icount(rows, res, bare):
    """section 2 under icount: the instructions added to a call of the
    target, and the guest time of register and unregister"""
    print("\n2. One fprobe (entry+exit) on the target and N-1 other functions, "
          "under QEMU -icount: instructions/call\n   added to the target over "
          "the bare loop; register and unregister in millions of guest ns\n"
          "   (= instructions executed; idle waits, such as for an RCU grace "
          "period, jump to the next timer);\n   mean \u00b1spread; ratio: "
          "patched/base of the means")
    print(f"{'N':<8}{'kernel':<9}{'instructions/call added':>26}{'register (M)':>20}"
          f"{'unregister (M)':>20}{'missed':>9}")
    for n in SCALE:
        res["scale"][n] = {}
        for k in KERNELS:
            sel = select(rows, "scale", kernel=k, n=n)
            if not sel and k in nofprobe:
                print(f"{n:<8}{k:<9}{'n/a (no fprobe)':>26}")
                continue
            if not sel:
                errors.append(f"no scale result for N={n} on {k}")
                print(f"{n:<8}{k:<9}{'missing':>26}")
                continue
            if not bare.get(k):
                errors.append(f"scale N={n} on {k}: no bare loop to subtract")
                continue
            none = statistics.fmean(bare[k].values())
            s = {"added_per_call": mean_spread([insn_per_call(r) - none for r in sel]),
                 "register_mns": mean_spread([int(r["reg_ns"]) / 1e6 for r in sel]),
                 "unregister_mns": mean_spread([int(r["unreg_ns"]) / 1e6 for r in sel]),
                 "calls": int(sel[0]["calls"]),
                 "missed": sum(int(r["missed"]) for r in sel),
                 "functions": sel[0].get("nsyms") if n != "all" else "all"}
            res["scale"][n][k] = s
            for f in ("added_per_call", "register_mns", "unregister_mns"):
                note_spread(f"scale N={n} {f} on {k}", s[f])
            print(f"{n:<8}{k:<9}{fmt_insn(s['added_per_call']):>26}"
                  f"{fmt_insn(s['register_mns']):>20}{fmt_insn(s['unregister_mns']):>20}"
                  f"{s['missed']:>9}")
        p, b = res["scale"][n].get("patched"), res["scale"][n].get("base")
        if p and b:
            line = f"{'':<8}{'ratio':<9}"
            for f, w in (("added_per_call", 26), ("register_mns", 20), ("unregister_mns", 20)):
                res["ratios"][f"scale N={n} {f} patched/base"] = {
                    "ratio": p[f]["mean"] / b[f]["mean"]}
                line += f"{fmt_mean_ratio(p[f], b[f]):>{w}}"
            print(line)

def setup_section(rows, res):
    """the tool's setup of every traceable function, in guest seconds"""
    sel = select(rows, "setup", tool="perf-fprobe-all")
    if not sel:
        errors.append("no result of perf fprobe record -a '*' (setup)")
        return
    clock = section_clock(rows, "setup")
    s = mean_spread([int(r["ns"]) / 1e9 for r in sel])
    s["funcs"] = int(sel[0]["funcs"])
    s["clock"] = clock
    res["setup"] = s
    note_spread("setup perf fprobe -a '*'", s)
    unit = "guest s (G instructions)" if clock == "icount" else "guest s (wall clock)"
    print(f"\n   perf fprobe record -a '*' -- true, start to end (the fprobe PMU on "
          f"{s['funcs']} functions, set up and removed):\n"
          f"   {s['mean']:.2f} {unit} \u00b1{s['spread'] * 100:.2f}%, "
          f"min {s['min']:.2f}, max {s['max']:.2f}")


# the peers, in the order of the table, with what each is
PEERS = (
    ("perf-fprobe", "perf fprobe record -A -a vfs_read (the PMU, kernel callchains)"),
    ("perf-fprobe-none", "perf fprobe record -A --call-graph none -a vfs_read"),
    ("perf-fprobe-tracefs", "perf fprobe record -A --tracefs -a vfs_read"),
    ("perf-fprobe-b", "perf fprobe -b -A -a vfs_read (BPF, by kernel call path)"),
    ("perf-fprobe-b-none", "perf fprobe -b -A --call-graph none -a vfs_read (BPF)"),
    ("perf-ftrace-latency", "perf ftrace latency -a -T vfs_read"),
    ("bpftrace-kfunc", "bpftrace kfunc/kretfunc, @h = hist(latency)"),
    ("bpftrace-kfunc-kstack", "bpftrace kfunc/kretfunc, @h[kstack] = hist(latency)"),
    ("bpftrace-kprobe", "bpftrace kprobe/kretprobe, @h = hist(latency)"),
    ("bpftrace-kprobe-kstack", "bpftrace kprobe/kretprobe, @h[kstack] = hist(latency)"),
)
# what each peer gives, and how its numbers are counted, for the summary
PEER_GIVES = {
    "perf-fprobe": ("each call: arguments, return value, duration, kernel call path",
                    "recorded one by one"),
    "perf-fprobe-none": ("each call: arguments, return value, duration",
                         "recorded one by one"),
    "perf-fprobe-tracefs": ("each call, as an entry and an exit record to pair",
                            "recorded one by one"),
    "perf-fprobe-b": ("count, total, self, max, p99 and a latency histogram per kernel call path",
                      "counted in the kernel"),
    "perf-fprobe-b-none": ("count, total, max, p99 and a latency histogram",
                           "counted in the kernel"),
    "perf-ftrace-latency": ("a latency histogram", "from the function_graph tracer's records"),
    "bpftrace-kfunc": ("a latency histogram", "counted in the kernel"),
    "bpftrace-kfunc-kstack": ("a latency histogram per kernel call path", "counted in the kernel"),
    "bpftrace-kprobe": ("a latency histogram", "counted in the kernel"),
    "bpftrace-kprobe-kstack": ("a latency histogram per kernel call path",
                               "counted in the kernel"),
}
# the targets of perf fprobe against them: A / B at most this
PEER_TARGETS = (
    ("perf-fprobe", "bpftrace-kfunc-kstack", 0.5),
    ("perf-fprobe-none", "bpftrace-kfunc", 1.0),
    ("perf-fprobe-b-none", "bpftrace-kfunc", 0.75),
    ("perf-fprobe-b", "bpftrace-kfunc-kstack", 0.5),
)


def peers_section(rows, res):
    """section 5: the instructions each tool adds to a call of dd bs=1"""
    sel = select(rows, "peers")
    if not sel:
        errors.append("no peers section (section 5)")
        return
    clock = section_clock(rows, "peers")
    unit = "instructions" if clock == "icount" else "ns"
    print(f"\n5. Peers: the {unit} each tool adds to a vfs_read of dd bs=1 while it watches "
          "every call (patched kernel),\n"
          "   everything on CPU 0; (with the tool - alone) / calls, from runs of 20000 and "
          "120000 calls; mean \u00b1spread")
    sizes = sorted({int(r["calls"]) for r in sel})
    if len(sizes) != 2:
        errors.append(f"the peers runs have {len(sizes)} workload sizes, not 2")
        return
    lo, hi = sizes
    per_call = {}
    for t in ("none",) + tuple(p for p, _ in PEERS):
        big = per_rep(select(rows, "peers", tool=t, calls=str(hi)), lambda r: int(r["ns"]))
        small = per_rep(select(rows, "peers", tool=t, calls=str(lo)), lambda r: int(r["ns"]))
        if not big or not small:
            errors.append(f"no peers result for {t}")
            continue
        per_call[t] = {r: (big[r] - small[r]) / (hi - lo) for r in big if r in small}
    if "none" not in per_call:
        return
    alone = mean_spread(list(per_call["none"].values()))
    res["peers"] = {"clock": clock, "calls": hi - lo, "workload": alone}
    print(f"{'tool':<64}{unit + ' added per call':>24}")
    print(f"{'dd alone (its own, per call)':<64}{fmt_insn(alone):>24}")
    added = {}
    for t, desc in PEERS:
        if t not in per_call:
            continue
        added[t] = {r: per_call[t][r] - per_call["none"][r]
                    for r in per_call[t] if r in per_call["none"]}
        s = mean_spread(list(added[t].values()))
        lost = [int(r["lost"]) for r in select(rows, "peerlost", tool=t) if int(r["lost"])]
        counted = [int(r["counted"]) for r in select(rows, "peercount", tool=t)]
        res["peers"][t] = {"desc": desc, "added": s, "lost": lost}
        note = f"  ({sum(lost)} records lost)" if lost else ""
        if counted:
            # perf fprobe -b: every call of the run counted, by repetition
            res["peers"][t]["counted"] = counted
            note = (f"  (counted {'/'.join(f'{c:,}' for c in counted)} calls, "
                    f"{sum(lost)} not counted)")
        print(f"{desc:<64}{fmt_insn(s):>24}{note}")
    print("   A / B of the instructions added:")
    for a, b, target in PEER_TARGETS:
        if a not in added or b not in added:
            continue
        rt = ratio_reps(added[a], added[b])
        of_means = statistics.fmean(added[a].values()) / statistics.fmean(added[b].values())
        met = of_means <= target
        res["ratios"][f"peers {a}/{b}"] = dict(rt, of_means=of_means, target=target, met=met)
        print(f"   {a} / {b}: {of_means:.2f}x, by repetition {fmt_ratio(rt)}")


# perf fprobe record -A -a '*' --duration 2: the share of records lost, at most
EVERYTHING_TARGET = 0.01


def everything_section(rows, res):
    """section 6: the records perf fprobe record -A -a '*' lost"""
    sel = select(rows, "everything")
    if not sel:
        errors.append("no everything section (section 6)")
        return
    print("\n6. Tracing everything: perf fprobe record -A -a '*' --duration 2, default "
          "buffer size,\n   the guest idle, and with dd bs=1 busy on CPU 1")
    res["everything"] = {"target": EVERYTHING_TARGET}
    for load in ("idle", "dd"):
        shares = []
        for r in select(rows, "everything", load=load):
            kept, lost = int(r["samples"]), int(r["lost"])
            share = lost / (kept + lost) if kept + lost else 0.0
            shares.append(share)
            print(f"   {load:<4} repetition {r['rep']}: {kept} records kept, {lost} lost "
                  f"({100 * share:.2f}%)")
        for e in select(rows, "exact", part="everything", load=load):
            res["everything"].setdefault("exact_" + load, []).append(e)
            print(f"   {load:<4} perf fprobe -b -A -a '*' --duration 2: {e['counted']} calls "
                  f"counted in the kernel, {e['uncounted'] or 0} not counted (entered while "
                  "the BPF program or fprobe ran on their CPU: mostly the calls they make)")
        if not shares:
            errors.append(f"no everything result with load={load}")
            continue
        worst = max(shares)
        res["everything"][load] = {"worst": worst, "shares": shares}
        if load == "idle":
            met = worst <= EVERYTHING_TARGET
            res["everything"]["met"] = met
        print(f"   {load}, the most lost: {100 * worst:.2f}%")


def thousands(v):
    """an instruction count as a reader reads it: 1,145; 282.1; 96"""
    if abs(v) >= 999.95:
        return f"{v:,.0f}"
    return f"{v:.1f}".rstrip("0").rstrip(".")


def summary(res):
    """the summary at the top of BENCHMARKS.md, in Markdown: what each tool
    costs per call and what it gives, the cost against the base, and what
    is lost, in words; from the figures of res"""
    out = []
    arch = res["arch"]
    peers = res.get("peers", {})
    if peers:
        out += [f"What each tool adds to a `vfs_read()` while it watches every call "
                f"(`dd bs=1` reading /dev/zero, {arch}, the patched kernel), in guest "
                "instructions, and what it gives:", "",
                "| tool | instructions added per call | gives | numbers | records lost |",
                "|---|---:|---|---|---:|"]
        for t, desc in PEERS:
            if t not in peers:
                continue
            gives, how = PEER_GIVES[t]
            lost = sum(peers[t]["lost"])
            out.append(f"| {desc} | {thousands(peers[t]['added']['mean'])} | {gives} "
                       f"| {how} | {lost:,} |")
        out += ["", f"`dd` alone: {thousands(peers['workload']['mean'])} instructions per "
                "call. perf's sample budget (`kernel.perf_event_max_sample_rate`) is "
                "raised for the recordings, as a user who wants every call does: at the "
                "default, perf throttles a hot function's records (below). perf fprobe -b "
                "runs at the default, and counts every call of the run (for -b, the "
                "last column is the calls the kernel did not count)."]
    pc = res.get("percall", {})
    rows = []
    for case, desc in PERCALL:
        if case == "none" or case not in pc:
            continue
        p, b = pc[case].get("patched"), pc[case].get("base")
        if not p or not p.get("added_per_call"):
            continue
        pm = p["added_per_call"]["mean"]
        if b and b.get("added_per_call"):
            bm = b["added_per_call"]["mean"]
            rows.append(f"| {desc} | {thousands(pm)} | {thousands(bm)} | {pm / bm:.2f}x |")
        else:
            rows.append(f"| {desc} | {thousands(pm)} | {na(case, 'base') or 'missing'} | |")
    if rows:
        out += ["", f"What a probe adds to a call of a kernel function ({arch}, "
                "instructions), this series against the base 6.12:", "",
                "| probe | series | base | series / base |", "|---|---:|---:|---:|"] + rows
    words = []
    big = [r for r in res.get("tool", {}).get("records", [])
           if r.get("rep") == "big" and r.get("tool") == "perf-fprobe"]
    if big:
        calls, kept = int(big[0]["calls"]), int(big[0]["samples"] or 0)
        lost = int(big[0]["lost"] or 0)
        words.append(f"- A hot function at the default settings: `perf fprobe record` of "
                     f"{calls:,} `vfs_read()` calls made as fast as `dd bs=1` makes them "
                     f"kept {kept:,} records and lost {lost:,} "
                     f"({100 * lost / max(calls, 1):.0f}%), counted and reported as lost; "
                     "its counts, sums and histograms are then those of a sample.")
    ex = res.get("tool", {}).get("exact")
    if big and ex:
        words.append(f"- `perf fprobe -b` of the same workload counted {int(ex['counted']):,} "
                     f"calls in the kernel ({int(ex['uncounted'] or 0):,} not counted).")
    ev = res.get("everything", {})
    if "idle" in ev and "dd" in ev:
        words.append(f"- Every kernel function for 2 s (`-A -a '*'`, the sample budget "
                     f"raised): at most {100 * ev['idle']['worst']:.2f}% of the records "
                     f"lost on an idle guest, {100 * ev['dd']['worst']:.2f}% with `dd bs=1` "
                     "busy on the other CPU.")
    if words:
        out += ["", "Losses:", ""] + words
    return "\n".join(out).lstrip("\n") + "\n"


def main():
    out, logs = sys.argv[1], sys.argv[2:]
    rows = parse(logs)
    nofprobe.update(r["kernel"] for r in rows
                    if r["section"] == "info" and r.get("fprobe") == "none")
    nokprobe.update(r["kernel"] for r in rows
                    if r["section"] == "info" and r.get("kprobe") == "none")
    for r in rows:
        if r["section"] == "error":
            errors.append(f"{r.get('kernel')}: {r.get('what')}")
    clock = {sec: section_clock(rows, sec) for sec in ("percall", "scale", "tool")}
    clock["report"] = "wall"
    # the guests' architecture (uname -m), one for the run
    archs = sorted({r.get("arch", "x86_64") for r in rows if r["section"] == "info"
                    and "release" in r})
    if len(archs) != 1:
        errors.append(f"the guest runs are of {len(archs)} architectures: {archs}")
    arch = {"aarch64": "arm64"}.get(archs[0], archs[0]) if archs else "x86_64"
    res = {"arch": arch, "clock": clock,
           "info": [r for r in rows if r["section"] == "info"],
           "percall": {}, "ratios": {}, "scale": {}, "setup": {}, "tool": {},
           "report": {}}
    print(f"make bench ({arch}): patched and base kernel side by side, in one run")
    for sec, desc in (("percall", "1-2"), ("tool", "3")):
        if sec == "tool" and arch != "x86_64":
            continue
        if clock[sec] == "icount":
            print(f"  sections {desc}: guest instructions (QEMU -icount), "
                  "mean \u00b1spread, spread = (max-min)/mean over the repetitions")
        else:
            print(f"  section{'s' if '-' in desc else ''} {desc}: wall clock, "
                  "median [min-max] over the repetitions")
    if arch == "x86_64":
        print("  section 4: wall clock on the host, median [min-max] over the repetitions")
    for i in res["info"]:
        print("  " + " ".join(f"{k}={v}" for k, v in i.items()
                              if k != "section"))

    if clock["percall"] == "icount":
        bare = percall_icount(rows, res)
    else:
        percall_wall(rows, res)
    if clock["percall"] == "icount":
        contexts_section(rows, res)
    if clock["scale"] == "icount":
        scale_icount(rows, res, bare if clock["percall"] == "icount" else {})
    else:
        scale_wall(rows, res)
    if arch == "x86_64":
        setup_section(rows, res)
    if wide:
        print("\n   spread above {:.0f}%: {}".format(SPREAD_NOTE * 100, "; ".join(wide)))

    # 3 and 4, on x86_64 only: the tools run in the x86_64 guest, the
    # report on the host
    if arch != "x86_64":
        print(f"\n   sections 3 and 4 (the tools, the report) run on x86_64 only")
    else:
        # 3. The tool
        print("\n3. dd reading /dev/zero a byte at a time (a vfs_read per byte), "
              "alone and under each tool, on vfs_read (patched kernel);\n"
              "   cost per call: the difference of two workload sizes over the "
              "difference of their calls")
        sizes = sorted({int(r["calls"]) for r in select(rows, "tool") if r["rep"] != "big"})
        if len(sizes) != 2:
            errors.append(f"the tool runs have {len(sizes)} workload sizes, not 2")
            sizes = [1, 1]
        lo, hi = sizes
        print(f"{'tool':<34}{f'{hi} calls':>26}{'slowdown':>22}{'cost per call':>26}")
        tool = {}
        for t, desc in TOOLS:
            big = per_rep([r for r in select(rows, "tool", tool=t, calls=str(hi)) if r["rep"] != "big"],
                          lambda r: int(r["ns"]))
            small = per_rep(select(rows, "tool", tool=t, calls=str(lo)), lambda r: int(r["ns"]))
            if not big or not small:
                errors.append(f"no tool result for {t}")
                print(f"{desc:<34}{'missing':>26}")
                continue
            tool[t] = {"big": big, "per_call": {r: (big[r] - small[r]) / (hi - lo) for r in big if r in small}}
        for t, desc in TOOLS:
            if t not in tool:
                continue
            s = {"calls": hi, "wall_s": spread([v / 1e9 for v in tool[t]["big"].values()]),
                 "ns_per_call": spread(list(tool[t]["per_call"].values()))}
            line = f"{desc:<34}{fmt(s['wall_s'], 's'):>26}"
            if t != "none" and "none" in tool:
                s["slowdown"] = ratio_reps(tool[t]["big"], tool["none"]["big"])
                line += f"{fmt_ratio(s['slowdown']):>22}"
            else:
                line += f"{'1':>22}"
            line += f"{fmt(s['ns_per_call'], 'ns'):>26}"
            res["tool"][t] = s
            print(line)
        for a, b in (("perf-fprobe", "perf-record"), ("perf-fprobe", "perf-ftrace")):
            if a in tool and b in tool and "none" in tool:
                over = {k: {r: tool[k]["per_call"][r] - tool["none"]["per_call"][r]
                            for r in tool[k]["per_call"]} for k in (a, b)}
                rt = ratio_reps(over[a], over[b])
                res["ratios"][f"tool {a}/{b} added cost per call"] = rt
                print(f"   added cost per call, {a} / {b}: {fmt_ratio(rt)}")
        for r in select(rows, "records"):
            calls, samples = int(r["calls"]), int(r["samples"] or 0)
            res["tool"].setdefault("records", []).append(r)
            if r["tool"] == "perf-fprobe":
                # perf fprobe counts its losses: every call of dd is a record
                # or lost (-a also records the other tasks' vfs_read calls)
                if samples + int(r["lost"] or 0) < calls:
                    errors.append(f"perf fprobe rep {r['rep']}: {samples} records and "
                                  f"{r['lost']} lost for {calls} calls")
            elif samples < 2 * calls and not int(r["lost_events"] or 0):
                errors.append(f"perf record rep {r['rep']}: {samples} samples for "
                              f"{calls} calls (entry and exit), none lost")
        lost = [r for r in select(rows, "records", tool="perf-fprobe") if int(r["lost"] or 0)]
        if lost:
            print("   records lost by perf fprobe record: " + ", ".join(
                f"{r['lost']} of {r['calls']} (rep {r['rep']})" for r in lost))
        big = select(rows, "records", rep="big")
        if big:
            r = big[0]
            print(f"   at the default buffer size, perf fprobe record of {r['calls']} calls: "
                  f"{r['samples']} records, {r['lost'] or 0} lost")
            for e in select(rows, "exact", part="tool"):
                # perf fprobe -b: the same workload, counted in the kernel
                res["tool"]["exact"] = e
                print(f"   perf fprobe -b of the same {r['calls']} calls: {e['counted']} "
                      f"counted, {e['uncounted'] or 0} not counted")
                if int(e["counted"] or 0) < int(r["calls"]):
                    errors.append(f"perf fprobe -b counted {e['counted']} of {r['calls']} calls")
        else:
            errors.append("no record count of the large recording")

        # 4. The report
        print("\n4. perf fprobe report vs perf script on the same perf.data (host)")
        info = [r for r in rows if r["section"] == "info" and r.get("kernel") == "host"]
        records = int(info[0]["records"]) if info else 0
        times = {}
        for t in ("fprobe-report", "script"):
            sel = select(rows, "report", tool=t)
            if not sel or not records:
                errors.append(f"no report timing for {t}")
                continue
            times[t] = per_rep(sel, lambda r: int(r["ns"]))
            s = {"seconds": spread([v / 1e9 for v in times[t].values()]),
                 "records_per_s": spread([records * 1e9 / v for v in times[t].values()])}
            res["report"][t] = s
            print(f"   perf {t.replace('-', ' '):<16} {records} records: "
                  f"{fmt(s['seconds'], 's')} min {human(s['seconds']['min'], 's')}, "
                  f"{fmt(s['records_per_s'], ' rec/s')}")
        if len(times) == 2:
            rt = ratio_reps(times["script"], times["fprobe-report"])
            res["ratios"]["report records/s fprobe-report/script"] = rt
            print(f"   records/s, perf fprobe report / perf script: {fmt_ratio(rt)}")

        # the report's memory: what a recording of more calls adds, per call
        for kind, what in (("tree", "the tree (sums)"), ("calls", "--calls (each call)")):
            per = {}
            for r in select(rows, "reportmem", output=kind):
                per.setdefault(r["rep"], []).append((int(r["calls"]), int(r["kib"])))
            vals, one = [], None
            for runs in per.values():
                if len(runs) != 2 or runs[0][0] == runs[1][0]:
                    continue
                (c0, k0), (c1, k1) = sorted(runs)
                vals.append((k1 - k0) * 1024 / (c1 - c0))
                one = one or ((c0, k0), (c1, k1))
            if not vals:
                errors.append(f"no report memory for {kind}")
                continue
            s = {"bytes_per_call": spread(vals), "small": one[0], "large": one[1]}
            res["report"]["memory-" + kind] = s
            print(f"   peak anonymous memory of perf fprobe report, {what}: "
                  f"{one[0][1] / 1024:.1f} MiB for {one[0][0]} calls, "
                  f"{one[1][1] / 1024:.1f} MiB for {one[1][0]}: "
                  f"{fmt(s['bytes_per_call'], ' bytes')} per call more")

        # 5. The peers: under icount only
        if select(rows, "peers") or clock["percall"] == "icount":
            peers_section(rows, res)
            # 6. Tracing everything: in the same boot
            everything_section(rows, res)

    res["errors"] = errors
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    print(f"\nwrote {out}")
    # the summary beside the JSON, for write-benchmarks: from a run that has
    # the peers and the per-call counts (x86_64 under icount), else none
    summ = os.path.join(os.path.dirname(out) or ".", "summary.md")
    if os.path.exists(summ):
        os.remove(summ)
    if res.get("peers") and clock["percall"] == "icount" and res["percall"]:
        with open(summ, "w") as f:
            f.write(summary(res))
        print(f"wrote {summ}")
    if errors:
        print("bench: errors:\n  " + "\n  ".join(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
