import { html, useState, useLoad, Page, ErrorBox, Badge, Empty, fmtTime, ActionButton, Field } from '../ui.js';
import { get, post, patch } from '../api.js';

const NEXT_STATUS = { open: ['acknowledged'], acknowledged: ['resolved', 'dismissed'], resolved: [], dismissed: [] };
const STATUS_LABEL = { acknowledged: 'Acknowledge', resolved: 'Resolve', dismissed: 'Dismiss' };

const SEVERITY_KIND = { low: 'ok', medium: 'warn', high: 'danger', critical: 'danger' };

function RunControls({ run, can, onChanged }) {
  const [level, setLevel] = useState(String(Math.min(5, run.escalation_level + 1)));
  const [reason, setReason] = useState('');
  const act = (what, body) => async () => onChanged(await post(`/v1/protocol-runs/${run.id}/${what}`, body));
  const ended = ['completed', 'dismissed', 'terminated'].includes(run.status);
  return html`<div class="run" data-run=${run.id}>
    <p>
      <strong>${run.protocol_type.replace(/_/g, ' ')}</strong> · <span class="run-status">${run.status}</span> · level ${run.escalation_level} ·
      ${run.responders_notified} responders reached${run.responders_unreached ? ` · ${run.responders_unreached} not reached` : ''}
    </p>
    ${
      run.steps?.length
        ? html`<ol class="steps">
            ${run.steps.map((s) => html`<li>${s}</li>`)}
          </ol>`
        : ''
    }
    ${
      can && !ended
        ? html`<div class="buttons">
      ${run.status === 'active' ? html`<${ActionButton} label="Pause" run=${act('pause')} />` : ''}
      ${run.status === 'paused' ? html`<${ActionButton} label="Resume" run=${act('resume')} />` : ''}
      <${ActionButton} label="Terminate" kind="danger" run=${act('terminate')} />
      <form class="row-form" onSubmit=${(e) => e.preventDefault()}>
        <${Field} label="Escalation level"><input type="number" min="1" max="5" class="short" value=${level} onInput=${(e) => setLevel(e.target.value)} /></${Field}>
        <${Field} label="Reason"><input value=${reason} onInput=${(e) => setReason(e.target.value)} maxlength="500" /></${Field}>
        <${ActionButton} label="Override" run=${act('override', { escalation_level: Number(level), ...(reason.trim() ? { reason: reason.trim() } : {}) })} />
      </form>
    </div>`
        : ''
    }
  </div>`;
}

function TimelineItem({ item, can, reload }) {
  const at = html`<time datetime=${item.at}>${fmtTime(item.at)}</time>`;
  switch (item.kind) {
    case 'detection': {
      const d = item.detection;
      return html`<li class="tl detection">
        ${at}
        <span
          >Detection: ${d.type}${d.subtype ? ` (${d.subtype})` : ''}${d.value != null ? ` = ${d.value}` : ''} at ${d.location},
          ${Math.round(d.confidence * 100)}%</span
        >
        ${['person', 'vehicle'].includes(d.type) ? html`<img class="thumb" src=${`/v1/detections/${d.id}/snapshot`} alt=${`Frame of ${d.type} detection`} loading="lazy" onError=${(e) => e.target.remove()} />` : ''}
      </li>`;
    }
    case 'alert':
      return html`<li class="tl alert">${at} <span>Alert: ${item.alert.rule_name} (${item.alert.status})</span></li>`;
    case 'note':
      return html`<li class="tl note">${at} <span>Note${item.note.author?.operator ? ` by ${item.note.author.operator}` : ''}: ${item.note.body}</span></li>`;
    case 'protocol_run':
      return html`<li class="tl run">${at} <${RunControls} run=${item.protocol_run} can=${can} onChanged=${reload} /></li>`;
    default:
      return html`<li class="tl action">
        ${at} <span>${item.action?.action ?? 'action'}${item.action?.actor?.operator ? ` by ${item.action.actor.operator}` : ''}</span>
      </li>`;
  }
}

/**
 * The incident's clip (its stream's recording around its time) and its evidence bundle. Both are
 * same-origin GETs with the session cookie; a stream with no recording (a sandbox stream) says so.
 */
function Evidence({ id }) {
  const [missing, setMissing] = useState(false);
  return html`<section class="card" aria-labelledby="evidence-title">
    <h3 id="evidence-title">Recording</h3>
    ${
      missing
        ? html`<p id="incident-clip-missing">No recording covers this incident (sandbox streams have no video).</p>`
        : html`<video
            id="incident-clip"
            controls
            preload="metadata"
            playsinline
            src=${`/v1/incidents/${id}/clip`}
            onError=${() => setMissing(true)}
            aria-label="Clip of the incident"
          ></video>`
    }
    <p>
      <a id="evidence-download" href=${`/v1/incidents/${id}/evidence`} download=${`evidence-${id}.zip`}>Download the evidence bundle</a>
      <span class="hint"> (clips, snapshots, timeline and audit proof; check it offline with <code>npx vigil verify-evidence</code>)</span>
    </p>
  </section>`;
}

function IncidentDetail({ id, session, onBack }) {
  const [incident, error, reload] = useLoad(() => get(`/v1/incidents/${id}`), [id]);
  const [protocols] = useLoad(() => (session.capabilities.includes('protocols:trigger') ? get('/v1/protocols') : Promise.resolve({ data: [] })), []);
  const [note, setNote] = useState('');
  const [ptype, setPtype] = useState('unauthorized_access');
  const [notify, setNotify] = useState(true);
  const [level, setLevel] = useState('1');
  const can = (c) => session.capabilities.includes(c);
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!incident) return html`<p aria-busy="true">Loading…</p>`;
  return html`<div class="detail" id="incident-detail">
    <p><button type="button" onClick=${onBack}>← All incidents</button></p>
    <h2>${incident.title}</h2>
    <p><${Badge} kind=${SEVERITY_KIND[incident.severity]}>${incident.severity}</${Badge}> ${incident.status} · ${incident.location} · ${incident.detection_count} detections · opened ${fmtTime(incident.created_at)}</p>
    ${
      can('incidents:write')
        ? html`<div class="buttons">
            ${NEXT_STATUS[incident.status].map(
              (st) =>
                html`<${ActionButton}
                  label=${STATUS_LABEL[st]}
                  run=${async () => {
                    await patch(`/v1/incidents/${id}`, { status: st });
                    reload();
                  }}
                />`,
            )}
          </div>`
        : ''
    }
    ${
      can('protocols:trigger')
        ? html`<form class="card row-form" onSubmit=${(e) => e.preventDefault()} aria-label="Trigger a protocol">
      <${Field} label="Protocol"><select id="protocol-type" value=${ptype} onChange=${(e) => setPtype(e.target.value)}>
        ${(protocols?.data ?? [{ name: 'unauthorized_access' }]).map((p) => html`<option value=${p.name}>${p.name.replace(/_/g, ' ')}</option>`)}
      </select></${Field}>
      <${Field} label="Escalation level"><input type="number" min="1" max="5" class="short" value=${level} onInput=${(e) => setLevel(e.target.value)} /></${Field}>
      <label class="check"><input type="checkbox" checked=${notify} onChange=${(e) => setNotify(e.target.checked)} /> Notify responders</label>
      <${ActionButton} label="Trigger protocol" kind="primary" run=${async (idempotencyKey) => {
        await post(`/v1/incidents/${id}/protocol`, { protocol_type: ptype, notify_responders: notify, escalation_level: Number(level) }, { idempotencyKey });
        reload();
      }} />
    </form>`
        : ''
    }
    <${Evidence} id=${id} />
    <h3>Timeline</h3>
    <ol class="timeline">${incident.timeline.map((item) => html`<${TimelineItem} item=${item} can=${can('operator')} reload=${reload} />`)}</ol>
    ${
      can('incidents:write')
        ? html`<form class="row-form" onSubmit=${async (e) => {
            e.preventDefault();
            if (!note.trim()) return;
            await post(`/v1/incidents/${id}/notes`, { body: note.trim() });
            setNote('');
            reload();
          }}>
      <${Field} label="Add a note"><textarea id="note-body" rows="2" maxlength="5000" value=${note} onInput=${(e) => setNote(e.target.value)}></textarea></${Field}>
      <button type="submit">Add note</button>
    </form>`
        : ''
    }
  </div>`;
}

/** #/incidents?id=incident_… (the address a tapped notification opens) opens that incident too. */
function incidentFromHash() {
  const q = location.hash.split('?')[1];
  return q ? new URLSearchParams(q).get('id') : null;
}

/** `item`: the incident open at `#/incidents/<id>` (links, reload and back work) */
export function Incidents({ session, item }) {
  // `item` is '' when the address has no /<id> (as in #/incidents?id=…): the query names it then
  const selected = item || incidentFromHash();
  const setSelected = (id) => {
    location.hash = id ? `#/incidents/${encodeURIComponent(id)}` : '#/incidents';
  };
  const [list, error, reload] = useLoad(() => get('/v1/incidents?limit=50'), []);
  const [streams] = useLoad(() => (session.capabilities.includes('streams:read') ? get('/v1/streams?limit=100') : Promise.resolve({ data: [] })), []);
  const [streamId, setStreamId] = useState('');
  const [title, setTitle] = useState('');
  if (selected)
    return html`<${Page} title="Incident"><${IncidentDetail} id=${selected} session=${session} onBack=${() => {
      setSelected(null);
      reload();
    }} /></${Page}>`;
  const canWrite = session.capabilities.includes('incidents:write');
  return html`<${Page} title="Incidents">
    <${ErrorBox} error=${error} />
    ${
      canWrite && streams?.data?.length
        ? html`<form class="card row-form" aria-label="Open an incident" onSubmit=${(e) => e.preventDefault()}>
      <${Field} label="Stream"><select id="incident-stream" value=${streamId} onChange=${(e) => setStreamId(e.target.value)}>
        <option value="">Choose…</option>${streams.data.map((s) => html`<option value=${s.id}>${s.name} (${s.location})</option>`)}
      </select></${Field}>
      <${Field} label="Title"><input id="incident-title" value=${title} maxlength="200" onInput=${(e) => setTitle(e.target.value)} /></${Field}>
      <${ActionButton} label="Open incident" kind="primary" disabled=${!streamId} run=${async (idempotencyKey) => {
        const i = await post('/v1/incidents', { stream_id: streamId, ...(title.trim() ? { title: title.trim() } : {}) }, { idempotencyKey });
        setSelected(i.id);
      }} />
    </form>`
        : ''
    }
    ${list && !list.data.length ? html`<${Empty}>No incidents.</${Empty}>` : ''}
    ${
      list?.data.length
        ? html`<table class="list">
            <caption class="sr-only">
              Incidents, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Incident</th>
                <th scope="col">Severity</th>
                <th scope="col">Status</th>
                <th scope="col">Location</th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              ${list.data.map(
                (i) => html`<tr>
        <td><a class="link" href=${`#/incidents/${encodeURIComponent(i.id)}`}>${i.title}</a></td>
        <td><${Badge} kind=${SEVERITY_KIND[i.severity]}>${i.severity}</${Badge}></td><td>${i.status}</td><td>${i.location}</td><td>${fmtTime(i.last_activity_at)}</td></tr>`,
              )}
            </tbody>
          </table>`
        : ''
    }
  </${Page}>`;
}
