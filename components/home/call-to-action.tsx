import Link from "next/link";

/** The closing invitation to shop or register. */
export function CallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-brand-800 py-14 text-white sm:py-16">
      <div className="container-page text-center">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
          Ready before something goes missing
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-brand-100">
          Tags take a minute to set up and keep working for years. Start with one for whatever you would miss most.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            href="/shop"
            className="btn bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-white"
          >
            Shop tags
          </Link>
          <Link
            href="/register"
            className="btn border border-white text-white hover:bg-brand-900 focus-visible:outline-white"
          >
            Create a free account
          </Link>
        </div>
      </div>
    </section>
  );
}
