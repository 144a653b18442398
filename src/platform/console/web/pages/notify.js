import { html, useState, useLoad, Page, ErrorBox, Empty, fmtTime, Field, ActionButton, Badge } from '../ui.js';
import { api, get, post, del } from '../api.js';

const STATUS_KIND = { active: 'ok', revoked: '', gone: 'danger' };

/** base64url → the Uint8Array PushManager.subscribe takes as applicationServerKey. */
function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function deviceLabel() {
  const ua = navigator.userAgent;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iPhone'
      : /Mac/.test(ua)
        ? 'Mac'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'device';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'browser';
  return `${browser} on ${os}`;
}

/**
 * This device subscribes to Web Push (docs/decisions.md, "Notifications through the outbox"):
 * the service worker is registered, permission asked, the browser's push service gives an
 * endpoint for the server's VAPID key, and the subscription is sent to Vigil.
 */
async function enableThisDevice() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    throw new Error('This browser cannot receive push notifications (no service worker or Push API). Add the console to the home screen first on an iPhone.');
  const reg = await navigator.serviceWorker.register('/console/sw.js', { scope: '/console/' });
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site; allow them in the browser’s site settings.');
  const { public_key } = await get('/v1/notifications/vapid-public-key');
  const sub =
    (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  const json = sub.toJSON();
  return post('/v1/notification-subscriptions', { channel: 'push', endpoint: json.endpoint, keys: json.keys, label: deviceLabel() });
}

export function Notifications() {
  const [list, error, reload] = useLoad(() => get('/v1/notification-subscriptions?limit=100'), []);
  const [prefs, prefsError, reloadPrefs] = useLoad(() => get('/v1/notification-preferences'), []);
  const [address, setAddress] = useState('');
  const [formError, setFormError] = useState(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const addEmail = async (e) => {
    e.preventDefault();
    setFormError(null);
    try {
      await post('/v1/notification-subscriptions', { channel: 'email', address: address.trim() });
      setAddress('');
      reload();
    } catch (err) {
      setFormError(err);
    }
  };
  const saveQuiet = async (e) => {
    e.preventDefault();
    setFormError(null);
    try {
      const f = from || prefs?.quiet_hours?.from || '';
      const t = to || prefs?.quiet_hours?.to || '';
      await api('PUT', '/v1/notification-preferences', { quiet_hours: f && t ? { from: f, to: t } : null });
      reloadPrefs();
    } catch (err) {
      setFormError(err);
    }
  };
  return html`<${Page} title="Notifications">
    <div class="card">
      <p>Get told on this phone or computer when a watch sees something or an incident needs you, with nothing to install.</p>
      <p class="buttons"><${ActionButton} label="Enable notifications on this device" busyLabel="Enabling…" kind="primary" run=${async () => {
        await enableThisDevice();
        reload();
      }} /></p>
    </div>
    <form class="card row-form" aria-label="Add an email address" onSubmit=${addEmail}>
      <${Field} label="Email address"><input id="notify-email" type="email" class="grow" required value=${address} onInput=${(e) => setAddress(e.target.value)} placeholder="me@example.com" /></${Field}>
      <button type="submit">Add address</button>
    </form>
    <form class="card row-form" aria-label="Quiet hours" onSubmit=${saveQuiet}>
      <${Field} label="Quiet from"><input id="quiet-from" type="time" value=${from || prefs?.quiet_hours?.from || ''} onInput=${(e) => setFrom(e.target.value)} /></${Field}>
      <${Field} label="until"><input id="quiet-to" type="time" value=${to || prefs?.quiet_hours?.to || ''} onInput=${(e) => setTo(e.target.value)} /></${Field}>
      <button type="submit">Save quiet hours</button>
      ${prefs ? html`<span class="small">${prefs.time_zone}</span>` : ''}
    </form>
    <${ErrorBox} error=${formError ?? error ?? prefsError} />
    <h2>This key’s devices and addresses</h2>
    ${list && !list.data.length ? html`<${Empty}>No devices yet.</${Empty}>` : ''}
    <ul class="cards">${(list?.data ?? []).map(
      (s) => html`<li class="card" data-subscription=${s.id}>
      <h3>${s.label ?? (s.channel === 'email' ? s.address : s.endpoint_origin)}</h3>
      <p><${Badge} kind=${STATUS_KIND[s.status]}>${s.status}</${Badge}> <span class="small">${s.channel}${s.channel === 'email' ? ` · ${s.address}` : ` · ${s.endpoint_origin}`} · since ${fmtTime(s.created_at)}</span></p>
      ${
        s.status === 'active'
          ? html`<p class="buttons">
              <${ActionButton}
                label="Revoke"
                kind="danger"
                run=${async () => {
                  await del(`/v1/notification-subscriptions/${s.id}`);
                  reload();
                }}
              />
            </p>`
          : ''
      }
    </li>`,
    )}</ul>
  </${Page}>`;
}
