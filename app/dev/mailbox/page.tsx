import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { devMailboxEnabled } from "@/lib/env";
import { extractLinks, listMailbox, type MailboxMessage } from "@/lib/email/mailbox";

// Reads the outbox on every request; never prerendered (it must also 404 when the mailbox is off).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Development mailbox",
  robots: { index: false, follow: false },
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function firstValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export default async function DevMailboxPage({ searchParams }: { searchParams: SearchParams }) {
  if (!devMailboxEnabled()) notFound();
  const to = firstValue((await searchParams).to);
  const messages = await listMailbox({ to: to || undefined });

  return (
    <div className="mx-auto w-full max-w-3xl bg-white px-4 py-6 text-gray-900 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">Development mailbox</h1>
      <p className="mt-2 text-base text-gray-700">
        E-mails the app would have sent, newest first. Only available while e-mail goes to the outbox.
      </p>

      <form method="get" action="/dev/mailbox" className="mt-6 flex flex-col gap-2 sm:flex-row sm:items-end" role="search">
        <div className="flex grow flex-col gap-1">
          <label htmlFor="mailbox-to" className="text-sm font-medium text-gray-900">
            Recipient e-mail
          </label>
          <input
            id="mailbox-to"
            name="to"
            type="email"
            defaultValue={to}
            autoComplete="off"
            placeholder="name@example.com"
            className="min-h-11 w-full rounded-md border border-gray-500 bg-white px-3 py-2 text-base text-gray-900 placeholder:text-gray-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          />
        </div>
        <div className="flex gap-2">
          <button
            type="submit"
            className="min-h-11 rounded-md bg-blue-700 px-4 py-2 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          >
            Filter
          </button>
          {to ? (
            <Link
              href="/dev/mailbox"
              className="inline-flex min-h-11 items-center rounded-md border border-gray-500 px-4 py-2 text-base font-medium text-gray-900 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
            >
              Show all
            </Link>
          ) : null}
        </div>
      </form>

      <h2 className="mt-8 text-lg font-semibold">
        {messages.length === 0 ? "No messages" : `${messages.length} ${messages.length === 1 ? "message" : "messages"}`}
        {to ? ` for ${to}` : ""}
      </h2>

      {messages.length > 0 ? (
        <ol className="mt-4 flex flex-col gap-6">
          {messages.map((message) => (
            <li key={message.id}>
              <MessageCard message={message} />
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

function MessageCard({ message }: { message: MailboxMessage }) {
  const headingId = `message-${message.id}`;
  const links = extractLinks(message);
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-gray-300 bg-white p-4 shadow-sm sm:p-5">
      <h3 id={headingId} className="text-lg font-semibold break-words">
        {message.subject}
      </h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-gray-700">To</dt>
        <dd className="break-all">{message.to}</dd>
        <dt className="font-medium text-gray-700">Sent</dt>
        <dd>
          <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
        </dd>
      </dl>

      {links.length > 0 ? (
        <section className="mt-4" aria-label="Links in this message">
          <h4 className="text-sm font-semibold text-gray-900">Links</h4>
          <ul className="mt-1 flex flex-col gap-1">
            {links.map((link) => (
              <li key={link}>
                <a
                  href={link}
                  className="text-sm break-all text-blue-700 underline hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                >
                  {link}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="mt-4" aria-label="Plain text">
        <h4 className="text-sm font-semibold text-gray-900">Text</h4>
        <pre className="mt-1 max-h-96 overflow-auto rounded-md bg-gray-50 p-3 font-mono text-sm whitespace-pre-wrap break-words text-gray-900">
          {message.text}
        </pre>
      </section>

      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-semibold text-blue-700 underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
          Show HTML version
        </summary>
        {/* Fully sandboxed: no scripts, no same-origin access, no navigation out of the frame. */}
        <iframe
          sandbox=""
          srcDoc={message.html}
          title={`HTML version of “${message.subject}”`}
          loading="lazy"
          className="mt-2 h-[32rem] w-full rounded-md border border-gray-300 bg-white"
        />
      </details>
    </article>
  );
}
