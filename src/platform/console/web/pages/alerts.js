import { html, useState, useLoad, useSubmit, useOpenItem, Page, ErrorBox, Empty, fmtTime, Field, ActionButton, Badge } from '../ui.js';
import { get, post, del } from '../api.js';

function describe(c) {
  switch (c.type) {
    case 'person_count':
      return `more than ${c.above} people`;
    case 'crowd_density':
      return `density at least ${Math.round(c.at_least * 100)}%`;
    case 'person':
      return `a person${c.subtype ? ` (${c.subtype})` : ''}${c.person_id ? ` ${c.person_id}` : ''}`;
    case 'vehicle':
      return `more than ${c.above} vehicles`;
    case 'dwell':
      return `someone staying ${c.min_s}s or more`;
    default:
      return c.type;
  }
}

/** The rule form's fields and its submit (POST /v1/alert-rules, then the rules are read again). */
function useRuleForm(reloadRules) {
  const [form, setForm] = useState({ name: '', above: '5', location: '' });
  const [create, creating, formError] = useSubmit(async (idempotencyKey) => {
    await post(
      '/v1/alert-rules',
      {
        name: form.name,
        condition: { type: 'person_count', above: Number(form.above) },
        ...(form.location.trim() ? { locations: [form.location.trim()] } : {}),
      },
      { idempotencyKey },
    );
    setForm({ name: '', above: '5', location: '' });
    reloadRules();
  });
  return { form, setForm, create, creating, formError };
}

function ruleForm({ form, setForm, create, creating, formError }) {
  return html`<form class="card row-form" aria-label="Create an alert rule" onSubmit=${create}>
    <${Field} label="Name"><input id="rule-name" required maxlength="200" value=${form.name} onInput=${(e) => setForm({ ...form, name: e.target.value })} /></${Field}>
    <${Field} label="People above"><input id="rule-above" type="number" min="0" max="100000" class="short" value=${form.above} onInput=${(e) => setForm({ ...form, above: e.target.value })} /></${Field}>
    <${Field} label="Location" hint="empty = everywhere"><input id="rule-location" value=${form.location} onInput=${(e) => setForm({ ...form, location: e.target.value })} /></${Field}>
    <button type="submit" class="primary" disabled=${creating}>Create rule</button><${ErrorBox} error=${formError} />
  </form>`;
}

function ruleRow(r, manage, reloadRules) {
  return html`<tr><td>${r.name}</td><td>${describe(r.condition)}</td><td>${r.locations?.join(', ') ?? 'everywhere'}</td>
    <td><${Badge} kind=${r.status === 'active' ? 'ok' : 'warn'}>${r.status}</${Badge}>
    ${
      manage
        ? html` <${ActionButton}
              label=${r.status === 'active' ? 'Pause' : 'Resume'}
              run=${async () => {
                await post(`/v1/alert-rules/${r.id}/${r.status === 'active' ? 'pause' : 'resume'}`);
                reloadRules();
              }}
            />
            <${ActionButton}
              label="Delete"
              kind="danger"
              run=${async () => {
                await del(`/v1/alert-rules/${r.id}`);
                reloadRules();
              }}
            />`
        : ''
    }</td></tr>`;
}

function rulesTable(rules, manage, reloadRules) {
  return html`<table class="list">
    <caption class="sr-only">
      Alert rules
    </caption>
    <thead>
      <tr>
        <th scope="col">Rule</th>
        <th scope="col">When</th>
        <th scope="col">Where</th>
        <th scope="col">State</th>
      </tr>
    </thead>
    <tbody>
      ${rules.map((r) => ruleRow(r, manage, reloadRules))}
    </tbody>
  </table>`;
}

/** An alert's status: a button to acknowledge it while it is open (for an operator), else the status in words. */
function alertStatus(a, operator, reloadAlerts) {
  return a.status === 'open' && operator
    ? html`<${ActionButton}
        label="Acknowledge"
        run=${async () => {
          await post(`/v1/alerts/${a.id}/acknowledge`);
          reloadAlerts();
        }}
      />`
    : a.status;
}

function alertsTable(alerts, item, status) {
  return html`<table class="list">
    <caption class="sr-only">
      Alerts, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Fired</th>
        <th scope="col">Rule</th>
        <th scope="col">Location</th>
        <th scope="col">Status</th>
      </tr>
    </thead>
    <tbody>
      ${alerts.map(
        (a) =>
          html`<tr
            data-alert=${a.id}
            data-open=${String(a.id === item)}
            class=${a.id === item ? 'open-item' : ''}
            aria-current=${a.id === item ? 'true' : undefined}
          >
            <td><a class="link" href=${`#/alerts/${encodeURIComponent(a.id)}`}>${fmtTime(a.fired_at)}</a></td>
            <td>${a.rule_name}</td>
            <td>${a.location}</td>
            <td>${status(a)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** `item`: the alert open at `#/alerts/<id>` (links, reload and back work) */
export function Alerts({ session, item }) {
  const manage = session.capabilities.includes('alerts:manage');
  const operator = session.capabilities.includes('operator');
  const [rules, rulesError, reloadRules] = useLoad(() => get('/v1/alert-rules?limit=100'), []);
  const [alerts, alertsError, reloadAlerts] = useLoad(() => get('/v1/alerts?limit=50'), []);
  const { open, inList, missing } = useOpenItem(item ?? null, alerts?.data, (id) => get(`/v1/alerts/${encodeURIComponent(id)}`));
  const status = (a) => alertStatus(a, operator, reloadAlerts);
  const form = useRuleForm(reloadRules);
  return html`<${Page} title="Alerts">
    <h2>Rules</h2>
    ${manage ? ruleForm(form) : ''}
    <${ErrorBox} error=${rulesError} />
    ${rules && !rules.data.length ? html`<${Empty}>No rules.</${Empty}>` : ''}
    ${rules?.data.length ? rulesTable(rules.data, manage, reloadRules) : ''}
    <h2>Fired alerts</h2>
    <${ErrorBox} error=${alertsError} />
    <${ErrorBox} error=${missing} />
    ${
      open && !inList
        ? html`<div class="card" id="open-alert" data-open="true" aria-label="Alert">
            <p><strong>${open.rule_name}</strong> at ${open.location}, fired ${fmtTime(open.fired_at)}: ${status(open)}</p>
            <p class="small muted">Older than the 50 newest alerts listed below.</p>
          </div>`
        : ''
    }
    ${alerts && !alerts.data.length ? html`<${Empty}>No alerts.</${Empty}>` : ''}
    ${alerts?.data.length ? alertsTable(alerts.data, item, status) : ''}
  </${Page}>`;
}
