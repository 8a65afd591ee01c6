import json, sys, collections
p = json.load(open(sys.argv[1]))
nodes = {n['id']: n for n in p['nodes']}
self_t = collections.Counter()
dt = p['timeDeltas']; samples = p['samples']
for s, d in zip(samples, dt):
    self_t[s] += d
total = sum(self_t.values())
by_fn = collections.Counter(); by_url = collections.Counter()
for nid, t in self_t.items():
    cf = nodes[nid]['callFrame']
    url = cf['url'].split('node_modules/.pnpm/')[-1].split('/node_modules/')[-1] if 'node_modules' in cf['url'] else cf['url'].replace('file:///work/main/','')
    by_fn[(cf['functionName'] or '(anon)') + ' ' + url + ':' + str(cf['lineNumber'])] += t
    pkg = url.split('/')[0] if 'node_modules' in cf['url'] else url
    by_url[pkg] += t
print('total ms', total/1000)
for k, v in by_url.most_common(25): print(f'{v/total*100:5.1f}% {k}')
print('---')
for k, v in by_fn.most_common(40): print(f'{v/total*100:5.1f}% {k}')
