"use client";

import Link from "next/link";
import { CartIcon } from "@/components/icons";
import { cartCount } from "@/lib/shop/cart";
import { useCart } from "./cart-store";

/** The header's cart: an icon with the number of units, named for screen readers ("Cart, 3 items"). */
export function CartLink() {
  const count = cartCount(useCart());
  const label = count === 0 ? "Cart, empty" : `Cart, ${count} ${count === 1 ? "item" : "items"}`;
  return (
    <Link href="/shop/cart" aria-label={label} className="relative inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-ink hover:bg-brand-50 hover:text-brand-800">
      <CartIcon />
      {count > 0 ? (
        <span aria-hidden="true" data-cart-count="" className="absolute top-0.5 right-0 min-w-5 rounded-full bg-brand-700 px-1.5 text-center text-xs leading-5 font-bold text-white">
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}
