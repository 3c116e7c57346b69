import Link from "next/link";
import {
  BagIcon,
  BikeIcon,
  CarIcon,
  ChatIcon,
  CodeIcon,
  GiftIcon,
  LockIcon,
  MedicalIcon,
  PawIcon,
  PhoneIcon,
  ScanIcon,
  TagIcon,
} from "@/components/icons";
import { SERVICE_NAME } from "@/components/site-links";

const steps = [
  {
    icon: TagIcon,
    title: "Attach a tag",
    text: "Stick, clip or hang a tag on the thing you care about. Activate it from your dashboard and describe the item: a name, a photo, a note for whoever finds it.",
  },
  {
    icon: ScanIcon,
    title: "A finder scans it",
    text: "Any phone camera reads the QR code, and most phones read the NFC chip with a tap. No app and no account: the finder lands on the item's page straight away.",
  },
  {
    icon: ChatIcon,
    title: "They message you anonymously",
    text: "The finder writes to you from that page. You are notified at once and reply from your dashboard; neither of you sees the other's e-mail address.",
  },
  {
    icon: GiftIcon,
    title: "It comes home, with a thank-you",
    text: "Offer a reward when you mark an item lost and the finder sees it on the page. When you get the item back, pay the reward and the finder receives a certificate.",
  },
] as const;

const items = [
  {
    icon: PawIcon,
    title: "Pets",
    text: "A tag on the collar shows your pet's name and a message like “I'm friendly, please call my family”, so a neighbour can help in minutes.",
  },
  {
    icon: BagIcon,
    title: "Bags and luggage",
    text: "Airport staff, taxi drivers and fellow travellers can reach you without your home address printed on a label.",
  },
  {
    icon: BikeIcon,
    title: "Bikes",
    text: "Mark a bike lost and its page says so immediately; anyone who spots it can tell you where it is.",
  },
  {
    icon: CarIcon,
    title: "Cars and keys",
    text: "Put a tag on the key ring or behind the windscreen, so whoever finds your keys or needs to reach the driver can do it discreetly.",
  },
  {
    icon: PhoneIcon,
    title: "Phones and laptops",
    text: "A sticker on the back works even when the screen is locked or the battery is flat.",
  },
] as const;

const privacyPoints = [
  "Your e-mail address, phone number and home address are never on the tag page unless you choose to show a contact.",
  "Messages travel through the service: finders reach you without learning who you are.",
  "A conversation can only be opened through the private link its finder receives.",
  "Each profile is public or private, and you can change what it shows at any time.",
  "You see every scan of your tags in your dashboard, so you know when one was found.",
] as const;

export default function HomePage() {
  return (
    <>
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

      <section id="how-it-works" aria-labelledby="how-heading" className="scroll-mt-4 py-14 sm:py-20">
        <div className="container-page">
          <h2 id="how-heading" className="text-3xl font-bold tracking-tight text-ink">
            How it works
          </h2>
          <p className="mt-3 max-w-2xl text-muted">Four steps between “I lost it” and “I’ve got it back”.</p>
          <ol className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {steps.map((step, index) => (
              <li key={step.title} className="rounded-xl border border-line bg-white p-6 shadow-sm">
                <div className="flex items-center gap-3">
                  <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-white">
                    <step.icon className="h-5 w-5" />
                  </span>
                  <span className="text-sm font-semibold text-brand-700">Step {index + 1}</span>
                </div>
                <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
                <p className="mt-2 text-muted">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="items-heading" className="bg-canvas py-14 sm:py-20">
        <div className="container-page">
          <h2 id="items-heading" className="text-3xl font-bold tracking-tight text-ink">
            For everything you carry
          </h2>
          <p className="mt-3 max-w-2xl text-muted">
            One account for all your tags. Each tag has its own page, photo and message, and its own lost mode.
          </p>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {items.map((item) => (
              <li key={item.title} className="flex gap-4 rounded-xl border border-line bg-white p-6">
                <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <item.icon className="h-7 w-7" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-ink">{item.title}</h3>
                  <p className="mt-1 text-muted">{item.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="emergency-heading" className="py-14 sm:py-20">
        <div className="container-page grid gap-10 lg:grid-cols-2 lg:items-center">
          <div>
            <span className="inline-flex h-12 w-12 items-center justify-center rounded-lg bg-danger-50 text-danger-700">
              <MedicalIcon className="h-7 w-7" />
            </span>
            <h2 id="emergency-heading" className="mt-4 text-3xl font-bold tracking-tight text-ink">
              Emergency information for first responders
            </h2>
            <p className="mt-4 text-muted">
              Add your blood type, allergies, conditions, medications, your doctor and the people to call. A paramedic or
              passer-by who scans your tag can open this information without an account, even when the rest of your
              profile is private, because in an emergency minutes matter.
            </p>
            <p className="mt-4 text-muted">You decide what goes in it, and you can change or remove it at any time.</p>
          </div>
          <figure className="rounded-xl border border-danger-700/30 bg-danger-50 p-6">
            <dl className="grid gap-3 sm:grid-cols-2">
              {[
                ["Blood type", "O negative"],
                ["Allergies", "Penicillin"],
                ["Conditions", "Type 1 diabetes"],
                ["Emergency contact", "Sam (partner)"],
              ].map(([term, value]) => (
                <div key={term} className="rounded-lg bg-white p-4">
                  <dt className="text-sm font-medium text-muted">{term}</dt>
                  <dd className="mt-1 font-semibold text-ink">{value}</dd>
                </div>
              ))}
            </dl>
            <figcaption className="mt-3 text-sm text-danger-700">Example of what a first responder sees.</figcaption>
          </figure>
        </div>
      </section>

      <section id="privacy" aria-labelledby="privacy-heading" className="scroll-mt-4 bg-canvas py-14 sm:py-20">
        <div className="container-page grid gap-10 lg:grid-cols-[1fr_1.4fr]">
          <div>
            <span className="inline-flex h-12 w-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <LockIcon className="h-7 w-7" />
            </span>
            <h2 id="privacy-heading" className="mt-4 text-3xl font-bold tracking-tight text-ink">
              Private by design
            </h2>
            <p className="mt-4 text-muted">
              A tag should help the honest finder, not tell strangers where you live. That is why the finder talks to
              the service, and the service talks to you.
            </p>
          </div>
          <ul className="space-y-4">
            {privacyPoints.map((point) => (
              <li key={point} className="flex gap-3 rounded-lg bg-white p-4 text-ink">
                <CheckIcon />
                <span>{point}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="developers-heading" className="container-page py-14 sm:py-20">
        <div className="flex flex-col gap-6 rounded-2xl border border-line p-6 sm:p-10 md:flex-row md:items-center md:justify-between">
          <div className="flex gap-4">
            <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <CodeIcon className="h-7 w-7" />
            </span>
            <div>
              <h2 id="developers-heading" className="text-2xl font-bold tracking-tight text-ink">
                Built for developers too
              </h2>
              <p className="mt-2 max-w-2xl text-muted">
                Manage tags, profiles, messages and orders from your own software with the REST API and an API key. The
                full reference is an OpenAPI document you can try in the browser.
              </p>
            </div>
          </div>
          <Link href="/docs" className="btn-secondary shrink-0">
            Read the API docs
          </Link>
        </div>
      </section>

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
    </>
  );
}

/** An illustration of the page a finder sees after scanning; the example data is made up. */
function FinderPreview() {
  return (
    <figure className="mx-auto w-full max-w-sm">
      <div className="rounded-[2rem] border-8 border-ink bg-white p-5 shadow-xl">
        <div className="flex items-center gap-2 text-xs font-medium text-muted">
          <ScanIcon className="h-4 w-4" />
          Tag scanned
        </div>
        <div className="mt-4 flex items-center gap-4">
          <span className="flex h-16 w-16 items-center justify-center rounded-full bg-brand-100 text-brand-800">
            <PawIcon className="h-9 w-9" />
          </span>
          <div>
            <p className="text-xl font-bold text-ink">Biscuit</p>
            <p className="text-sm text-muted">Golden retriever</p>
          </div>
        </div>
        <p className="mt-4 rounded-lg bg-danger-50 px-3 py-2 text-sm font-semibold text-danger-700">
          I&apos;m lost! Please help me get home.
        </p>
        <p className="mt-3 rounded-lg bg-reward-50 px-3 py-2 text-sm text-reward-800">
          Reward offered: <span className="font-bold">€50</span>
        </p>
        <div className="mt-4 grid gap-2">
          <span className="rounded-lg bg-brand-700 px-4 py-2.5 text-center text-sm font-semibold text-white">
            Message the owner
          </span>
          <span className="rounded-lg border border-danger-700 px-4 py-2.5 text-center text-sm font-semibold text-danger-700">
            Emergency information
          </span>
        </div>
      </div>
      <figcaption className="mt-3 text-center text-sm text-muted">What a finder sees after scanning a tag</figcaption>
    </figure>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-7.5 7.5a1 1 0 0 1-1.4 0L3.3 9.7a1 1 0 1 1 1.4-1.4l3.8 3.8 6.8-6.8a1 1 0 0 1 1.4 0z"
      />
    </svg>
  );
}
