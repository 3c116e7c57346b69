"use client";

import { useState, useSyncExternalStore } from "react";

export interface ShareLocationTexts {
  button: string;
  pending: string;
  sent: string;
  denied: string;
  unavailable: string;
  failed: string;
  /** Shown instead of the button until the page's JavaScript runs (and for good when it is off). */
  needsScript: string;
}

const noSubscription = () => () => {};

type Phase = "idle" | "pending" | "sent" | "denied" | "unavailable" | "failed";

/**
 * Asks the browser for the phone's position only when the finder taps, then sends it to
 * POST /api/v1/scan/:encryptedId/location. Nothing is read before the tap. Without JavaScript the button
 * could do nothing, so the server renders the explanation and the button replaces it once hydrated.
 */
export function ShareLocation({ encryptedId, texts }: { encryptedId: string; texts: ShareLocationTexts }) {
  const [phase, setPhase] = useState<Phase>("idle");
  // False in the server's HTML, true once React runs in the browser.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);

  function share() {
    if (!("geolocation" in navigator)) {
      setPhase("unavailable");
      return;
    }
    setPhase("pending");
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        try {
          const response = await fetch(`/api/v1/scan/${encodeURIComponent(encryptedId)}/location`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              latitude: position.coords.latitude,
              longitude: position.coords.longitude,
              accuracy: Math.min(100_000, Math.round(position.coords.accuracy)),
            }),
          });
          setPhase(response.ok ? "sent" : "failed");
        } catch {
          setPhase("failed");
        }
      },
      (error) => setPhase(error.code === error.PERMISSION_DENIED ? "denied" : "unavailable"),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  }

  if (!hydrated) return <p className="text-sm text-muted">{texts.needsScript}</p>;
  const message = phase === "idle" || phase === "pending" ? "" : texts[phase];
  return (
    <div className="flex flex-col gap-2">
      <button type="button" className="btn-secondary w-full sm:w-auto" onClick={share} aria-disabled={phase === "pending" || undefined} disabled={phase === "sent"}>
        {phase === "pending" ? texts.pending : texts.button}
      </button>
      <p role="status" className={`text-sm ${phase === "sent" ? "text-green-900" : "text-muted"}`}>
        {message}
      </p>
    </div>
  );
}
