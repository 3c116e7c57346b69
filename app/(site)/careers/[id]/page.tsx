import type { Metadata } from "next";
import { Breadcrumb } from "@/components/site/breadcrumb";
import { notFound } from "next/navigation";
import { cache } from "react";
import { positionTypeLabels } from "@/components/careers/labels";
import { Markdown } from "@/components/content/markdown";
import "@/components/content/markdown-prose.css";
import { SERVICE_NAME } from "@/components/site-links";
import { careerEndpoints } from "@/lib/http/endpoints/content";
import { optionalUserContext } from "@/lib/http/page-context";
import { pageParams } from "@/lib/http/page-input";
import { getOpenPosition } from "@/lib/services/content";
import { NotFoundError } from "@/lib/services/errors";

type Props = { params: Promise<{ id: string }> };

/** The open position, or the 404 page for a closed, unknown or malformed id. */
const loadPosition = cache(async (rawId: string) => {
  const { id } = await pageParams(careerEndpoints.get, { id: rawId });
  try {
    return await getOpenPosition(await optionalUserContext(), id);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const position = await loadPosition((await params).id);
  const description = `${position.title} at ${SERVICE_NAME}: ${position.department}, ${position.location}, ${positionTypeLabels[position.type].toLowerCase()}.`;
  return { title: position.title, description, alternates: { canonical: `/careers/${position.id}` }, openGraph: { title: position.title, description, type: "website", url: `/careers/${position.id}` } };
}

export default async function PositionPage({ params }: Props) {
  const position = await loadPosition((await params).id);
  const byMail = position.applyUrl.toLowerCase().startsWith("mailto:");

  return (
    <article className="container-page max-w-3xl py-6 sm:py-10">
      <Breadcrumb parent={{ href: "/careers", label: "Careers" }} current={position.title} />
      <header className="mt-5">
        <h1 className="text-3xl font-bold tracking-tight break-words text-ink sm:text-4xl">{position.title}</h1>
        <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-ink">
          <dt className="font-semibold">Department</dt>
          <dd>{position.department}</dd>
          <dt className="font-semibold">Location</dt>
          <dd>{position.location}</dd>
          <dt className="font-semibold">Type</dt>
          <dd>{positionTypeLabels[position.type]}</dd>
        </dl>
      </header>
      <Markdown source={position.description} className="markdown-prose mt-8" />
      {position.requirements.length ? (
        <section aria-labelledby="requirements-heading" className="mt-8">
          <h2 id="requirements-heading" className="text-xl font-semibold text-ink">
            What we are looking for
          </h2>
          <ul className="mt-3 list-disc space-y-1.5 pl-6 text-ink">
            {position.requirements.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {position.benefits.length ? (
        <section aria-labelledby="benefits-heading" className="mt-8">
          <h2 id="benefits-heading" className="text-xl font-semibold text-ink">
            What we offer
          </h2>
          <ul className="mt-3 list-disc space-y-1.5 pl-6 text-ink">
            {position.benefits.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="mt-10 flex flex-col gap-2 rounded-xl border border-line bg-canvas p-5">
        <p className="font-semibold text-ink">Interested?</p>
        <a href={position.applyUrl} className="btn-primary self-start" rel={byMail ? undefined : "noopener noreferrer"}>
          Apply for this position<span className="sr-only">: {position.title}</span>
        </a>
        <p className="text-sm text-muted">{byMail ? "Opens your e-mail app." : "Opens our application form."}</p>
      </div>
    </article>
  );
}
