import { LockIcon } from "@/components/icons";

const privacyPoints = [
  "Your e-mail address, phone number and home address are never on the tag page unless you choose to show a contact.",
  "Messages travel through the service: finders reach you without learning who you are.",
  "A conversation can only be opened through the private link its finder receives.",
  "Each profile is public or private, and you can change what it shows at any time.",
  "You see every scan of your tags in your dashboard, so you know when one was found.",
] as const;

/** What stays private and why (the `#privacy` anchor). */
export function Privacy() {
  return (
    <section id="privacy" aria-labelledby="privacy-heading" className="scroll-mt-4 bg-canvas py-14 sm:py-20">
      <div className="container-page grid gap-10 lg:grid-cols-[1fr_1.4fr]">
        <div>
          <span className="inline-flex h-12 w-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
            <LockIcon className="h-7 w-7" />
          </span>
          <h2 id="privacy-heading" className="mt-4 text-3xl font-bold tracking-tight text-ink">
            Private by design
          </h2>
          <p className="mt-4 text-muted">
            A tag should help the honest finder, not tell strangers where you live. That is why the finder talks to
            the service, and the service talks to you.
          </p>
        </div>
        <ul className="space-y-4">
          {privacyPoints.map((point) => (
            <li key={point} className="flex gap-3 rounded-lg bg-white p-4 text-ink">
              <CheckIcon />
              <span>{point}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-7.5 7.5a1 1 0 0 1-1.4 0L3.3 9.7a1 1 0 1 1 1.4-1.4l3.8 3.8 6.8-6.8a1 1 0 0 1 1.4 0z"
      />
    </svg>
  );
}
