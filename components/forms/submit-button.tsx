"use client";

import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useFormStatus } from "react-dom";

const variants = {
  primary: "btn-primary",
  secondary: "btn-secondary",
  danger: "btn bg-danger-700 text-white hover:bg-red-800",
  link: "inline-flex min-h-11 items-center font-semibold text-brand-700 underline hover:text-brand-800",
} as const;

export type ButtonVariant = keyof typeof variants;

export function buttonClass(variant: ButtonVariant = "primary"): string {
  return variants[variant];
}

/**
 * A submit button that says so while its form's action runs. It stays focusable while pending
 * (aria-disabled rather than disabled, so keyboard focus is not thrown to the page) and ignores
 * clicks until the action finishes.
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
  className,
  onClick,
  ...rest
}: { children: ReactNode; pendingLabel?: ReactNode; variant?: ButtonVariant } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "children">) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      aria-disabled={pending || undefined}
      onClick={(event) => {
        if (pending) event.preventDefault();
        else onClick?.(event);
      }}
      className={`${variants[variant]} aria-disabled:cursor-wait aria-disabled:opacity-80 ${className ?? ""}`}
      {...rest}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
