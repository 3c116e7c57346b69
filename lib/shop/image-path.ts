/**
 * A product picture as the page links it: the API answers absolute URLs on APP_URL, which a page served
 * from another host name (a preview, a proxy) would fetch cross-origin; the app's own pictures are
 * linked by path instead. Other https pictures stay as they are.
 */
export function productImagePath(url: string, appBaseUrl: string): string {
  const base = appBaseUrl.replace(/\/+$/, "");
  return url.startsWith(`${base}/`) ? url.slice(base.length) : url;
}
