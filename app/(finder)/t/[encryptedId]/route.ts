import { serveFinderPage, submitFinderContact } from "@/lib/finder-page/route";

/**
 * The page a tag's QR code opens: a route handler, not a Next page, so the page can be served from a
 * per-process cache with no framework runtime on the finder's phone (docs/finder-page.md). Every view
 * still records a scan through scanTag, the verb behind GET /api/v1/scan/:encryptedId; the contact form
 * posts back here. The emergency page beneath (./emergency) is an ordinary Next page.
 */
type Context = { params: Promise<{ encryptedId: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return serveFinderPage(request, (await params).encryptedId);
}

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return submitFinderContact(request, (await params).encryptedId);
}
