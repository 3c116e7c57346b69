import { SERVICE_NAME } from "./site-links";

/** The mark: a tag with a QR-ish corner. Decorative; the name beside it carries the meaning. */
export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="28" height="28" rx="7" fill="#1d4ed8" />
      <rect x="7" y="7" width="8" height="8" rx="1.5" fill="#fff" />
      <rect x="9.5" y="9.5" width="3" height="3" fill="#1d4ed8" />
      <rect x="17" y="7" width="3" height="3" fill="#fff" />
      <rect x="22" y="12" width="3" height="3" fill="#fff" />
      <rect x="7" y="17" width="3" height="3" fill="#fff" />
      <rect x="12" y="22" width="3" height="3" fill="#fff" />
      <circle cx="21" cy="21" r="4" fill="none" stroke="#fff" strokeWidth="2" />
    </svg>
  );
}

export function Logo() {
  return (
    <span className="inline-flex items-center gap-2 text-lg font-bold tracking-tight text-ink">
      <LogoMark />
      {SERVICE_NAME}
    </span>
  );
}
