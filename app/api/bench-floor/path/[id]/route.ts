/**
 * The framework floor of a route with a path parameter, for `npm run bench`'s comparison: the floor's own
 * empty handler, on a dynamic route as the scan's (`/api/v1/scan/[encryptedId]`) is, so the bench can show
 * what Next charges for matching a dynamic route and handing over its parameters before any code of ours
 * runs. Off (404) unless the server was started with BENCH_FLOOR=true, as the floor is.
 */
export { GET } from "@/app/api/bench-floor/route";
