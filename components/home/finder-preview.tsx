import { PawIcon, ScanIcon } from "@/components/icons";

/** An illustration of the page a finder sees after scanning; the example data is made up. */
export function FinderPreview() {
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
