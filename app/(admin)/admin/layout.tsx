import type { Metadata } from "next";
import { BrowserTimeZone } from "@/components/browser-time-zone";

export const metadata: Metadata = { robots: { index: false, follow: false } };

/** The admin area's frame; each page checks the admin role itself (requireAdminContext). */
export default function AdminLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-1 flex-col bg-canvas">
      <BrowserTimeZone />
      <div className="container-page flex-1 py-8 sm:py-10">{children}</div>
    </div>
  );
}
