import { html, useState, Field, ActionButton, ErrorBox, useSnapshot } from '../ui.js';
import { patch } from '../api.js';

const W = 640;
const round = (n) => Math.round(n * 1000) / 1000;

/** "x,y x,y …" in 0..1 (the keyboard way to give a shape) → points, or null. */
function parsePoints(text) {
  const pts = text
    .trim()
    .split(/\s+/)
    .map((p) => p.split(',').map(Number));
  return pts.length >= 3 && pts.every((p) => p.length === 2 && p.every((n) => Number.isFinite(n) && n >= 0 && n <= 1)) ? pts : null;
}

/**
 * Zones and motion masks of a stream, drawn on its view (coordinates 0..1 from the top-left, as
 * the API takes them): click to add corners, then finish the shape; or type the corners. The view
 * is the stream's latest frame (GET /v1/streams/{id}/snapshot) in its own proportions when there
 * is one, else a blank 16:9.
 */
export function ZoneEditor({ stream, onSaved }) {
  const frame = useSnapshot(`/v1/streams/${stream.id}/snapshot`);
  const H = frame.src && frame.width && frame.height ? Math.round((W * frame.height) / frame.width) : 360;
  const toPoints = (poly) => poly.map(([x, y]) => `${x * W},${y * H}`).join(' ');
  const [zones, setZones] = useState(stream.zones);
  const [masks, setMasks] = useState(stream.motion_masks);
  const [mode, setMode] = useState('zone');
  const [name, setName] = useState('');
  const [draft, setDraft] = useState([]);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState(null);
  const click = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    setDraft([...draft, [round((e.clientX - r.left) / r.width), round((e.clientY - r.top) / r.height)]]);
  };
  const finish = (pts) => {
    setError(null);
    if (!pts || pts.length < 3) return setError(new Error('A shape needs at least three corners (x,y in 0..1).'));
    if (mode === 'zone') {
      const zoneName = name.trim() || `zone_${zones.length + 1}`;
      setZones([...zones, { name: zoneName, polygon: pts }]);
      setName('');
    } else setMasks([...masks, pts]);
    setDraft([]);
    setTyped('');
  };
  return html`<div class="zone-editor" aria-label=${`Zones of ${stream.name}`}>
    <svg viewBox=${`0 0 ${W} ${H}`} class="zone-canvas" onClick=${click} role="img" aria-label=${frame.src ? "The camera's latest frame: click to add a corner" : 'Camera view (no frame yet): click to add a corner'}>
      <rect x="0" y="0" width=${W} height=${H} class="view" />
      ${frame.src ? html`<image href=${frame.src} x="0" y="0" width=${W} height=${H} preserveAspectRatio="none" class="frame" />` : ''}
      ${masks.map((m) => html`<polygon points=${toPoints(m)} class="mask" />`)}
      ${zones.map((z) => html`<polygon points=${toPoints(z.polygon)} class="zone" /><text x=${z.polygon[0][0] * W + 4} y=${z.polygon[0][1] * H + 16} class="zone-label">${z.name}</text>`)}
      ${draft.length ? html`<polyline points=${toPoints(draft)} class="draft" />` : ''}
      ${draft.map(([x, y]) => html`<circle cx=${x * W} cy=${y * H} r="4" class="corner" />`)}
    </svg>
    <div class="row-form">
      <${Field} label="Draw"><select value=${mode} onChange=${(e) => setMode(e.target.value)}><option value="zone">a zone</option><option value="mask">a motion mask</option></select></${Field}>
      ${mode === 'zone' ? html`<${Field} label="Zone name"><input value=${name} maxlength="64" onInput=${(e) => setName(e.target.value)} /></${Field}>` : ''}
      <button type="button" onClick=${() => finish(draft)} disabled=${draft.length < 3}>Finish shape (${draft.length} corners)</button>
      <button type="button" onClick=${() => setDraft([])} disabled=${!draft.length}>Clear</button>
    </div>
    <div class="row-form">
      <${Field} label="Or type the corners" hint="x,y pairs in 0..1, e.g. 0.1,0.1 0.5,0.1 0.5,0.6"><input class="grow" value=${typed} onInput=${(e) => setTyped(e.target.value)} /></${Field}>
      <button type="button" onClick=${() => finish(parsePoints(typed))}>Add shape</button>
    </div>
    <ul class="shapes">
      ${zones.map((z, i) => html`<li>Zone <strong>${z.name}</strong> (${z.polygon.length} corners) <button type="button" onClick=${() => setZones(zones.filter((_, k) => k !== i))}>Remove</button></li>`)}
      ${masks.map((m, i) => html`<li>Motion mask ${i + 1} (${m.length} corners) <button type="button" onClick=${() => setMasks(masks.filter((_, k) => k !== i))}>Remove</button></li>`)}
    </ul>
    <${ErrorBox} error=${error} />
    <${ActionButton} label="Save zones and masks" kind="primary" run=${async () => onSaved(await patch(`/v1/streams/${stream.id}`, { zones, motion_masks: masks }))} />
  </div>`;
}
