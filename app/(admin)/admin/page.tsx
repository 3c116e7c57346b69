import type { Metadata } from "next";
import Link from "next/link";
import { requireAdminContext } from "./admin-context";

export const metadata: Metadata = { title: "Admin" };

export default async function AdminPage() {
  await requireAdminContext("/admin");
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Admin</h1>
      <ul className="flex flex-col gap-3">
        <li>
          <Link href="/admin/tags" className="btn-secondary">
            Mint tags
          </Link>
        </li>
        <li>
          <Link href="/admin/reports" className="btn-secondary">
            Reports
          </Link>
        </li>
        <li>
          <Link href="/admin/orders" className="btn-secondary">
            Orders
          </Link>
        </li>
        <li>
          <Link href="/admin/products" className="btn-secondary">
            Products
          </Link>
        </li>
        <li>
          <Link href="/admin/payment-events" className="btn-secondary">
            Payment events
          </Link>
        </li>
      </ul>
    </div>
  );
}
