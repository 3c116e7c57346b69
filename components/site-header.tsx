import Link from "next/link";
import { currentUserContext } from "@/lib/http/page-context";
import { Logo } from "./logo";
import { MainNav } from "./main-nav";

export async function SiteHeader() {
  const signedIn = Boolean(await currentUserContext());
  return (
    <header className="relative z-30 border-b border-line bg-white">
      <div className="container-page flex min-h-16 items-center justify-between gap-4">
        <Link href="/" className="rounded-md py-2" aria-label="Tag Service home">
          <Logo />
        </Link>
        <MainNav signedIn={signedIn} />
      </div>
    </header>
  );
}
