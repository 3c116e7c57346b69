"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";

export interface ShareLocationTexts {
  button: string;
  /** The button's words once a place was sent, in a conversation (where the finder may share again as they move). */
  again?: string;
  pending: string;
  sent: string;
  denied: string;
  unavailable: string;
  failed: string;
  /** Shown instead of the button until the page's JavaScript runs (and for good when it is off). */
  needsScript: string;
}

/** Where the place goes: the tag's owner from the finder page, or the finder's own conversation. */
export type ShareLocationTarget = { encryptedId: string } | { threadToken: string };

const noSubscription = () => () => {};

type Phase = "idle" | "pending" | "sent" | "denied" | "unavailable" | "failed";

function endpointOf(target: ShareLocationTarget): string {
  return "threadToken" in target ? `/api/v1/scan/thread/${encodeURIComponent(target.threadToken)}/location` : `/api/v1/scan/${encodeURIComponent(target.encryptedId)}/location`;
}

/**
 * Asks the browser for the phone's position only when the finder taps, then sends it to
 * POST /api/v1/scan/:encryptedId/location (the finder page) or POST /api/v1/scan/thread/:token/location
 * (the conversation, which then shows it as a message: the page is re-rendered at once). Nothing is read
 * before the tap. Without JavaScript the button could do nothing, so the server renders the explanation
 * (write the place in the message instead) and the button replaces it once hydrated.
 */
export function ShareLocation({ texts, ...target }: ShareLocationTarget & { texts: ShareLocationTexts }) {
  const [phase, setPhase] = useState<Phase>("idle");
  const router = useRouter();
  // False in the server's HTML, true once React runs in the browser.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const inConversation = "threadToken" in target;
  const endpoint = endpointOf(target as ShareLocationTarget);

  function share() {
    if (phase === "pending") return;
    if (!("geolocation" in navigator)) {
      setPhase("unavailable");
      return;
    }
    setPhase("pending");
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        try {
          const response = await fetch(endpoint, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              latitude: position.coords.latitude,
              longitude: position.coords.longitude,
              accuracy: Math.min(100_000, Math.round(position.coords.accuracy)),
            }),
          });
          setPhase(response.ok ? "sent" : "failed");
          // The conversation shows the new message (its live stream would too, a moment later).
          if (response.ok && inConversation) router.refresh();
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
  const label = phase === "pending" ? texts.pending : phase === "sent" && texts.again ? texts.again : texts.button;
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className="btn-secondary w-full sm:w-auto"
        onClick={share}
        aria-disabled={phase === "pending" || undefined}
        // On the finder page one place is enough; in a conversation the finder may share again as they move.
        disabled={phase === "sent" && !inConversation}
      >
        {label}
      </button>
      <p role="status" className={`text-sm ${phase === "sent" ? "text-green-900" : "text-muted"}`}>
        {message}
      </p>
    </div>
  );
}
