import { html, useState, useLoad, useSubmit, useOpenItem, Page, ErrorBox, Empty, fmtTime, Field, ActionButton, Badge } from '../ui.js';
import { get, post, del } from '../api.js';

/** The key form's fields, the key just created (its secret shown once) and the submit (POST /v1/keys). */
function useKeyForm(org, reload) {
  const [name, setName] = useState('');
  const [caps, setCaps] = useState([]);
  const [locations, setLocations] = useState('');
  const [role, setRole] = useState('member');
  const [created, setCreated] = useState(null);
  const toggle = (c) => setCaps(caps.includes(c) ? caps.filter((x) => x !== c) : [...caps, c]);
  const [create, creating, formError] = useSubmit(async (idempotencyKey) => {
    const body = { ...(name.trim() ? { name: name.trim() } : {}) };
    if (org) {
      body.capabilities = caps;
      const locs = locations
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (locs.length) body.locations = locs;
    } else body.role = role;
    setCreated(await post('/v1/keys', body, { idempotencyKey }));
    setName('');
    setCaps([]);
    setLocations('');
    reload();
  });
  return { name, setName, caps, toggle, locations, setLocations, role, setRole, created, setCreated, create, creating, formError };
}

function keyForm(session, org, { name, setName, caps, toggle, locations, setLocations, role, setRole, create, creating, formError }) {
  return html`<form class="card" aria-label="Create a key" onSubmit=${create}>
    <h2>Create a key</h2>
    <${Field} label="Name"><input id="key-name" maxlength="100" value=${name} onInput=${(e) => setName(e.target.value)} /></${Field}>
    ${
      org
        ? html`<fieldset class="caps"><legend>Capabilities (at most this key’s own)</legend>
        ${session.capabilities.map((c) => html`<label class="check"><input type="checkbox" name="cap" value=${c} checked=${caps.includes(c)} onChange=${() => toggle(c)} /> ${c}</label>`)}
      </fieldset>
      <${Field} label="Locations" hint=${session.locations ? `within ${session.locations.join(', ')}` : 'comma-separated; empty = every location'}><input id="key-locations" value=${locations} onInput=${(e) => setLocations(e.target.value)} /></${Field}>`
        : html`<${Field} label="Role"><select id="key-role" value=${role} onChange=${(e) => setRole(e.target.value)}><option value="member">member (adds boundaries, never lifts them)</option><option value="owner">owner</option></select></${Field}>`
    }
    <button type="submit" class="primary" id="create-key" disabled=${creating}>Create key</button>
    <${ErrorBox} error=${formError} />
  </form>`;
}

/** A key's state: revoked, this session's own (active), or a button to revoke it. */
function keyState(k, session, reload) {
  return k.revoked_at
    ? html`<${Badge} kind="danger">revoked</${Badge}>`
    : k.id === session.key_id
      ? html`<${Badge} kind="ok">active</${Badge}>`
      : html`<${ActionButton}
          label="Revoke"
          kind="danger"
          run=${async () => {
            await del(`/v1/keys/${k.id}`);
            reload();
          }}
        />`;
}

function keyRow(k, { session, org, item, reload }) {
  return html`<tr
    data-key=${k.id}
    data-open=${String(k.id === item)}
    class=${k.id === item ? 'open-item' : ''}
    aria-current=${k.id === item ? 'true' : undefined}
  >
    <td>
      <a class="link" href=${`#/keys/${encodeURIComponent(k.id)}`}>${k.name ?? html`<span class="muted">unnamed</span>`}</a><br /><code class="id"
        >${k.preview}</code
      >${k.id === session.key_id ? html` <${Badge}>this session</${Badge}>` : ''}
    </td>
    <td class="small">${org ? `${k.capabilities.join(', ')}${k.locations ? ` @ ${k.locations.join(', ')}` : ''}` : k.role}</td>
    <td>${fmtTime(k.created_at)}</td>
    <td>${keyState(k, session, reload)}</td>
  </tr>`;
}

function keysTable(keys, row) {
  return html`<table class="list keys">
    <caption class="sr-only">
      Keys of this ${row.org ? 'organization' : 'household'}
    </caption>
    <thead>
      <tr>
        <th scope="col">Key</th>
        <th scope="col">${row.org ? 'Capabilities' : 'Role'}</th>
        <th scope="col">Created</th>
        <th scope="col">State</th>
      </tr>
    </thead>
    <tbody>
      ${keys.map((k) => keyRow(k, row))}
    </tbody>
  </table>`;
}

/**
 * Account settings: keys no wider than the session's own (the API enforces it; the form offers only
 * what this key holds). `item`: the key open at `#/keys/<id>`.
 */
export function Keys({ session, item }) {
  const org = session.tenant_kind === 'organization';
  const [list, error, reload] = useLoad(() => get('/v1/keys?limit=100'), []);
  const { open, inList, missing } = useOpenItem(item ?? null, list?.data, (id) => get(`/v1/keys/${encodeURIComponent(id)}`));
  const form = useKeyForm(org, reload);
  const { created, setCreated } = form;
  return html`<${Page} title="API keys">
    ${
      created
        ? html`<div class="card secret" id="new-key" role="alert">
            <p><strong>Copy this key now: it is shown once.</strong> Only its hash is stored.</p>
            <p><code id="new-key-secret" class="secret-value">${created.key}</code></p>
            <button type="button" onClick=${() => setCreated(null)}>I have copied it</button>
          </div>`
        : ''
    }
    ${keyForm(session, org, form)}
    <${ErrorBox} error=${error} />
    <${ErrorBox} error=${missing} />
    ${
      open && !inList
        ? html`<div class="card" id="open-key" data-open="true" aria-label="Key">
            <p>
              <strong>${open.name ?? 'unnamed'}</strong> <code class="id">${open.preview}</code>, created
              ${fmtTime(open.created_at)}${open.revoked_at ? ', revoked' : ''}
            </p>
          </div>`
        : ''
    }
    ${list && !list.data.length ? html`<${Empty}>No keys.</${Empty}>` : ''}
    ${list?.data.length ? keysTable(list.data, { session, org, item, reload }) : ''}
  </${Page}>`;
}
