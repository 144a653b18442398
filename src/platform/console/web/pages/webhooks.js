import { html, useState, useLoad, useSubmit, Page, ErrorBox, Empty, fmtTime, Field, ActionButton, Badge } from '../ui.js';
import { get, post, del } from '../api.js';

const DELIVERY_KIND = { delivered: 'ok', pending: 'warn', retrying: 'warn', dropped: 'danger', cancelled: '' };

function Deliveries({ endpoint }) {
  const [list, error, reload] = useLoad(() => get(`/v1/webhooks/${endpoint.id}/deliveries?limit=50`), [endpoint.id]);
  return html`<div class="deliveries">
    <p><${ActionButton} label="Refresh log" run=${async () => reload()} /></p>
    <${ErrorBox} error=${error} />
    ${list && !list.data.length ? html`<${Empty}>No deliveries yet.</${Empty}>` : ''}
    ${
      list?.data.length
        ? html`<table class="list">
            <caption>
              Delivery log of ${endpoint.url}
            </caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col"><span class="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${list.data.map(
                (d) => html`<tr data-delivery=${d.id} data-event=${d.event}><td>${fmtTime(d.created_at)}</td><td><code>${d.event}</code></td>
        <td><${Badge} kind=${DELIVERY_KIND[d.status]}>${d.status}</${Badge}>${d.last_error ? html`<br /><span class="small">${d.last_error}</span>` : ''}</td>
        <td>${d.attempt_count}${d.last_status_code ? ` (HTTP ${d.last_status_code})` : ''}</td>
        <td>${
          ['dropped', 'delivered', 'cancelled'].includes(d.status)
            ? html`<${ActionButton}
                label="Redeliver"
                run=${async () => {
                  await post(`/v1/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver`);
                  reload();
                }}
              />`
            : ''
        }</td></tr>`,
              )}
            </tbody>
          </table>`
        : ''
    }
  </div>`;
}

export function Webhooks() {
  const [list, error, reload] = useLoad(() => get('/v1/webhooks?limit=100'), []);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState(null);
  const [open, setOpen] = useState(null);
  const [create, creating, formError] = useSubmit(async (idempotencyKey) => {
    const w = await post('/v1/webhooks', { url: url.trim() }, { idempotencyKey });
    setSecret(w.secret ?? null);
    setUrl('');
    reload();
  });
  return html`<${Page} title="Webhooks">
    ${
      secret
        ? html`<div class="card secret" role="alert">
            <p><strong>Signing secret, shown once:</strong> <code>${secret}</code></p>
            <button type="button" onClick=${() => setSecret(null)}>I have copied it</button>
          </div>`
        : ''
    }
    <form class="card row-form" aria-label="Register a webhook" onSubmit=${create}>
      <${Field} label="Receiver URL"><input id="webhook-url" type="url" class="grow" required value=${url} onInput=${(e) => setUrl(e.target.value)} placeholder="https://example.com/vigil" /></${Field}>
      <button type="submit" class="primary" disabled=${creating}>Register</button><${ErrorBox} error=${formError} />
    </form>
    <${ErrorBox} error=${error} />
    ${list && !list.data.length ? html`<${Empty}>No webhooks.</${Empty}>` : ''}
    <ul class="cards">${(list?.data ?? []).map(
      (w) =>
        html`<li class="card">
          <h2 class="url">${w.url}</h2>
          <p>
            ${w.enabled ? html`<${Badge} kind="ok">enabled</${Badge}>` : html`<${Badge} kind="danger">disabled</${Badge}>`}
            <span class="small">${w.events.join(', ')}</span>
          </p>
          <p class="buttons">
            <button type="button" onClick=${() => setOpen(open === w.id ? null : w.id)} aria-expanded=${open === w.id}>Delivery log</button>
            <${ActionButton}
              label="Delete"
              kind="danger"
              run=${async () => {
                await del(`/v1/webhooks/${w.id}`);
                reload();
              }}
            />
          </p>
          ${open === w.id ? html`<${Deliveries} endpoint=${w} />` : ''}
        </li>`,
    )}</ul>
  </${Page}>`;
}
