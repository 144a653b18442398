import { html, render, useState, useEffect, ErrorBox } from './ui.js';
import { currentSession, onSessionLost, sessionOnLoad, setOperator, signIn, signOut } from './api.js';
import { Wall } from './pages/wall.js';
import { Streams } from './pages/streams.js';
import { Incidents } from './pages/incidents.js';
import { Alerts } from './pages/alerts.js';
import { Webhooks } from './pages/webhooks.js';
import { Responders } from './pages/responders.js';
import { Audit } from './pages/audit.js';
import { Keys } from './pages/keys.js';
import { Chat } from './pages/chat.js';
import { Watches } from './pages/watches.js';
import { HomeEvents } from './pages/home-events.js';
import { Sensors } from './pages/sensors.js';
import { Notifications } from './pages/notify.js';

/**
 * Pages by tenant kind; an organization page is listed only when the key holds its capability,
 * so a narrow key sees no control it cannot use (the API refuses it anyway: 403).
 */
const ORG_PAGES = [
  { id: 'wall', label: 'Live wall', cap: 'scenes:read', view: Wall },
  { id: 'streams', label: 'Streams', cap: 'streams:read', view: Streams },
  { id: 'incidents', label: 'Incidents', cap: 'incidents:read', view: Incidents },
  { id: 'alerts', label: 'Alerts', cap: 'alerts:read', view: Alerts },
  { id: 'webhooks', label: 'Webhooks', cap: 'webhooks:manage', view: Webhooks },
  { id: 'responders', label: 'Responders', cap: 'responders:manage', view: Responders },
  { id: 'audit', label: 'Audit', cap: 'audit:read', view: Audit },
  { id: 'keys', label: 'Keys', cap: 'keys:manage', view: Keys },
  { id: 'notifications', label: 'Notifications', cap: 'incidents:read', view: Notifications },
];
const HOME_PAGES = [
  { id: 'chat', label: 'Chat', view: Chat },
  { id: 'watches', label: 'Watches', view: Watches },
  { id: 'events', label: 'Events', view: HomeEvents },
  { id: 'home', label: 'Sensors & rooms', view: Sensors },
  { id: 'notifications', label: 'Notifications', view: Notifications },
  { id: 'keys', label: 'Keys', owner: true, view: Keys },
];

export function pagesFor(session) {
  if (session.tenant_kind === 'household') return HOME_PAGES.filter((p) => !p.owner || session.role === 'owner');
  return ORG_PAGES.filter((p) => session.capabilities.includes(p.cap));
}

/** `#/incidents/incident_…` → ['incidents', 'incident_…']: a page and the item open on it (docs/decisions.md, "Console routes") */
function routeParts() {
  const [page = '', item = ''] = (location.hash.replace(/^#\/?/, '').split('?')[0] || '').trim().split('/');
  return [page, decodeURIComponent(item) || null];
}

function routeId() {
  return routeParts()[0];
}

function SignIn({ onSignedIn, notice }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const s = await signIn(key, name.trim());
      setKey('');
      onSignedIn(s);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="signin" id="main">
    <form class="card signin-card" onSubmit=${submit} aria-labelledby="signin-title">
      <h1 id="signin-title">Vigil console</h1>
      <p>Paste an API key. It is exchanged for a session of 8 hours with exactly the key’s rights; the key itself is not kept.</p>
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      <label class="field"
        ><span>API key</span>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          spellcheck="false"
          required
          value=${key}
          onInput=${(e) => setKey(e.target.value)}
          placeholder="vk_live_… or vk_test_…"
        />
      </label>
      <label class="field"
        ><span>Your name (recorded in the audit trail)</span>
        <input id="operator-name" type="text" autocomplete="name" maxlength="100" value=${name} onInput=${(e) => setName(e.target.value)} />
      </label>
      <button type="submit" class="primary" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
      <${ErrorBox} error=${error} />
    </form>
  </main>`;
}

function Shell({ session, onSignOut }) {
  const pages = pagesFor(session);
  const [route, setRoute] = useState(routeId());
  const [item, setItem] = useState(routeParts()[1]);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    const on = () => {
      setRoute(routeId());
      setItem(routeParts()[1]);
      setMenuOpen(false);
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  const page = pages.find((p) => p.id === route) ?? pages[0];
  const who =
    session.tenant_kind === 'household' ? `Household · ${session.role}` : `Organization${session.locations ? ` · ${session.locations.join(', ')}` : ''}`;
  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="topbar">
      <span class="brand">Vigil</span>
      <button type="button" class="menu-toggle" aria-expanded=${menuOpen} aria-controls="nav" onClick=${() => setMenuOpen(!menuOpen)}>Menu</button>
      <nav id="nav" class=${menuOpen ? 'open' : ''} aria-label="Console pages">
        <ul>
          ${pages.map((p) => html`<li><a href=${`#/${p.id}`} aria-current=${p === page ? 'page' : undefined}>${p.label}</a></li>`)}
          ${session.tenant_kind === 'organization' && session.capabilities.includes('streams:write') ? html`<li><a href="/console/publish">Phone publish</a></li>` : ''}
        </ul>
      </nav>
      <span class="who" title=${session.key_id}>${session.operator ? `${session.operator} · ` : ''}${who}${session.mode === 'test' ? ' · sandbox' : ''}</span>
      <button type="button" id="sign-out" onClick=${onSignOut}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">
      ${page ? html`<${page.view} session=${session} item=${page.id === route ? item : null} key=${page.id} />` : html`<p class="empty">This key has no capability the console can show.</p>`}
    </main>
  </div>`;
}

function App() {
  const [session, setSession] = useState(undefined);
  const [notice, setNotice] = useState(null);
  useEffect(() => {
    onSessionLost((problem) => {
      setSession(null);
      setNotice(problem?.detail ?? 'Your session ended; sign in again.');
    });
    const onLoad = sessionOnLoad();
    if (onLoad !== 'active') {
      // no session cookie, or one that has ended: straight to sign-in, without a request refused with 401
      if (onLoad === 'ended') setNotice('Your session has ended (expired, signed out or its key revoked); sign in again.');
      setSession(null);
      return;
    }
    currentSession().then(
      (s) => {
        setOperator(s?.operator);
        setSession(s);
      },
      () => setSession(null),
    );
  }, []);
  if (session === undefined) return html`<p class="boot">Loading…</p>`;
  if (!session) {
    return html`<${SignIn}
      notice=${notice}
      onSignedIn=${(s) => {
        setOperator(s.operator);
        setNotice(null);
        setSession(s);
      }}
    />`;
  }
  const out = async () => {
    try {
      await signOut();
    } finally {
      setOperator(null);
      setSession(null);
      setNotice('Signed out.');
    }
  };
  return html`<${Shell} session=${session} onSignOut=${out} />`;
}

render(html`<${App} />`, document.getElementById('app'));
