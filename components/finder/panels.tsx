import type { ReactNode } from "react";

/** A white card on the finder's pages. */
export function FinderCard({ children, labelledBy, className }: { children: ReactNode; labelledBy?: string; className?: string }) {
  return (
    <section aria-labelledby={labelledBy} className={`flex flex-col gap-3 rounded-xl border border-line bg-white p-4 ${className ?? ""}`}>
      {children}
    </section>
  );
}

/** A full-page message on the finder's pages (not set up, not found, try later). */
export function FinderNotice({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <FinderCard labelledBy="finder-notice">
      <h1 id="finder-notice" className="text-xl font-bold text-ink">
        {heading}
      </h1>
      <div className="flex flex-col gap-3 text-ink">{children}</div>
    </FinderCard>
  );
}

/** The three rules every finder should read before meeting anyone. */
export function SafetyAdvice({ heading, points }: { heading: string; points: string[] }) {
  return (
    <FinderCard labelledBy="finder-safety" className="border-amber-300 bg-amber-50">
      <h2 id="finder-safety" className="text-base font-bold text-amber-950">
        {heading}
      </h2>
      <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-amber-950">
        {points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
    </FinderCard>
  );
}

/** The warning shown beside a message that looks like a scam (lib/services/messages/scam-rules.ts). */
export function ScamWarnings({ heading, texts }: { heading: string; texts: string[] }) {
  if (texts.length === 0) return null;
  return (
    <div role="note" className="rounded-lg border-l-4 border-danger-700 bg-danger-50 px-3 py-2 text-sm text-danger-700">
      <p className="font-semibold">{heading}</p>
      <ul className="mt-1 list-disc pl-5">
        {texts.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
