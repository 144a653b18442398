import { html, useState, useEffect, Page, ErrorBox, Empty, fmtTime, Field, ActionButton, Badge } from '../ui.js';
import { get } from '../api.js';

/** The entries matching the applied filters, read 50 at a time: `more()` reads the next (older) page. */
function useAuditEntries(applied) {
  const [entries, setEntries] = useState(null);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState(null);

  const query = (extra = {}) => {
    const q = new URLSearchParams({ limit: '50', ...extra });
    for (const [k, v] of Object.entries(applied)) if (typeof v === 'string' && v.trim()) q.set(k, v.trim());
    if (applied.hideDetections) q.set('exclude_action', 'detection.recorded');
    return `/v1/audit?${q}`;
  };
  useEffect(() => {
    setError(null);
    get(query()).then((page) => {
      setEntries(page.data);
      setHasMore(page.has_more);
    }, setError);
  }, [applied]);
  const more = async () => {
    const page = await get(query({ starting_after: entries[entries.length - 1].id }));
    setEntries([...entries, ...page.data]);
    setHasMore(page.has_more);
  };
  return { entries, hasMore, error, more };
}

function verifyResult(verify) {
  return html`<div class=${`card verify ${verify.valid ? 'ok' : 'bad'}`} id="verify-result" role="status">
    ${
      verify.valid
        ? html`<strong>Valid</strong> — ${verify.entries_checked} entries checked; head ${verify.head_hash?.slice(0, 16) ?? '—'}…`
        : html`<strong>Broken</strong> at <code>${verify.first_broken_id}</code> (${verify.reason}): ${verify.detail}`
    }
  </div>`;
}

function filterForm(filters, setFilters, setApplied) {
  const set = (k) => (e) => setFilters({ ...filters, [k]: e.target.value });
  return html`<form class="card row-form" aria-label="Filter the audit trail" onSubmit=${(e) => {
    e.preventDefault();
    setApplied(filters);
  }}>
    <${Field} label="Action" hint="exact, or a prefix like protocol_run.*"><input id="audit-action" value=${filters.action} onInput=${set('action')} /></${Field}>
    <${Field} label="Resource type"><input id="audit-resource" value=${filters.resource_type} onInput=${set('resource_type')} /></${Field}>
    <${Field} label="Actor" hint="key id or operator name"><input id="audit-actor" value=${filters.actor} onInput=${set('actor')} /></${Field}>
    <label class="check"><input type="checkbox" id="audit-hide-detections" checked=${filters.hideDetections} onChange=${(e) => {
      const next = { ...filters, hideDetections: e.target.checked };
      setFilters(next);
      setApplied(next);
    }} /> Hide detections</label>
    <button type="submit">Filter</button>
  </form>`;
}

function auditTable(entries) {
  return html`<table class="list audit">
    <caption class="sr-only">
      Audit entries, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Time</th>
        <th scope="col">Action</th>
        <th scope="col">Resource</th>
        <th scope="col">Actor</th>
      </tr>
    </thead>
    <tbody>
      ${entries.map(
        (e) =>
          html`<tr data-action=${e.action}>
            <td>${fmtTime(e.at)}</td>
            <td><code>${e.action}</code></td>
            <td>${e.resource.type}${e.resource.id ? html` <code class="id">${e.resource.id}</code>` : ''}</td>
            <td class="actor">
              ${e.actor.operator ? html`<${Badge}>${e.actor.operator}</${Badge}> ` : ''}${e.actor.key_id ? html`<code class="id">${e.actor.key_id}</code>` : ''}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function Audit() {
  // detections are most of the trail: hidden unless asked for (exclude_action=detection.recorded)
  const [filters, setFilters] = useState({ action: '', resource_type: '', actor: '', hideDetections: true });
  const [applied, setApplied] = useState(filters);
  const { entries, hasMore, error, more } = useAuditEntries(applied);
  const [verify, setVerify] = useState(null);

  return html`<${Page} title="Audit trail" actions=${html`<span class="buttons">
    <${ActionButton} label="Verify chain" run=${async () => setVerify(await get('/v1/audit/verify'))} />
    <a class="button" href="/v1/audit/export" download="vigil-audit.ndjson">Export (NDJSON)</a>
  </span>`}>
    ${verify ? verifyResult(verify) : ''}
    ${filterForm(filters, setFilters, setApplied)}
    <${ErrorBox} error=${error} />
    ${entries && !entries.length ? html`<${Empty}>No entries match.</${Empty}>` : ''}
    ${entries?.length ? auditTable(entries) : ''}
    ${hasMore ? html`<p><${ActionButton} label="Older entries" run=${more} /></p>` : ''}
  </${Page}>`;
}
