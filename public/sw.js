/* Service worker for web push: shows each notification and opens the dashboard when one is clicked. */
/* global self, clients */

const DEFAULT_URL = "/dashboard/notifications";

function sameOriginPath(url) {
  try {
    const target = new URL(url || DEFAULT_URL, self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search + target.hash : DEFAULT_URL;
  } catch {
    return DEFAULT_URL;
  }
}

self.addEventListener("push", (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof payload.title === "string" && payload.title ? payload.title : "Tag Service";
  const options = {
    body: typeof payload.body === "string" ? payload.body : "",
    icon: "/icon.svg",
    badge: "/icon.svg",
    tag: typeof payload.id === "string" ? payload.id : undefined,
    timestamp: payload.createdAt ? Date.parse(payload.createdAt) : Date.now(),
    data: { url: sameOriginPath(payload.url), id: payload.id, type: payload.type },
  };
  // A lost pet's photo (always a path of this app).
  if (typeof payload.image === "string" && payload.image) options.image = sameOriginPath(payload.image);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = sameOriginPath(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        const url = new URL(client.url);
        if (url.origin === self.location.origin && url.pathname === new URL(path, self.location.origin).pathname) {
          return client.focus();
        }
      }
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin && "navigate" in client) {
          await client.focus();
          return client.navigate(path);
        }
      }
      return clients.openWindow(path);
    })(),
  );
});

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
