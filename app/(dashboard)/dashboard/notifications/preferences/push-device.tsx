"use client";

import { useEffect, useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { buttonClass } from "@/components/forms/submit-button";

type Status = "checking" | "unsupported" | "off" | "on" | "working";

function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The VAPID key as the bytes PushManager.subscribe wants (it arrives URL-safe base64). */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64Url + "=".repeat((4 - (base64Url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A POST or GET to our API with the session cookie; the browser adds Origin, which cookie POSTs need. */
async function api<T>(path: string, init?: { method: "POST"; body: unknown }): Promise<T> {
  const response = await fetch(path, {
    method: init?.method ?? "GET",
    credentials: "same-origin",
    headers: init ? { "Content-Type": "application/json" } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
  });
  const payload = (await response.json().catch(() => null)) as { success?: boolean; data?: T; error?: { message?: string } } | null;
  if (!response.ok || !payload?.success) throw new Error(payload?.error?.message ?? `The server answered ${response.status}.`);
  return payload.data as T;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * "Enable push on this device": registers /sw.js, asks for permission, subscribes with the server's
 * VAPID key (or reuses the browser's subscription) and sends it to the API, which ties it to this
 * sign-in. "Disable" removes it there and in the browser. `registeredEndpoints`: this sign-in's
 * subscriptions as the server has them.
 */
export function PushDevice({ registeredEndpoints, offerOnly = false }: { registeredEndpoints: string[]; offerOnly?: boolean }) {
  const [status, setStatus] = useState<Status>("checking");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      if (!pushSupported()) return "unsupported" as const;
      // On only when the server has this browser's subscription for this sign-in: after signing out
      // (or another account used this browser) the browser still holds one the server no longer uses.
      const subscription = await currentSubscription();
      return subscription && Notification.permission === "granted" && registeredEndpoints.includes(subscription.endpoint) ? ("on" as const) : ("off" as const);
    })()
      .catch(() => "off" as const)
      .then((next) => {
        if (!cancelled) setStatus(next);
      });
    return () => {
      cancelled = true;
    };
  }, [registeredEndpoints]);

  async function enable() {
    setStatus("working");
    setError(null);
    try {
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setStatus("off");
        setError(permission === "denied" ? "Notifications are blocked for this site. Allow them in your browser's site settings, then try again." : "Push was not enabled: the browser did not get permission.");
        return;
      }
      const { publicKey } = await api<{ publicKey: string }>("/api/v1/notifications/vapid-public-key");
      const existing = await registration.pushManager.getSubscription();
      const subscription = existing ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
      const json = subscription.toJSON();
      await api("/api/v1/notifications/subscribe", { method: "POST", body: { subscription: { endpoint: json.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } } } });
      setStatus("on");
    } catch (failure) {
      setStatus("off");
      setError(`Push could not be enabled. ${failure instanceof Error ? failure.message : ""}`.trim());
    }
  }

  async function disable() {
    setStatus("working");
    setError(null);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await api("/api/v1/notifications/unsubscribe", { method: "POST", body: { endpoint: subscription.endpoint } });
        await subscription.unsubscribe();
      }
      setStatus("off");
    } catch (failure) {
      setStatus("on");
      setError(`Push could not be turned off. ${failure instanceof Error ? failure.message : ""}`.trim());
    }
  }

  // Offered elsewhere (lost mode): shown only while push is off here, and kept after enabling so the new state is announced.
  const [offered, setOffered] = useState(false);
  if (offerOnly && status === "off" && !offered) setOffered(true);
  if (offerOnly && !offered) return null;

  return (
    <div className="flex flex-col gap-4" data-testid={offerOnly ? "push-offer" : undefined}>
      {offerOnly ? <p className="text-sm text-ink">Get an alert on this device the moment someone scans the tag or writes to you, even when this site is closed.</p> : null}
      {/* The state line is the live region: switching push on or off is announced by its new state. */}
      <p role="status" className="text-sm font-semibold text-ink" data-push-status={status}>
        {status === "checking" && "Checking this device…"}
        {status === "unsupported" && "This browser does not support push notifications."}
        {status === "off" && "Push notifications are off on this device."}
        {status === "on" && "Push notifications are on for this device."}
        {status === "working" && "Working…"}
      </p>
      {error ? <FormAlert tone="error" title={error} /> : null}
      {status === "on" ? (
        <div>
          <button type="button" className={`${buttonClass("secondary")} w-full sm:w-auto`} onClick={() => void disable()}>
            Disable push on this device
          </button>
        </div>
      ) : status !== "unsupported" ? (
        <div>
          <button
            type="button"
            className={`${buttonClass("primary")} w-full aria-disabled:cursor-wait aria-disabled:opacity-80 sm:w-auto`}
            aria-disabled={status !== "off" || undefined}
            onClick={() => {
              if (status === "off") void enable();
            }}
          >
            Enable push on this device
          </button>
        </div>
      ) : null}
    </div>
  );
}
