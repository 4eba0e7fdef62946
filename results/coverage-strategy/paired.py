#!/usr/bin/env python3
"""Paired comparison of crawl benchmark runs (issue 25): for each strategy and domain limit, HR
and relevant sites as shares of the oracle's from the same seed, and the per-seed differences
against a baseline (best-first by default), mean +- sample std over the seeds both have.
Usage: paired.py RUNS_FOLDER [BASELINE] -> a Markdown table on stdout."""
import collections, json, os, statistics, sys

folder = sys.argv[1]
baseline = sys.argv[2] if len(sys.argv) > 2 else 'best-first'
runs = collections.defaultdict(dict)  # (strategy, limit) -> run -> result
for name in os.listdir(os.path.join(folder, 'runs')):
    if not name.endswith('.json'):
        continue
    r = json.load(open(os.path.join(folder, 'runs', name)))['result']
    runs[(r['strategy'], r['domainLimit'])][r['run']] = r


def ms(xs, scale=1.0, digits=1):
    if not xs:
        return 'n/a'
    m = statistics.mean(xs) * scale
    s = statistics.stdev(xs) * scale if len(xs) > 1 else 0.0
    return f'{m:.{digits}f} ± {s:.{digits}f}'


print(f'| crawler | limit | seeds | HR % (truth) | relevant sites | HR / oracle % | sites / oracle % | HR − {baseline} (pts) | sites − {baseline} | HR % (judge) |')
print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|')
order = ['oracle', 'best-first', 'coverage', 'tres', 'ache', 'apprentice']
keys = sorted(runs, key=lambda k: (k[1] != 'none', k[1], order.index(k[0]) if k[0] in order else 99, k[0]))
for key in keys:
    strategy, limit = key
    rs = runs[key]
    oracle = runs.get(('oracle', limit), {})
    base = runs.get((baseline, limit), {})
    hr = [r['harvestRate'] for r in rs.values()]
    sites = [r['relevantDomains'] for r in rs.values()]
    judge = [r['classifierHarvestRate'] for r in rs.values()]
    hr_share = [r['harvestRate'] / oracle[i]['harvestRate'] for i, r in rs.items() if i in oracle]
    site_share = [r['relevantDomains'] / oracle[i]['relevantDomains'] for i, r in rs.items() if i in oracle]
    d_hr = [r['harvestRate'] - base[i]['harvestRate'] for i, r in rs.items() if i in base]
    d_sites = [r['relevantDomains'] - base[i]['relevantDomains'] for i, r in rs.items() if i in base]
    same = strategy == baseline
    print(f"| {strategy} | {limit} | {len(rs)} | {ms(hr, 100)} | {ms(sites)} | {ms(hr_share, 100)} | {ms(site_share, 100)} | {'—' if same else ms(d_hr, 100)} | {'—' if same else ms(d_sites)} | {ms(judge, 100)} |")
