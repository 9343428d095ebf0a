// SPDX-License-Identifier: GPL-2.0
//
// schedscope's Chrome/Perfetto JSON read by a real consumer: the Chrome
// DevTools trace model (@paulirish/trace_engine from npm, pinned in
// package.json and package-lock.json beside this file, installed into the
// build tree by `make test`).
//
//   node devtools-check.mjs TRACE_ENGINE_DIR FILE.json...
//
// For each file: the model parses it; names its two processes and every
// thread as the metadata events do; holds, on every thread, as many slices
// as the file has complete events there; spans the slices' first ts to the
// last ts + dur, within the run's end (the ts read as microseconds); and links every
// migration arrow whose two ends are at different times (the model keys
// the events of a flow by ts, so an arrow of no length is not one to it).
// Prints one line per file; exits 1 if any check fails.
import fs from 'node:fs';
import path from 'node:path';

const [engineDir, ...files] = process.argv.slice(2);
const {analyzeEvents} = await import(path.resolve(engineDir, 'analyze-trace.mjs'));
let failed = 0;

function check(file) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const events = doc.traceEvents;
  const errors = [];
  const key = e => `${e.pid}/${e.tid}`;
  const slices = new Map(), names = new Map(), procs = new Map(), starts = new Map(), ends = new Map();
  let lo = Infinity, hi = -Infinity;

  for (const e of events) {
    if (e.ph === 'M') {
      if (e.name === 'thread_name')
        names.set(key(e), e.args.name);
      if (e.name === 'process_name')
        procs.set(e.pid, e.args.name);
      continue;
    }
    if (e.ph === 'X') {
      slices.set(key(e), (slices.get(key(e)) || 0) + 1);
      // the model's bounds: its slices (and B, E, I events, which schedscope does not write), ts 0 aside
      if (e.ts !== 0) {
        lo = Math.min(lo, e.ts);
        hi = Math.max(hi, e.ts + e.dur);
      }
    }
    if (e.ph === 's')
      starts.set(e.id, e);
    if (e.ph === 'f')
      ends.set(e.id, e);
  }
  return analyzeEvents(events).then(({parsedTrace}) => {
    const d = parsedTrace.data;
    for (const [pid, name] of procs)
      if (d.Meta.processNames.get(pid)?.args?.name !== name)
        errors.push(`process ${pid} is not named ${name}`);
    for (const [k, n] of slices) {
      const [pid, tid] = k.split('/').map(Number);
      const t = d.Renderer.processes.get(pid)?.threads.get(tid);
      if (!t)
        errors.push(`thread ${k} is missing`);
      else if (t.entries.length !== n)
        errors.push(`thread ${k} has ${t.entries.length} slices, the file ${n}`);
      else if (names.has(k) && t.name !== names.get(k))
        errors.push(`thread ${k} is named ${t.name}, not ${names.get(k)}`);
    }
    const b = d.Meta.traceBounds;
    if (Number.isFinite(lo) && (Math.abs(b.min - lo) > 1 || Math.abs(b.max - hi) > 1))
      errors.push(`bounds ${b.min}..${b.max} us, the events ${lo}..${hi} us`);
    // microseconds: the last slice ends where the run did (otherData.end_ns), not 1000 times later
    if (Number.isFinite(hi) && b.max > doc.otherData.end_ns / 1000 + 1)
      errors.push(`bounds end at ${b.max} us, after the run's end at ${doc.otherData.end_ns} ns`);
    let arrows = 0;
    for (const [id, s] of starts)
      arrows += ends.has(id) && ends.get(id).ts !== s.ts;
    if (d.Flows.flows.length !== arrows)
      errors.push(`${d.Flows.flows.length} flows linked, the file has ${arrows} arrows`);
    let nslices = 0;
    for (const n of slices.values())
      nslices += n;
    if (errors.length) {
      failed++;
      console.log(`devtools: ${file}: FAILED: ${errors.join('; ')}`);
    } else {
      console.log(`devtools: ${file}: ok (${nslices} slices on ${slices.size} threads, ${arrows} flows)`);
    }
  }, err => {
    failed++;
    console.log(`devtools: ${file}: FAILED: the model does not load it: ${err.message}`);
  });
}

for (const f of files)
  await check(f);
process.exit(failed ? 1 : 0);
