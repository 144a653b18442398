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
  event.waitUntil(self.registration.showNotification(m.title || 'Vigil', {
    body: m.body || '',
    tag: m.tag,
    renotify: Boolean(m.tag) && m.severity !== 'info',
    requireInteraction: m.severity === 'critical',
    icon: '/console/app/icons/icon-192.png',
    badge: '/console/app/icons/badge-96.png',
    timestamp: m.occurred_at ? Date.parse(m.occurred_at) : Date.now(),
    data: { url: m.url || '/console/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/console/', self.location.origin);
  // only this console's pages open from a notification
  const url = target.origin === self.location.origin && target.pathname.startsWith('/console') ? target.href : new URL('/console/', self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const c of open) {
      if (!new URL(c.url).pathname.startsWith('/console')) continue;
      try {
        // navigate() works only on a page this worker controls (/console/…, not /console itself)
        const moved = await c.navigate(url);
        if (moved) return moved.focus();
      } catch {
        // not controlled: open the page instead
      }
    }
    return self.clients.openWindow(url);
  })());
});
