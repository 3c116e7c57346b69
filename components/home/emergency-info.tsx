import { MedicalIcon } from "@/components/icons";

/** The emergency information a first responder can open, with an example. */
export function EmergencyInfo() {
  return (
    <section aria-labelledby="emergency-heading" className="py-14 sm:py-20">
      <div className="container-page grid gap-10 lg:grid-cols-2 lg:items-center">
        <div>
          <span className="inline-flex h-12 w-12 items-center justify-center rounded-lg bg-danger-50 text-danger-700">
            <MedicalIcon className="h-7 w-7" />
          </span>
          <h2 id="emergency-heading" className="mt-4 text-3xl font-bold tracking-tight text-ink">
            Emergency information for first responders
          </h2>
          <p className="mt-4 text-muted">
            Add your blood type, allergies, conditions, medications, your doctor and the people to call. A paramedic or
            passer-by who scans your tag can open this information without an account, even when the rest of your
            profile is private, because in an emergency minutes matter.
          </p>
          <p className="mt-4 text-muted">You decide what goes in it, and you can change or remove it at any time.</p>
        </div>
        <figure className="rounded-xl border border-danger-700/30 bg-danger-50 p-6">
          <dl className="grid gap-3 sm:grid-cols-2">
            {[
              ["Blood type", "O negative"],
              ["Allergies", "Penicillin"],
              ["Conditions", "Type 1 diabetes"],
              ["Emergency contact", "Sam (partner)"],
            ].map(([term, value]) => (
              <div key={term} className="rounded-lg bg-white p-4">
                <dt className="text-sm font-medium text-muted">{term}</dt>
                <dd className="mt-1 font-semibold text-ink">{value}</dd>
              </div>
            ))}
          </dl>
          <figcaption className="mt-3 text-sm text-danger-700">Example of what a first responder sees.</figcaption>
        </figure>
      </div>
    </section>
  );
}
