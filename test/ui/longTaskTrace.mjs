#!/usr/bin/env node
// @ts-check
// Attributes the long tasks of a Chromium performance trace (test/ui/streaming.test.mjs writes one
// with ACP_UI_TRACE=<file.json>): for each renderer main-thread task over the bar, which frame it
// ran for, the time in script (by function, from the JS samples), style, layout (how many objects),
// paint and GC.
//
//   node test/ui/longTaskTrace.mjs <trace.json> [barMs=50 | 16cpu] [topFunctions=8]
import { readFileSync } from 'node:fs';

/**
 * Lines that attribute the renderer main-thread tasks of a trace over `barMs` (of wall time, or of
 * CPU time with `byCpu`), and a summary of the busiest tasks by CPU.
 * @param {any} raw the parsed trace (an array of events, or `{ traceEvents }`)
 * @param {{ barMs?: number, byCpu?: boolean, top?: number }} [options]
 * @returns {string[]}
 */
export function attributeLongTasks(raw, { barMs = 50, byCpu = false, top = 8 } = {}) {
  const out = [];
  const bar = barMs * 1000;
  /** @type {any[]} */
  const events = Array.isArray(raw) ? raw : raw.traceEvents;

  /** Renderer main threads: `${pid}:${tid}`. */
  const mainThreads = new Set();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') mainThreads.add(`${e.pid}:${e.tid}`);
  const key = (/** @type {any} */ e) => `${e.pid}:${e.tid}`;

  /** Frame id → URL (the last committed). */
  const frameUrl = new Map();
  for (const e of events) {
    const data = e.args?.data;
    for (const f of data?.frames ?? []) if (f.frame && f.url) frameUrl.set(f.frame, f.url);
    if (data?.frame && data?.url && /FrameCommitted|CommitLoad|NavigationStart/.test(e.name)) frameUrl.set(data.frame, data.url);
  }
  const shortUrl = (/** @type {string | undefined} */ url) => {
    if (!url) return '?';
    if (url.includes('fake.html') || url.includes('index.html?id=')) return url.includes('fake.html') ? 'chat webview' : 'webview host';
    if (url.includes('workbench')) return 'workbench';
    return url.split('?')[0]?.split('/').slice(-2).join('/') ?? url;
  };

  /** Per thread, its complete events sorted by start (B/E pairs are rare in these categories and ignored). */
  /** @type {Map<string, any[]>} */
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !mainThreads.has(key(e))) continue;
    let list = byThread.get(key(e));
    if (!list) byThread.set(key(e), (list = []));
    list.push(e);
  }
  for (const list of byThread.values()) list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);

  // JS samples: the V8 CPU profile arrives as Profile / ProfileChunk events per thread.
  /** @typedef {{ nodes: Map<number, any>, samples: { ts: number, node: number }[], pid: number, tid: number, time: number }} Profile */
  /** @type {Map<string, Profile>} */
  const profiles = new Map();
  for (const e of events) {
    if (e.name !== 'Profile' && e.name !== 'ProfileChunk') continue;
    const id = `${e.pid}:${e.id}`;
    /** @type {Profile} */
    const p = profiles.get(id) ?? { nodes: new Map(), samples: [], tid: e.tid, pid: e.pid, time: 0 };
    profiles.set(id, p);
    const data = e.args?.data ?? {};
    if (e.name === 'Profile') p.time = data.startTime ?? e.ts;
    for (const node of data.cpuProfile?.nodes ?? []) p.nodes.set(node.id, node);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      p.time += deltas[i] ?? 0;
      p.samples.push({ ts: p.time, node: samples[i] });
    }
  }
  /** Function name of a sample's leaf and the first frame of our own code (chat.js) on its stack. */
  function describeSample(/** @type {{ nodes: Map<number, any> }} */ profile, /** @type {number} */ nodeId) {
    const leaf = profile.nodes.get(nodeId);
    const name = (/** @type {any} */ n) => `${n.callFrame.functionName || '(anonymous)'}${n.callFrame.url ? `@${String(n.callFrame.url).split('/').pop()}:${n.callFrame.lineNumber + 1}` : ''}`;
    let ours;
    for (let n = leaf; n; n = n.parent !== undefined ? profile.nodes.get(n.parent) : undefined) {
      if (!ours && String(n.callFrame?.url ?? '').includes('chat.js')) ours = name(n);
    }
    return { leaf: leaf ? name(leaf) : '?', ours };
  }
  // Parents: ProfileChunk nodes name their parent.
  for (const p of profiles.values()) {
    for (const node of p.nodes.values()) for (const child of node.children ?? []) { const c = p.nodes.get(child); if (c) c.parent = node.id; }
  }

  const GROUPS = /** @type {const} */ ({
    script: /^(FunctionCall|EvaluateScript|V8\.Execute|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|v8\.run|v8\.callFunction|HandlePostMessage)$/,
    style: /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)$/,
    layout: /^(Layout|UpdateLayerTree|IntersectionObserverController::computeIntersections|ComputeIntersections)$/,
    paint: /^(Paint|PrePaint|Layerize|PaintImage|CompositeLayers|Commit|RasterTask)$/,
    gc: /(GC|Scavenge|MarkCompact|V8\.GC)/,
    parseHTML: /^(ParseHTML|HTMLDocumentParser)/,
  });

  let found = 0;
  for (const [thread, list] of byThread) {
    for (const task of list) {
      if (task.name !== 'RunTask' || (byCpu ? task.tdur ?? 0 : task.dur) < bar) continue;
      found++;
      const end = task.ts + task.dur;
      const inside = list.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
      /** Outermost events of a group (nested ones of the same group are not counted twice). */
      const sums = /** @type {Record<string, number>} */ ({});
      const frames = new Map();
      const layouts = [];
      for (const [group, pattern] of Object.entries(GROUPS)) {
        let coveredUntil = -1;
        for (const e of inside) {
          if (!pattern.test(e.name) || e.ts < coveredUntil) continue;
          coveredUntil = e.ts + e.dur;
          sums[group] = (sums[group] ?? 0) + e.dur;
          const frame = e.args?.data?.frame ?? e.args?.beginData?.frame;
          if (frame && group === 'script') frames.set(frame, (frames.get(frame) ?? 0) + e.dur);
          if (e.name === 'Layout') layouts.push(`${(e.dur / 1000).toFixed(1)}ms ${e.args?.beginData?.dirtyObjects ?? '?'}/${e.args?.beginData?.totalObjects ?? '?'} objects${e.args?.beginData?.stackTrace?.[0] ? ` forced by ${e.args.beginData.stackTrace[0].functionName}` : ''} in ${shortUrl(frameUrl.get(e.args?.beginData?.frame))}`);
          if (e.name === 'UpdateLayoutTree' && e.dur > 2000) layouts.push(`style ${(e.dur / 1000).toFixed(1)}ms ${e.args?.elementCount ?? '?'} elements`);
        }
      }
      const functions = new Map();
      const ourFunctions = new Map();
      let sampled = 0;
      for (const p of profiles.values()) {
        if (`${p.pid}:${p.tid}` !== thread) continue;
        for (const s of p.samples) {
          if (s.ts < task.ts || s.ts > end) continue;
          const { leaf, ours } = describeSample(p, s.node);
          if (leaf.startsWith('(idle)')) continue;
          sampled++;
          functions.set(leaf, (functions.get(leaf) ?? 0) + 1);
          if (ours) ourFunctions.set(ours, (ourFunctions.get(ours) ?? 0) + 1);
        }
      }
      const rank = (/** @type {Map<string, number>} */ m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([n, c]) => `${n} ${Math.round((100 * c) / Math.max(1, sampled))}%`).join(', ');
      const ms = (/** @type {number | undefined} */ us) => ((us ?? 0) / 1000).toFixed(1);
      out.push(`long task ${ms(task.dur)} ms (thread CPU ${ms(task.tdur)} ms) at ${ms(task.ts)} ms (renderer ${thread}); frames: ${[...frames].map(([f, d]) => `${shortUrl(frameUrl.get(f))} ${ms(d)}`).join(', ') || '?'}`);
      out.push(`  script ${ms(sums.script)}  style ${ms(sums.style)}  layout ${ms(sums.layout)}  paint ${ms(sums.paint)}  gc ${ms(sums.gc)}  parseHTML ${ms(sums.parseHTML)}`);
      if (layouts.length) out.push(`  ${layouts.slice(0, 6).join('\n  ')}`);
      if (sampled) out.push(`  samples (${sampled}): ${rank(functions)}`);
      if (ourFunctions.size) out.push(`  in chat.js: ${rank(ourFunctions)}`);
    }
  }
  out.push(`${found} renderer task(s) over ${bar / 1000} ms`);

  // The renderer's busiest tasks by the CPU they used (a long task's wall time includes the time the
  // thread waited for a CPU on a loaded machine), and the time spent collecting garbage.
  for (const [thread, list] of byThread) {
    const tasks = list.filter((e) => e.name === 'RunTask' && e.tdur !== undefined).sort((a, b) => b.tdur - a.tdur);
    let gc = 0;
    let coveredUntil = -1;
    for (const e of list) {
      if (!GROUPS.gc.test(e.name) || e.ts < coveredUntil) continue;
      coveredUntil = e.ts + e.dur;
      gc += e.dur;
    }
    const fmt = (/** @type {any} */ t) => `${(t.tdur / 1000).toFixed(1)} CPU/${(t.dur / 1000).toFixed(1)} wall`;
    out.push(`renderer ${thread}: ${tasks.length} tasks; by CPU: ${tasks.slice(0, 6).map(fmt).join(', ')}; over 16 ms CPU: ${tasks.filter((t) => t.tdur > 16_000).length}; GC ${(gc / 1000).toFixed(0)} ms`);
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const [file, barArg = '50', topArg = '8'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node test/ui/longTaskTrace.mjs <trace.json> [barMs=50 | 16cpu] [topFunctions=8]');
    process.exit(2);
  }
  // `16cpu`: tasks that used more than 16 ms of CPU, whatever their wall time.
  const lines = attributeLongTasks(JSON.parse(readFileSync(file, 'utf8')), { barMs: Number.parseFloat(barArg), byCpu: barArg.endsWith('cpu'), top: Number(topArg) });
  console.log(lines.join('\n'));
}
