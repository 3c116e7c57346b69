import Link from "next/link";
import { SERVICE_NAME } from "@/components/site-links";
import { FinderPreview } from "./finder-preview";

/** The opening: what the service does, the two ways in, and the page a finder sees. */
export function Hero() {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="container-page grid items-center gap-10 py-12 sm:py-16 lg:grid-cols-2 lg:py-20">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">QR and NFC tags</p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
            Bring lost things home
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted">
            Put a {SERVICE_NAME} tag on your pet, bag, bike, car or phone. Whoever finds it scans the tag, sees what it
            is and messages you anonymously. Your contact details stay private; your item finds its way back.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link href="/shop" className="btn-primary">
              Get your tags
            </Link>
            <Link href="/register" className="btn-secondary">
              Create a free account
            </Link>
          </div>
          <p className="mt-4 text-sm text-muted">
            Already have tags?{" "}
            <Link href="/login" className="font-semibold text-brand-700 underline hover:text-brand-800">
              Sign in
            </Link>{" "}
            to activate them.
          </p>
        </div>
        <FinderPreview />
      </div>
    </section>
  );
}
