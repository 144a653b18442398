import { html, useState, useLoad, useSubmit, Page, ErrorBox, Empty, Field, ActionButton } from '../ui.js';
import { get, post, del } from '../api.js';

export function Responders() {
  const [list, error, reload] = useLoad(() => get('/v1/responders?limit=100'), []);
  const [form, setForm] = useState({ name: '', kind: 'person', escalation_level: '1', webhook_url: '' });
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const [create, creating, formError] = useSubmit(async (idempotencyKey) => {
    await post(
      '/v1/responders',
      { name: form.name, kind: form.kind, escalation_level: Number(form.escalation_level), contact: { webhook_url: form.webhook_url } },
      { idempotencyKey },
    );
    setForm({ ...form, name: '', webhook_url: '' });
    reload();
  });
  return html`<${Page} title="Responders">
    <form class="card row-form" aria-label="Add a responder" onSubmit=${create}>
      <${Field} label="Name"><input id="responder-name" required maxlength="200" value=${form.name} onInput=${set('name')} /></${Field}>
      <${Field} label="Kind"><select value=${form.kind} onChange=${set('kind')}><option value="person">person</option><option value="system">system</option></select></${Field}>
      <${Field} label="Escalation level"><input type="number" min="1" max="5" class="short" value=${form.escalation_level} onInput=${set('escalation_level')} /></${Field}>
      <${Field} label="Notification URL"><input id="responder-url" type="url" class="grow" required value=${form.webhook_url} onInput=${set('webhook_url')} /></${Field}>
      <button type="submit" class="primary" disabled=${creating}>Add responder</button><${ErrorBox} error=${formError} />
    </form>
    <${ErrorBox} error=${error} />
    ${list && !list.data.length ? html`<${Empty}>No responders.</${Empty}>` : ''}
    ${
      list?.data.length
        ? html`<table class="list">
            <caption class="sr-only">
              Responders
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Level</th>
                <th scope="col">Contact</th>
                <th scope="col"><span class="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${list.data.map(
                (r) =>
                  html`<tr>
                    <td>${r.name}</td>
                    <td>${r.kind}</td>
                    <td>${r.escalation_level}</td>
                    <td class="small">${r.contact.webhook_url}</td>
                    <td>
                      <${ActionButton}
                        label="Remove"
                        kind="danger"
                        run=${async () => {
                          await del(`/v1/responders/${r.id}`);
                          reload();
                        }}
                      />
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : ''
    }
  </${Page}>`;
}
