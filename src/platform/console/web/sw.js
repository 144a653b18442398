/*
 * The console's service worker (docs/decisions.md, "Notifications through the outbox"): shows each
 * Web Push as a notification (a repeated tag replaces the one before) and, when it is tapped,
 * focuses or opens the console at the event or incident it is about.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let m = {};
  try {
    m = event.data ? event.data.json() : {};
  } catch {
    m = { title: 'Vigil', body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(m.title || 'Vigil', {
      body: m.body || '',
      tag: m.tag,
      renotify: Boolean(m.tag) && m.severity !== 'info',
      requireInteraction: m.severity === 'critical',
      icon: '/console/app/icons/icon-192.png',
      badge: '/console/app/icons/badge-96.png',
      timestamp: m.occurred_at ? Date.parse(m.occurred_at) : Date.now(),
      data: { url: m.url || '/console/' },
    }),
  );
});

/** The console page a notification opens: its `data.url` when it is a page of this console, else the console's start. */
function targetOf(data) {
  const start = new URL('/console/', self.location.origin).href;
  let target;
  try {
    target = new URL((data && data.url) || '/console/', self.location.origin);
  } catch {
    return start;
  }
  // only this console's pages open from a notification
  return target.origin === self.location.origin && (target.pathname === '/console' || target.pathname.startsWith('/console/')) ? target.href : start;
}

/**
 * Shows `url` in a console window that is open (navigated there and focused), else opens one. The
 * console is served at /console/ (/console redirects there), inside this worker's scope, so its
 * windows are controlled and can be navigated. A window that navigated but cannot take focus is
 * still the answer: a second window is never opened for one tap.
 */
async function showPage(url) {
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const c of open) {
    if (!new URL(c.url).pathname.startsWith('/console/')) continue;
    let moved = null;
    try {
      moved = await c.navigate(url);
    } catch {
      // not controlled by this worker (or gone): try the next one
    }
    if (!moved) continue;
    try {
      return await moved.focus();
    } catch {
      return moved;
    }
  }
  return self.clients.openWindow(url);
}

// reachable from the DevTools protocol, which is how the console's browser tests tap a notification
// (headless chromium shows none to click)
self.vigil = { targetOf, showPage };

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(showPage(targetOf(event.notification.data)));
});
