import { html, useState, useLoad, useSubmit, Page, ErrorBox, Empty, fmtTime, Field, ActionButton, Badge } from '../ui.js';
import { get, post, del } from '../api.js';
import { ZoneEditor } from './zone-editor.js';
import { RecordingsTimeline } from './recordings-timeline.js';

const STATUS_KIND = { live: 'ok', connecting: 'warn', reconnecting: 'warn', offline: 'danger' };
/** an empty cell says so in words (a bare "—" reads as nothing, and on a phone its column header is hidden) */
const NONE = html`<span class="muted">none</span>`;
/** sources with video to record (sandbox streams and sensors have none) */
const RECORDED = new Set(['rtsp', 'http', 'mobile', 'webrtc']);
const EXAMPLES = { sandbox: 'sandbox://lobby?scenario=lobby&seed=7', rtsp: 'rtsp://camera.local:554/stream1', http: 'https://camera.local/video.mjpg' };

/** The add-a-stream form's fields and its submit (POST /v1/streams, then the list is read again). */
function useStreamForm(reload) {
  const [form, setForm] = useState({ name: '', source_type: 'sandbox', source_url: EXAMPLES.sandbox, location: '' });
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value, ...(k === 'source_type' ? { source_url: EXAMPLES[e.target.value] } : {}) });
  const [add, adding, formError] = useSubmit(async (idempotencyKey) => {
    await post('/v1/streams', form, { idempotencyKey });
    setForm({ ...form, name: '', location: '' });
    reload();
  });
  return { form, set, add, adding, formError };
}

function streamForm({ form, set, add, adding, formError }) {
  return html`<form class="card row-form" aria-label="Add a stream" onSubmit=${add}>
    <${Field} label="Name"><input id="stream-name" required maxlength="200" value=${form.name} onInput=${set('name')} /></${Field}>
    <${Field} label="Source"><select id="stream-type" value=${form.source_type} onChange=${set('source_type')}>
      <option value="sandbox">sandbox scenario</option><option value="rtsp">RTSP camera</option><option value="http">HTTP (MJPEG / JPEG)</option></select></${Field}>
    <${Field} label="Source URL"><input id="stream-url" class="grow" required value=${form.source_url} onInput=${set('source_url')} /></${Field}>
    <${Field} label="Location" hint="snake_case"><input id="stream-location" required pattern="[a-z][a-z0-9_]*" value=${form.location} onInput=${set('location')} /></${Field}>
    <button type="submit" class="primary" disabled=${adding}>Add stream</button>
    <${ErrorBox} error=${formError} />
  </form>`;
}

/** Under a stream's name: "Delete…", or the confirmation it opens. */
function deleteControl(s, { deleting, setDeleting, editing, setEditing, reload }) {
  return deleting === s.id
    ? html`<div class="confirm" role="group" aria-label=${`Delete ${s.name}?`}>
        <span class="small">Delete ${s.name}? Its ingest stops; its detections and audit entries stay.</span>
        <${ActionButton}
          label="Delete stream"
          kind="danger"
          run=${async () => {
            await del(`/v1/streams/${s.id}`);
            setDeleting(null);
            if (editing === s.id) setEditing(null);
            reload();
          }}
        />
        <button type="button" onClick=${() => setDeleting(null)}>Cancel</button>
      </div>`
    : html`<br /><button type="button" class="link" onClick=${() => setDeleting(s.id)}>Delete…</button>`;
}

function streamRow(s, row) {
  const { canWrite, editing, setEditing } = row;
  return html`<tr data-stream=${s.id}>
    <td>${s.name}<br /><span class="muted small">${s.source_type} · ${s.location}</span>
      ${canWrite ? deleteControl(s, row) : ''}</td>
    <td data-label="Status"><${Badge} kind=${STATUS_KIND[s.status]}>${s.status}</${Badge}>${s.error ? html`<br /><span class="small error-text">${s.error}</span>` : ''}</td>
    <td data-label="fps in">${s.fps_in ?? NONE}</td><td data-label="Detector fps">${s.detector_fps ?? NONE}</td><td data-label="Last frame">${s.last_frame_at ? fmtTime(s.last_frame_at) : NONE}</td>
    <td data-label="Zones">${s.zones.length ? s.zones.map((z) => z.name).join(', ') : NONE}${s.motion_masks.length ? ` · ${s.motion_masks.length} masks` : ''}
      ${canWrite ? html`<br /><button type="button" class="link" aria-expanded=${editing === s.id} onClick=${() => setEditing(editing === s.id ? null : s.id)}>Edit zones</button>` : ''}
      ${RECORDED.has(s.source_type) ? html`<br /><a class="recordings-link" href=${`#/streams/${encodeURIComponent(s.id)}`}>Recordings</a>` : ''}</td></tr>`;
}

function streamsTable(streams, row) {
  return html`<table class="list">
    <caption class="sr-only">
      Streams
    </caption>
    <thead>
      <tr>
        <th scope="col">Stream</th>
        <th scope="col">Status</th>
        <th scope="col">fps in</th>
        <th scope="col">Detector fps</th>
        <th scope="col">Last frame</th>
        <th scope="col">Zones</th>
      </tr>
    </thead>
    <tbody>
      ${streams.map((s) => streamRow(s, row))}
    </tbody>
  </table>`;
}

/** The open stream's recordings (a stream with video only). */
function recordingsSection(stream, editing) {
  return html`<section class="card" aria-labelledby="recordings-title">
    <h2 id="recordings-title">Recordings: ${stream.name}</h2>
    <${RecordingsTimeline} key=${editing} stream=${stream} play=${new URLSearchParams(location.hash.split('?')[1] ?? '').get('play')} />
  </section>`;
}

/** The open stream's zone editor. */
function zonesSection(stream, editing, setEditing, reload) {
  return html`<section class="card" aria-labelledby="zones-title">
    <h2 id="zones-title">Zones and motion masks: ${stream.name}</h2>
    <${ZoneEditor}
      key=${editing}
      stream=${stream}
      onSaved=${() => {
        setEditing(null);
        reload();
      }}
    />
  </section>`;
}

/** `item`: the stream whose zones are open at `#/streams/<id>` */
export function Streams({ session, item }) {
  const [list, error, reload] = useLoad(() => get('/v1/streams?limit=100'), []);
  const canWrite = session.capabilities.includes('streams:write');
  const form = useStreamForm(reload);
  const editing = item ?? null;
  const [deleting, setDeleting] = useState(null);
  const setEditing = (id) => {
    location.hash = id ? `#/streams/${encodeURIComponent(id)}` : '#/streams';
  };
  const open = editing ? list?.data.find((s) => s.id === editing) : undefined;
  const row = { canWrite, deleting, setDeleting, editing, setEditing, reload };
  return html`<${Page} title="Streams" actions=${html`<${ActionButton} label="Refresh" run=${async () => reload()} />`}>
    ${canWrite ? streamForm(form) : ''}
    <${ErrorBox} error=${error} />
    ${list && !list.data.length ? html`<${Empty}>No streams.</${Empty}>` : ''}
    ${list?.data.length ? streamsTable(list.data, row) : ''}
    ${editing && RECORDED.has(open?.source_type) ? recordingsSection(open, editing) : ''}
    ${editing && open ? zonesSection(open, editing, setEditing, reload) : ''}
  </${Page}>`;
}
