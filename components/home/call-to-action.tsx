import Link from "next/link";

/** The closing invitation to register or sign in (the shop joins it when it is built). */
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
            href="/register"
            className="btn bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-white"
          >
            Create a free account
          </Link>
          <Link
            href="/login"
            className="btn border border-white text-white hover:bg-brand-900 focus-visible:outline-white"
          >
            Sign in to activate a tag
          </Link>
        </div>
      </div>
    </section>
  );
}
