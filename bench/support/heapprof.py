#!/usr/bin/env python3
"""What a run allocated, from a sampling heap profile with garbage included (ACP_BENCH_PROFILE=DIR
ACP_BENCH_HEAP_PROFILE=1; see bench/support/inHost.ts profiler()).

  python3 bench/support/heapprof.py DIR/io-0-display-terminal.heapprofile [N] [interval=16384]

Prints the estimated bytes allocated per allocating function (each sample scaled by the chance V8
had to sample an object of its size), then the objects over 128 KB (V8's large-object space, old
generation from birth: what brings full collections sooner), grouped by their N innermost frames.
"""
import collections, json, math, sys

path = sys.argv[1]
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 6
interval = int(sys.argv[3]) if len(sys.argv) > 3 else 16384
profile = json.load(open(path))
nodes, parent = {}, {}
def walk(node, up):
    nodes[node['id']] = node
    if up is not None:
        parent[node['id']] = up
    for child in node.get('children', []):
        walk(child, node['id'])
walk(profile['head'], None)

def frame(node_id):
    if node_id not in nodes:
        return '(unknown node)'
    cf = nodes[node_id]['callFrame']
    return f"{cf['functionName'] or '(anon)'} {cf['url'].split('/')[-1]}:{cf['lineNumber'] + 1}"

def stack(node_id, n):
    out, x = [], node_id
    while x in nodes and len(out) < n:
        name = frame(x)
        if not name.startswith('(root)'):
            out.append(name)
        x = parent.get(x)
    return out

weight = lambda size: size / (1 - math.exp(-size / interval))
by_self = collections.Counter()
large = collections.defaultdict(lambda: [0, 0, 0])
total = 0.0
for sample in profile['samples']:
    size, node = sample['size'], sample['nodeId']
    w = weight(size)
    total += w
    by_self[frame(node)] += w
    if size > 128 * 1024:
        key = ' <- '.join(stack(node, depth))
        entry = large[key]
        entry[0] += 1; entry[1] += size; entry[2] = max(entry[2], size)
print(f'estimated allocated: {total / 2**20:.1f} MB in {len(profile["samples"])} samples')
for name, w in by_self.most_common(20):
    print(f'  {w / 2**20:8.1f} MB  {name}')
print('objects over 128 KB (count, MB, largest KB), by stack:')
for key, (count, size, biggest) in sorted(large.items(), key=lambda kv: -kv[1][1]):
    print(f'  {count:4d} {size / 2**20:7.1f} MB {biggest / 1024:7.0f} KB  {key}')
