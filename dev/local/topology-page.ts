/**
 * The topology page `npm start` serves: one self-contained HTML document (no external scripts or
 * styles: nothing reaches the network) that draws every MultiClusterIngress and
 * MultiClusterService and redraws when `/topology.json?since=<version>` has a newer picture (asked
 * every second; unchanged is a 204). The first picture comes in the document itself (`initial`,
 * the server's latest), drawn before anything is fetched, and no request stays open: `chromium
 * --headless --screenshot --virtual-time-budget` (whose clock stops while a request is open, as a
 * server-sent event stream always is) sees the picture. Element attributes (`data-object`,
 * `data-rule`, `data-cluster`, `data-target`…) name what each box shows, for people and for the
 * browser test alike.
 */
export function topologyPage(initial?: unknown): string {
  // Inside a <script>: `<` escaped, so no string in the picture can end the element.
  const first = JSON.stringify(initial ?? null).replace(/</g, '\\u003c');
  return TOPOLOGY_PAGE.replace('/*INITIAL*/null', first);
}

const TOPOLOGY_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Load-balancer topology</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; background: #fafafa; }
  h1 { font-size: 1.3em; margin: 0 0 .3em; }
  #status { color: #666; margin-bottom: 1em; }
  .object { background: #fff; border: 1px solid #ccc; border-radius: 8px; padding: 1em; margin-bottom: 1.5em; }
  .object > h2 { font-size: 1.1em; margin: 0 0 .5em; }
  .error { color: #b00; font-weight: 600; }
  .row { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
  .col { display: flex; flex-direction: column; gap: .6em; min-width: 14em; }
  .col > h3 { font-size: .8em; text-transform: uppercase; color: #888; margin: 0; }
  .box { border: 1px solid #999; border-radius: 6px; padding: .4em .6em; background: #fff; }
  .box small { color: #555; display: block; }
  .lb { border-color: #268bd2; border-width: 2px; }
  .pending { border-style: dashed; border-color: #b58900; }
  .draining { background: #fdf6e3; border-color: #cb4b16; border-style: dashed; }
  .registering { border-style: dashed; border-color: #b58900; }
  .blocked { background: #fde2e1; border-color: #dc322f; }
  .door { border-color: #6c71c4; border-width: 2px; margin-bottom: .8em; max-width: 40em; }
  .dials { display: flex; gap: .6em; flex-wrap: wrap; margin-top: .3em; }
  .weight { display: inline-block; height: .5em; background: #268bd2; vertical-align: middle; margin-right: .3em; }
  .targets { display: flex; flex-wrap: wrap; gap: .3em; margin-top: .3em; }
  .target { font-family: ui-monospace, monospace; font-size: .85em; border: 1px solid #aaa; border-radius: 4px; padding: 0 .3em; }
</style>
</head>
<body>
<h1>Load-balancer topology</h1>
<div id="status">loading…</div>
<main id="objects"></main>
<script>
const el = (tag, attrs, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== undefined && c !== null) e.append(c);
  return e;
};
const small = (text) => (text ? el('small', {}, text) : undefined);
const pend = (p) => (p ? ' pending' : '');
const actionText = (a) =>
  a.type === 'forward'
    ? 'forward to ' + a.targetGroups.map((g) => g.id + ' (' + g.weight + '%)').join(', ')
    : a.type === 'redirect'
      ? 'redirect ' + a.statusCode + ' to ' + a.protocol + ':' + a.port
      : 'fixed response ' + a.statusCode;

function drawLoadBalancer(region, lb) {
  const listeners = lb.listeners.map((l) =>
    el('div', { class: 'box' + pend(l.pending), 'data-listener': l.protocol + ':' + l.port },
      el('strong', {}, l.protocol + ':' + l.port),
      l.certificates.map((c, i) => small((i === 0 ? 'certificate ' : '+ certificate ') + c)),
      small(l.sslPolicy ? 'SSL policy ' + l.sslPolicy : ''),
      small('default: ' + actionText(l.defaultAction)),
      small(l.pending ? l.pending + ' pending' : '')));
  const rules = lb.listeners.flatMap((l) =>
    l.rules.map((r) =>
      el('div', { class: 'box' + pend(r.pending), 'data-rule': r.id, 'data-priority': r.priority },
        el('strong', {}, l.port + ' · priority ' + r.priority),
        r.conditions.map((c) => small(c.field + ' ' + c.values.join(' | '))),
        small(actionText(r.action)),
        small(r.pending ? r.pending + ' pending' : ''))));
  const groups = lb.targetGroups.map((tg) =>
    el('div', { class: 'box' + pend(tg.pending), 'data-target-group': tg.id },
      el('strong', {}, tg.name),
      small(tg.protocol + ':' + tg.port + ' · health ' + tg.healthCheck),
      tg.clusters.map((c) =>
        el('div', { class: 'box' + (c.drained ? ' draining' : ''), 'data-cluster': c.name, 'data-weight': c.weight, 'data-drained': c.drained ? 'true' : 'false' },
          el('span', { class: 'weight', style: 'width:' + Math.max(2, c.weight) + 'px' }),
          el('strong', {}, c.name), ' ' + c.weight + '%' + (c.drained ? ' (drained: weight 0, targets kept until the deregistration delay)' : ''),
          small(c.notReady ? c.notReady + ' endpoint(s) not ready' : ''),
          el('div', { class: 'targets' },
            c.targets.map((t) =>
              el('span', { class: 'target ' + t.state, 'data-target': t.id + ':' + t.port, 'data-state': t.state },
                t.id + ':' + t.port + (t.state === 'registered' ? '' : ' (' + t.state + ')')))))),
      tg.clusters.length === 0 ? small('no targets') : undefined));
  return el('div', { class: 'row', 'data-region': region },
    el('div', { class: 'col' }, el('h3', {}, 'Load balancer · ' + region),
      el('div', { class: 'box lb' + pend(lb.pending), 'data-load-balancer': lb.name },
        el('strong', {}, (lb.type === 'application' ? 'ALB ' : 'NLB ') + lb.name),
        small(lb.scheme), small(lb.dnsName || 'no address yet'), small(lb.pending ? lb.pending + ' pending' : ''))),
    el('div', { class: 'col' }, el('h3', {}, 'Listeners'), listeners),
    el('div', { class: 'col' }, el('h3', {}, 'Rules'), rules.length ? rules : small('none')),
    el('div', { class: 'col' }, el('h3', {}, 'Target groups, clusters, targets'), groups));
}

function drawFrontDoor(d) {
  return el('div', { class: 'box door' + pend(d.pending), 'data-front-door': d.name },
    el('strong', {}, d.kind + ' ' + d.name),
    small(d.addresses.length ? d.addresses.join(' · ') : 'no address yet'),
    small('listeners ' + d.listeners.join(', ') + (d.clientAffinity ? ' · client affinity ' + d.clientAffinity : '')),
    small(d.pending ? d.pending + ' pending' : ''),
    el('div', { class: 'dials' },
      d.regions.map((r) =>
        el('div', { class: 'box' + pend(r.pending) + (r.weight === 0 ? ' draining' : ''), 'data-dial-region': r.region, 'data-dial': r.weight },
          el('span', { class: 'weight', style: 'width:' + Math.max(2, r.weight) + 'px' }),
          el('strong', {}, r.region), ' dial ' + r.weight + '%',
          small(r.pending ? 'endpoint group ' + r.pending + ' pending' : '')))));
}

function draw(state) {
  const main = document.getElementById('objects');
  main.replaceChildren(...state.topologies.map((t) => {
    const key = (t.object.kind === 'MultiClusterService' ? 'mcs ' : 'mci ') + t.object.namespace + '/' + t.object.name;
    return el('section', { class: 'object', 'data-object': key },
      el('h2', {}, t.object.kind + ' ' + t.object.namespace + '/' + t.object.name),
      t.error ? el('div', { class: 'error', 'data-error': '' }, t.error) : undefined,
      t.frontDoors.map(drawFrontDoor),
      t.regions.flatMap((r) => r.loadBalancers.map((lb) => drawLoadBalancer(r.region, lb))),
      t.blockedClusters.map((c) => el('div', { class: 'box blocked', 'data-blocked-cluster': c }, 'cluster ' + c + ': traffic blocked, no targets')));
  }));
  document.body.setAttribute('data-version', String(state.version));
  document.getElementById('status').textContent =
    state.topologies.length + ' object(s) · ' + state.note + ' · updated ' + new Date(state.at).toLocaleTimeString();
}

let version = 0;
async function poll() {
  try {
    const res = await fetch('topology.json?since=' + version, { cache: 'no-store' });
    if (res.status === 200) {
      const state = await res.json();
      version = state.version;
      draw(state);
    }
  } catch {
    document.getElementById('status').textContent = 'disconnected: retrying…';
  }
  setTimeout(poll, 1000);
}
const initial = /*INITIAL*/null;
if (initial) {
  version = initial.version;
  draw(initial);
  setTimeout(poll, 1000);
} else poll();
</script>
</body>
</html>
`;
