import type { ReactNode } from "react";
import Link from "next/link";
import { AdminHeading } from "@/components/admin/list-filters";
import { FormAlert } from "@/components/forms/form-alert";

/**
 * An admin editor's page (a post, a position; new or existing): the way back to the list, the heading, the
 * notice a save left, the public link when there is one, the editor in its card, then `children` (the
 * delete section).
 */
export function AdminEditorPage({
  back,
  title,
  intro,
  notice,
  publicLink,
  editor,
  children,
}: {
  back: { href: string; label: string };
  title: string;
  intro: string;
  notice?: { tone: "success" | "error" | "info"; text: string } | null;
  publicLink?: { href: string; label: string } | null;
  editor: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <Link href={back.href} className="self-start text-sm font-semibold text-brand-700 underline hover:text-brand-800">
        ← {back.label}
      </Link>
      <AdminHeading title={title} intro={intro} />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      {publicLink ? (
        <p>
          <Link href={publicLink.href} className="font-semibold text-brand-700 underline hover:text-brand-800">
            {publicLink.label}
          </Link>
        </p>
      ) : null}
      <div className="rounded-xl border border-line bg-white p-5 shadow-sm">{editor}</div>
      {children}
    </div>
  );
}

/** A confirmed, permanent delete: closed until opened, one hidden id and one button. */
export function AdminDeleteSection({
  summary,
  formLabel,
  action,
  field,
  explanation,
  button,
}: {
  summary: string;
  formLabel: string;
  action: (formData: FormData) => void | Promise<void>;
  field: { name: string; value: string };
  explanation: ReactNode;
  button: string;
}) {
  return (
    <details className="rounded-xl border border-danger-700 bg-white p-5">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold text-danger-700">{summary}</summary>
      <form action={action} aria-label={formLabel} className="mt-3 flex flex-col gap-3">
        <input type="hidden" name={field.name} value={field.value} />
        <p className="text-ink">{explanation}</p>
        <button type="submit" className="btn self-start bg-danger-700 text-white hover:bg-red-800">
          {button}
        </button>
      </form>
    </details>
  );
}
