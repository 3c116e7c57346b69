import type { Metadata } from "next";
import { requireAdminContext } from "../admin-context";
import { MintForm } from "./mint-form";

export const metadata: Metadata = { title: "Mint tags" };

export default async function AdminTagsPage() {
  await requireAdminContext("/admin/tags");
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Admin</p>
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Mint tags</h1>
        <p className="mt-2 text-muted">New tags are unowned inventory until someone activates one with its printed code.</p>
      </div>
      <section aria-label="New batch" className="rounded-xl border border-line bg-white p-5 shadow-sm sm:p-6">
        <MintForm />
      </section>
    </div>
  );
}
