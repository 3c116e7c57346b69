"use client";

import Link from "next/link";
import { useActionState, useEffect, useId } from "react";
import { useCart, useCartReady, updateCart } from "@/components/shop/cart-store";
import { FormAlert } from "@/components/forms/form-alert";
import { TextField } from "@/components/forms/field";
import { SubmitButton } from "@/components/forms/submit-button";
import { fieldError } from "@/lib/forms/form-state";
import { formatMoney } from "@/lib/i18n/money";
import { estimateTotal, lineKey, MAX_LINE_QUANTITY, orderItems, removeLine, setLineQuantity, type CartLine } from "@/lib/shop/cart";
import { placeOrderAction } from "./actions";
import { COUNTRIES } from "./countries";
import type { PlaceOrderState } from "./place-order-state";

/** The address of the buyer's last order, to start the checkout from (null on a first order). */
export type SavedAddress = Partial<Record<"name" | "line1" | "line2" | "city" | "state" | "postalCode" | "country", string>> | null;

export interface CatalogueEntry {
  id: string;
  slug: string;
  name: string;
  price: number;
  currency: string;
  inStock: boolean;
  tagPack: number;
  image: string | null;
  variants: { id: string; name: string; price: number; image: string | null }[];
}

interface ShownLine extends CartLine {
  key: string;
  /** Why this line cannot be ordered as it is, from the catalogue now (the order's answer may add more). */
  problem: string | null;
}

/** The stored lines with today's catalogue: current prices, and what is sold out or gone. */
function withCatalogue(lines: CartLine[], catalogue: Map<string, CatalogueEntry>): ShownLine[] {
  return lines.map((line) => {
    const product = catalogue.get(line.productId);
    if (!product) return { ...line, key: lineKey(line), problem: "This product is no longer sold. Remove it to check out." };
    const variant = line.variantId ? product.variants.find((candidate) => candidate.id === line.variantId) : undefined;
    if (line.variantId && !variant) return { ...line, name: product.name, key: lineKey(line), problem: "This choice is no longer sold. Remove it and choose again." };
    return {
      ...line,
      name: product.name,
      slug: product.slug,
      variantName: variant?.name ?? null,
      unitPrice: variant?.price ?? product.price,
      currency: product.currency,
      image: variant?.image ?? line.image ?? product.image,
      key: lineKey(line),
      problem: product.inStock ? null : "Out of stock at the moment. Remove it to check out.",
    };
  });
}

const initialState: PlaceOrderState = { status: "idle" };

/** The order's answers about lines still as they were submitted: once a line's quantity changes, its old message goes. */
function currentLineErrors(state: PlaceOrderState, lines: CartLine[]): Record<string, string> {
  if (state.status !== "error" || !state.lineErrors) return {};
  let submitted: unknown;
  try {
    submitted = JSON.parse(state.values?.items ?? "[]");
  } catch {
    return {};
  }
  if (!Array.isArray(submitted)) return {};
  const quantities = new Map((submitted as { productId?: string; variantId?: string; quantity?: number }[]).map((item) => [`${item.productId}:${item.variantId ?? ""}`, item.quantity]));
  const errors: Record<string, string> = {};
  for (const line of lines) {
    const key = lineKey(line);
    const message = state.lineErrors[key];
    if (message && quantities.get(key) === line.quantity) errors[key] = message;
  }
  return errors;
}

export function CartView({ catalogue, signedIn, savedAddress = null }: { catalogue: CatalogueEntry[]; signedIn: boolean; savedAddress?: SavedAddress }) {
  const ready = useCartReady();
  const stored = useCart();
  const byId = new Map(catalogue.map((product) => [product.id, product]));
  const lines = withCatalogue(stored, byId);
  const [state, formAction] = useActionState(placeOrderAction, initialState);
  const placed = state.status === "success" && state.orderId ? state : null;

  useEffect(() => {
    if (!placed) return;
    // The order holds the units now: the cart's work is done, whatever happens at the provider.
    updateCart(() => []);
    window.location.assign(placed.checkoutUrl ?? `/dashboard/orders/${placed.orderId}`);
  }, [placed]);

  if (placed) {
    return (
      <FormAlert tone="success" className="mt-6" title={placed.message}>
        <Link href={`/dashboard/orders/${placed.orderId}`} className="font-semibold underline">
          Open your order
        </Link>
      </FormAlert>
    );
  }
  if (!ready) return <p className="mt-6 text-muted">Opening your cart…</p>;
  if (lines.length === 0) {
    return (
      <div className="mt-6 rounded-xl border border-line bg-white p-6">
        <p className="text-ink">Your cart is empty.</p>
        <Link href="/shop" className="btn-primary mt-4">
          Browse the shop
        </Link>
      </div>
    );
  }

  const currencies = new Set(lines.map((line) => line.currency));
  const currency = lines[0]!.currency;
  const blocked = lines.some((line) => line.problem);
  const lineErrors = currentLineErrors(state, stored);

  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
      <section aria-labelledby="lines-heading" className="rounded-xl border border-line bg-white p-4 sm:p-6">
        <h2 id="lines-heading" className="sr-only">
          Items
        </h2>
        <ul aria-label="Items in your cart" className="flex flex-col divide-y divide-line">
          {lines.map((line) => (
            <CartLineRow key={line.key} line={line} error={lineErrors[line.key] ?? line.problem} />
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap items-baseline justify-between gap-2 border-t border-line pt-4">
          <p className="text-ink">
            <span className="font-semibold">Estimated total</span>
            <span className="block text-sm text-muted">Shipping is free. Your order&apos;s total is confirmed when you place it.</span>
          </p>
          <p className="text-2xl font-bold text-ink" data-testid="cart-estimate">
            {currencies.size === 1 ? formatMoney(estimateTotal(lines), currency) : "—"}
          </p>
        </div>
        {currencies.size > 1 ? <p className="mt-2 text-sm text-danger-700">These items are priced in different currencies: order them separately.</p> : null}
        <Link href="/shop" className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
          Continue shopping
        </Link>
      </section>

      <section aria-labelledby="checkout-heading" className="rounded-xl border border-line bg-white p-4 sm:p-6">
        <h2 id="checkout-heading" className="text-lg font-semibold text-ink">
          Checkout
        </h2>
        {signedIn ? (
          <CheckoutForm lines={lines} state={state} formAction={formAction} disabled={blocked || currencies.size > 1} savedAddress={savedAddress} />
        ) : (
          <div className="mt-3 flex flex-col gap-3">
            <p className="text-muted">Sign in to place your order: the tags you buy join your account. Your cart stays here.</p>
            <Link href="/login?next=%2Fshop%2Fcart" className="btn-primary">
              Sign in to check out
            </Link>
            <Link href="/register?next=%2Fshop%2Fcart" className="btn-secondary">
              Create an account
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}

function CartLineRow({ line, error }: { line: ShownLine; error: string | null }) {
  const id = useId();
  const title = `${line.name}${line.variantName ? `, ${line.variantName}` : ""}`;
  return (
    <li className="flex gap-3 py-4 first:pt-0" data-cart-line={line.key}>
      {line.image ? (
        // eslint-disable-next-line @next/next/no-img-element -- the app's own small SVGs or an admin's https picture
        <img src={line.image} alt="" className="h-16 w-16 shrink-0 rounded-lg border border-line bg-canvas object-contain p-1" />
      ) : (
        <div aria-hidden="true" className="h-16 w-16 shrink-0 rounded-lg border border-dashed border-slate-400 bg-canvas" />
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <p className="font-semibold text-ink">
            <Link href={`/shop/${line.slug}`} className="underline-offset-4 hover:underline">
              {line.name}
            </Link>
            {line.variantName ? <span className="block text-sm font-normal text-muted">{line.variantName}</span> : null}
          </p>
          <p className="font-semibold text-ink">{formatMoney(Math.round(line.unitPrice * 100 * line.quantity) / 100, line.currency)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={`${id}-quantity`} className="text-sm text-muted">
            Quantity<span className="sr-only"> of {title}</span>
          </label>
          <input
            id={`${id}-quantity`}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_LINE_QUANTITY}
            value={line.quantity}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              const quantity = Number(event.target.value);
              if (Number.isFinite(quantity) && quantity >= 1) updateCart((lines) => setLineQuantity(lines, line.key, quantity));
            }}
            className="min-h-11 w-20 rounded-lg border border-slate-500 bg-white px-2 py-1 text-base text-ink aria-invalid:border-danger-700"
          />
          <span className="text-sm text-muted">× {formatMoney(line.unitPrice, line.currency)}</span>
          <button type="button" onClick={() => updateCart((lines) => removeLine(lines, line.key))} className="ml-auto inline-flex min-h-11 items-center font-semibold text-danger-700 underline">
            Remove<span className="sr-only"> {title}</span>
          </button>
        </div>
        {error ? (
          <p id={`${id}-error`} role="alert" className="rounded-md border-l-4 border-danger-700 bg-danger-50 px-3 py-2 text-sm text-danger-700">
            {error}
          </p>
        ) : null}
      </div>
    </li>
  );
}

function CheckoutForm({
  lines,
  state,
  formAction,
  disabled,
  savedAddress,
}: {
  lines: ShownLine[];
  state: PlaceOrderState;
  formAction: (formData: FormData) => void;
  disabled: boolean;
  savedAddress: SavedAddress;
}) {
  const id = useId();
  // What was just submitted, else the last order's address: a returning buyer does not type it again.
  const value = (name: string) => (state.values ? state.values[name] : savedAddress?.[name as keyof NonNullable<SavedAddress>]);
  const field = (name: string) => ({ id: `${id}-${name}`, name, errors: fieldError(state, name), defaultValue: value(name) });
  const countryErrors = fieldError(state, "country");

  return (
    <form action={formAction} className="mt-3 flex flex-col gap-4" aria-describedby={disabled ? `${id}-blocked` : undefined}>
      <input type="hidden" name="items" value={JSON.stringify(orderItems(lines))} />
      {state.status === "error" && state.message ? <FormAlert tone="error" title={state.message} /> : null}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 font-semibold text-ink">Shipping address</legend>
        <TextField {...field("name")} label="Recipient's name" autoComplete="name" required maxLength={200} />
        <TextField {...field("line1")} label="Address" autoComplete="address-line1" required maxLength={200} />
        <TextField {...field("line2")} label="Apartment, suite, etc." optional autoComplete="address-line2" maxLength={200} />
        <div className="grid grid-cols-2 gap-3">
          <TextField {...field("city")} label="City" autoComplete="address-level2" required maxLength={100} />
          <TextField {...field("postalCode")} label="Postal code" autoComplete="postal-code" required maxLength={20} />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <TextField {...field("state")} label="State or region" optional autoComplete="address-level1" maxLength={100} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-country`} className="text-sm font-semibold text-ink">
              Country
            </label>
            {countryErrors ? (
              <p id={`${id}-country-error`} className="text-sm font-semibold text-danger-700">
                {countryErrors[0]}
              </p>
            ) : null}
            <select
              // React resets a form after its action: remounted, the select takes the echoed country again.
              key={value("country") ?? ""}
              id={`${id}-country`}
              name="country"
              required
              autoComplete="country"
              defaultValue={value("country") ?? ""}
              aria-invalid={countryErrors ? true : undefined}
              aria-describedby={countryErrors ? `${id}-country-error` : undefined}
              className="min-h-11 w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-ink"
            >
              <option value="" disabled>
                Choose…
              </option>
              {COUNTRIES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      {disabled ? (
        <p id={`${id}-blocked`} className="text-sm text-danger-700">
          Fix the items marked in your cart to check out.
        </p>
      ) : null}
      <SubmitButton pendingLabel="Placing your order…" disabled={disabled}>
        Place order and pay
      </SubmitButton>
      <p className="text-sm text-muted">You pay on the payment provider&apos;s page next. The units are held for you once the order is placed.</p>
    </form>
  );
}
