"use client";

import { startTransition, useActionState, useState, useSyncExternalStore } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { MessageForm } from "@/components/finder/message-form";
import { idleFormState, type FormState } from "@/lib/forms/form-state";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

export interface SightingTexts {
  button: string;
  pending: string;
  denied: string;
  unavailable: string;
  describe: string;
  whereLabel: string;
  whereHint: string;
  whereSend: string;
  sending: string;
}

const noSubscription = () => () => {};

type Phase = "idle" | "locating" | "denied" | "unavailable";

/**
 * "I've seen this pet". With JavaScript: one button that asks the browser for its position (only on the
 * tap) and posts it (sightingAction: the conversation opens with the place on the owner's map), then the
 * conversation; the words form stays folded under it, and unfolds when the browser will not tell where.
 * Without JavaScript the server's HTML is that words form alone ("Where did you see it?"), sent as a message.
 */
export function SightingPanel({ alertId, sightingAction, describeAction, texts }: { alertId: string; sightingAction: FormAction; describeAction: FormAction; texts: SightingTexts }) {
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const [state, dispatch, sending] = useActionState(sightingAction, idleFormState);
  const [phase, setPhase] = useState<Phase>("idle");

  const describeForm = (
    <MessageForm
      action={describeAction}
      formLabel={texts.whereLabel}
      hidden={{ alertId }}
      submitLabel={texts.whereSend}
      pendingLabel={texts.sending}
      fields={[{ name: "where", kind: "textarea", label: texts.whereLabel, hint: texts.whereHint, maxLength: 1800, required: true }]}
    />
  );
  if (!hydrated) return describeForm;

  function share() {
    if (phase === "locating" || sending) return;
    if (!("geolocation" in navigator)) {
      setPhase("unavailable");
      return;
    }
    setPhase("locating");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const form = new FormData();
        form.set("alertId", alertId);
        form.set("latitude", String(position.coords.latitude));
        form.set("longitude", String(position.coords.longitude));
        form.set("accuracy", String(Math.min(100_000, Math.round(position.coords.accuracy))));
        setPhase("idle");
        // The action answers with a redirect to the conversation, or with a message to show here.
        startTransition(() => dispatch(form));
      },
      (error) => setPhase(error.code === error.PERMISSION_DENIED ? "denied" : "unavailable"),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  }

  const busy = phase === "locating" || sending;
  const problem = phase === "denied" ? texts.denied : phase === "unavailable" ? texts.unavailable : state.status === "error" ? (state.message ?? null) : null;
  return (
    <div className="flex flex-col gap-3">
      <button
        type="button"
        onClick={share}
        aria-disabled={busy || undefined}
        className="flex min-h-14 w-full items-center justify-center rounded-xl bg-brand-700 px-4 py-3 text-center text-lg font-bold text-white hover:bg-brand-800 aria-disabled:cursor-wait aria-disabled:opacity-80"
        data-testid="seen-this-pet"
      >
        {busy ? texts.pending : texts.button}
      </button>
      {problem ? <FormAlert tone="error" title={problem} /> : null}
      <details className="rounded-lg border border-line px-4 py-2" open={phase === "denied" || phase === "unavailable" || undefined}>
        <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">{texts.describe}</summary>
        <div className="mt-2 mb-2">{describeForm}</div>
      </details>
    </div>
  );
}
