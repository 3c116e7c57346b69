"use client";

import { useSyncExternalStore } from "react";
import { CART_STORAGE_KEY, parseCart, type CartLine } from "@/lib/shop/cart";

/**
 * The cart in localStorage as a React store: every component reading it (the header's count, the cart
 * page) follows changes from this tab (a custom event) and from other tabs (the storage event). The
 * server renders an empty cart; `useCartReady` says when the stored one has been read.
 */
const CHANGED = "tag-service:cart-changed";
const EMPTY: CartLine[] = [];
let cachedRaw: string | null = null;
let cachedLines: CartLine[] = EMPTY;
/** The cart when storage refuses writes (private mode, full): it lives as long as the page. */
let memoryRaw: string | null | undefined;

function readRaw(): string | null {
  if (memoryRaw !== undefined) return memoryRaw;
  try {
    return window.localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    return null;
  }
}

function snapshot(): CartLine[] {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedLines = parseCart(raw);
  }
  return cachedLines;
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === CART_STORAGE_KEY) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}

export function useCart(): CartLine[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}

const noSubscription = () => () => {};

/** False during the server render and hydration, true once the browser's cart is read. */
export function useCartReady(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** Replaces the stored cart (an updater of the current lines) and tells every reader. */
export function updateCart(update: (lines: CartLine[]) => CartLine[]): void {
  const next = update(snapshot());
  try {
    if (next.length === 0) window.localStorage.removeItem(CART_STORAGE_KEY);
    else window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(next));
  } catch {
    memoryRaw = next.length === 0 ? null : JSON.stringify(next);
  }
  window.dispatchEvent(new Event(CHANGED));
}
