import Link from "next/link";
import { currentUserContext } from "@/lib/http/page-context";
import { Logo } from "./logo";
import { MainNav } from "./main-nav";
import { CartLink } from "./shop/cart-link";

export async function SiteHeader() {
  const signedIn = Boolean(await currentUserContext());
  return (
    <header className="relative z-30 border-b border-line bg-white">
      <div className="container-page flex min-h-16 items-center justify-between gap-4">
        <Link href="/" className="rounded-md py-2" aria-label="Tag Service home">
          <Logo />
        </Link>
        <div className="flex items-center gap-2">
          <CartLink />
          <MainNav signedIn={signedIn} />
        </div>
      </div>
    </header>
  );
}
