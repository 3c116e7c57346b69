import type { Metadata } from "next";
import Link from "next/link";
import { positionTypeLabels } from "@/components/careers/labels";
import { SERVICE_NAME } from "@/components/site-links";
import { optionalUserContext } from "@/lib/http/page-context";
import { listOpenPositions, type PositionListItem } from "@/lib/services/content";

export const metadata: Metadata = {
  title: "Careers",
  description: `Work at ${SERVICE_NAME}: open positions in engineering, design and customer experience.`,
  alternates: { canonical: "/careers" },
  openGraph: { title: `Careers at ${SERVICE_NAME}`, type: "website", url: "/careers" },
};

/** Open positions grouped by department, from the same service as GET /careers. */
export default async function CareersPage() {
  const positions = await listOpenPositions(await optionalUserContext());
  const departments = new Map<string, PositionListItem[]>();
  for (const position of positions) departments.set(position.department, [...(departments.get(position.department) ?? []), position]);

  return (
    <div className="container-page max-w-4xl py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Careers</h1>
      <p className="mt-2 max-w-2xl text-muted">We build the tags and pages that bring lost things home, and we keep both owners and finders safe while doing it. Join us.</p>
      {positions.length === 0 ? (
        <p className="mt-10 rounded-xl border border-line bg-white p-6 text-muted">There are no open positions right now. Please check back later.</p>
      ) : (
        <div className="mt-8 flex flex-col gap-8">
          {[...departments].map(([department, items]) => (
            <section key={department} aria-labelledby={`department-${slugId(department)}`}>
              <h2 id={`department-${slugId(department)}`} className="text-xl font-semibold text-ink">
                {department}
              </h2>
              <ul className="mt-3 flex flex-col gap-3">
                {items.map((position) => (
                  <li key={position.id} className="flex flex-col gap-1 rounded-xl border border-line bg-white p-5 shadow-sm sm:flex-row sm:items-center sm:justify-between sm:gap-4">
                    <Link href={`/careers/${position.id}`} className="text-lg font-semibold text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline">
                      {position.title}
                    </Link>
                    <p className="text-sm text-muted">
                      {position.location} · {positionTypeLabels[position.type]}
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}

function slugId(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
