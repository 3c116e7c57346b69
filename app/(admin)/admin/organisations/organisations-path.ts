import { z } from "zod";
import { formText } from "@/lib/forms/form-state";
import { pageQuery } from "@/lib/http/page-input";

export const ORGANISATIONS_PATH = "/admin/organisations";

/** Which organisations the list shows: those waiting (the default), the verified ones, or all. */
export const showSchema = z.enum(["pending", "verified", "all"]);
export type OrganisationsView = { show: z.infer<typeof showSchema>; page: number };

export function organisationsView(read: (name: string) => string | undefined): OrganisationsView {
  const { show } = pageQuery({ show: showSchema }, read);
  const page = Number(read("page"));
  return { show: show ?? "pending", page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

export function organisationsHref(view: OrganisationsView, extra: Record<string, string> = {}, hash = ""): string {
  const query = new URLSearchParams({ show: view.show, ...(view.page > 1 ? { page: String(view.page) } : {}), ...extra });
  return `${ORGANISATIONS_PATH}?${query.toString()}${hash}`;
}

/** Where a row button's answer goes: the view it was sent from (hidden fields), with a notice, at the row. */
export function backToOrganisations(formData: FormData, notice: string): string {
  const view = organisationsView((name) => formText(formData, `view-${name}`) || undefined);
  const id = formText(formData, "organisationId");
  return organisationsHref(view, { notice }, /^[0-9a-f-]{36}$/i.test(id) ? `#organisation-${id.toLowerCase()}` : "");
}
