import type { ReactNode } from "react";

/**
 * The frame of the sign-in, sign-up and password pages: one centred card with the page's heading,
 * a short explanation, the form, and links underneath.
 */
export function AuthCard({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-16">
      <div className="mx-auto w-full max-w-md">
        <div className="rounded-xl border border-line bg-white p-5 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
          {description ? <div className="mt-2 text-muted">{description}</div> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-6 flex flex-col gap-2 text-center text-sm text-muted">{footer}</div> : null}
      </div>
    </div>
  );
}

export const textLinkClass = "font-semibold text-brand-700 underline hover:text-brand-800";

/** The password rules of passwordSchema, as shown next to every new-password field. */
export const passwordRules = "At least 8 characters, with an uppercase letter, a lowercase letter and a number.";
