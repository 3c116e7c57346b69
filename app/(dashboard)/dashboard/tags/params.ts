import { cursorParam } from "@/components/dashboard/pager";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { pageQuery } from "@/lib/http/page-input";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function param(params: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
}

export const PAGE_SIZE = 20;

/** The list's filters and page (its cursor) from the query string; anything unrecognised is ignored. */
export function listQuery(params: Record<string, string | string[] | undefined>) {
  const { status, tagType } = pageQuery(tagEndpoints.list, params, { tagType: "type" });
  return { page: 1, limit: PAGE_SIZE, status, tagType, cursor: cursorParam(params.cursor) };
}

export function listHref(query: { cursor?: string; status?: string; tagType?: string }): string {
  const search = new URLSearchParams();
  if (query.status) search.set("status", query.status);
  if (query.tagType) search.set("type", query.tagType);
  if (query.cursor) search.set("cursor", query.cursor);
  const text = search.toString();
  return text ? `/dashboard/tags?${text}` : "/dashboard/tags";
}
