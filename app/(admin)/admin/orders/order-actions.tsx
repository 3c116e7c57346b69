"use client";

import { useActionState, useId, useRef } from "react";
import { FieldErrorList, fieldDescriptionIds, TextField } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { refundOrderAction, setOrderStatusAction } from "./actions";

export interface OrderActionsProps {
  orderId: string;
  reference: string;
  /** The moves this order allows now (the page computes them from the service's table). */
  moves: { processing: boolean; ship: boolean; delivered: boolean; refund: boolean };
  totalText: string;
  buyer: string;
  /** Shipped already: a refund then leaves every tag with the buyer (they hold the printed tags). */
  shipped: boolean;
  view: { status?: string; cursor?: string };
}

function Hidden({ orderId, view }: Pick<OrderActionsProps, "orderId" | "view">) {
  return (
    <>
      <input type="hidden" name="orderId" value={orderId} />
      {view.status ? <input type="hidden" name="view-status" value={view.status} /> : null}
      {view.cursor ? <input type="hidden" name="view-cursor" value={view.cursor} /> : null}
    </>
  );
}

/**
 * The admin's moves on one order, only those its state allows. Each succeeds with a redirect to the list
 * (whose notice tells the outcome); a refused form stays here with its messages beside the fields.
 */
export function OrderActions({ orderId, reference, moves, totalText, buyer, shipped, view }: OrderActionsProps) {
  const [statusState, statusAction] = useActionState<FormState, FormData>(setOrderStatusAction, idleFormState);
  const [refundState, refundAction] = useActionState<FormState, FormData>(refundOrderAction, idleFormState);
  const shipRef = useRef<HTMLFormElement>(null);
  const refundRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(shipRef, statusState);
  useFocusOnResult(refundRef, refundState);

  if (!moves.processing && !moves.ship && !moves.delivered && !moves.refund) {
    return <p className="text-sm text-muted">No action applies to an order in this state.</p>;
  }
  const confirmErrors = fieldError(refundState, "confirm");

  return (
    <div className="flex flex-col gap-5">
      {statusState.status === "error" && !moves.ship ? <FormResultAlerts state={statusState} otherErrors={[]} /> : null}
      {moves.processing || moves.delivered ? (
        <div className="flex flex-wrap gap-3">
          {moves.processing ? (
            <form action={statusAction} aria-label={`Mark order ${reference} processing`}>
              <Hidden orderId={orderId} view={view} />
              <input type="hidden" name="status" value="PROCESSING" />
              <SubmitButton variant="secondary" pendingLabel="Saving…">
                Mark processing
              </SubmitButton>
            </form>
          ) : null}
          {moves.delivered ? (
            <form action={statusAction} aria-label={`Mark order ${reference} delivered`}>
              <Hidden orderId={orderId} view={view} />
              <input type="hidden" name="status" value="DELIVERED" />
              <SubmitButton variant="secondary" pendingLabel="Saving…">
                Mark delivered
              </SubmitButton>
            </form>
          ) : null}
        </div>
      ) : null}

      {moves.ship ? (
        <form ref={shipRef} action={statusAction} aria-label={`Ship order ${reference}`} className="flex flex-col gap-4 rounded-lg border border-line bg-canvas p-4" noValidate>
          <h4 className="font-semibold text-ink">Ship</h4>
          <FormResultAlerts state={statusState} otherErrors={[]} />
          <Hidden orderId={orderId} view={view} />
          <input type="hidden" name="status" value="SHIPPED" />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id={`${id}-tracking`}
              name="trackingNumber"
              label="Tracking number"
              hint="Required; the buyer gets it by e-mail."
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
              defaultValue={statusState.values?.trackingNumber ?? ""}
              errors={fieldError(statusState, "trackingNumber")}
            />
            <TextField
              id={`${id}-carrier`}
              name="carrier"
              label="Carrier"
              optional
              maxLength={100}
              autoComplete="off"
              defaultValue={statusState.values?.carrier ?? ""}
              errors={fieldError(statusState, "carrier")}
            />
          </div>
          <div>
            <SubmitButton pendingLabel="Shipping…" className="w-full sm:w-auto">
              Mark shipped
            </SubmitButton>
          </div>
        </form>
      ) : null}

      {moves.refund ? (
        <details className="rounded-lg border border-line p-4">
          <summary className="cursor-pointer font-semibold text-danger-700">Refund…</summary>
          <form ref={refundRef} action={refundAction} aria-label={`Refund order ${reference}`} className="mt-3 flex flex-col gap-3" noValidate>
            <FormResultAlerts state={refundState} otherErrors={[]} />
            <Hidden orderId={orderId} view={view} />
            <p className="text-sm text-ink">
              The whole {totalText} goes back to {buyer}&apos;s payment method.{" "}
              {shipped
                ? "The order has shipped, so every tag it added stays with the buyer."
                : "Tags the order added that nobody set up yet are withdrawn; tags already set up stay with the buyer."}{" "}
              The buyer&apos;s refund e-mail says which. This cannot be undone.
            </p>
            <FieldErrorList id={`${id}-confirm-error`} errors={confirmErrors} />
            <label className="flex items-start gap-2 text-sm font-semibold text-ink">
              <input
                type="checkbox"
                name="confirm"
                className="mt-0.5 h-5 w-5 shrink-0"
                aria-invalid={confirmErrors ? true : undefined}
                aria-describedby={fieldDescriptionIds(`${id}-confirm`, false, Boolean(confirmErrors))}
              />
              Yes, refund {totalText} to the buyer
            </label>
            <div>
              <SubmitButton variant="danger" pendingLabel="Refunding…">
                Refund the order
              </SubmitButton>
            </div>
          </form>
        </details>
      ) : null}
    </div>
  );
}
