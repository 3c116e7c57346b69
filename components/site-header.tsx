import Link from "next/link";
import { Logo } from "./logo";
import { MainNav } from "./main-nav";

export function SiteHeader() {
  return (
    <header className="relative z-30 border-b border-line bg-white">
      <div className="container-page flex min-h-16 items-center justify-between gap-4">
        <Link href="/" className="rounded-md py-2" aria-label="Tag Service home">
          <Logo />
        </Link>
        <MainNav />
      </div>
    </header>
  );
}
