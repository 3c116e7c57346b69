import { redirect, unstable_rethrow } from "next/navigation";
import { headers } from "next/headers";
import { z } from "zod";
import { errorState, formError, waitMessage } from "./action-result";
import { formText, type FieldErrors, type FormState } from "./form-state";
import { endpointRateLimits, type AuthRequirement, type Endpoint } from "@/lib/http/endpoint";
import { optionalUserContext, requireAdminContext, requireUserContext } from "@/lib/http/page-context";
import { clientIp } from "@/lib/http/client-ip";
import { countRateLimitRefusal, observeServerAction, secondsSince, type ActionOutcome } from "@/lib/metrics/registry";
import { checkRateLimits, type RateLimitDecision } from "@/lib/ratelimit";
import type { RateLimitPolicyName } from "@/lib/ratelimit/policies";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { DomainError, NotFoundError, RateLimitError } from "@/lib/services/errors";
import { formInput } from "./form-input";
import { controlCharacterIssues } from "@/lib/validation/control-characters";

/**
 * The page-side twin of route(): every server action goes through action() (a form with a result) or
 * rowAction() (a button that answers with a redirect). A server action is a public POST endpoint, so
 * this is where its caller, rate limits and hostile-input rules live, once. Both run the same named steps:
 * 1. `caller`: who acts (see ActionAuth); signed-out visitors go to sign-in and back to `returnTo`, a
 *    non-admin gets the 404 page;
 * 2. `params`, the ids and choices a form carries in hidden fields: a malformed one names nothing
 *    (NotFoundError), as a bad path id is 404 in the API;
 * 3. `input`, the request schema the endpoint itself uses, read from FormData by formInput() (text
 *    without control characters, numbers, checkboxes, blank = not given) or by `read`;
 * 4. `rateLimit`: the endpoint's policies, counted after validation as the actions always did;
 * 5. the handler, whose domain errors become the form's messages (errorState) while Next's own
 *    control flow (redirect, notFound, signOut) passes through untouched.
 * `action.for(endpoint, …)` and `rowAction.for(endpoint, …)` take the caller, params, input and rate limits
 * from the endpoint's contract (lib/http/endpoints), so a form and its API twin cannot drift apart.
 */

/**
 * The words route() uses (lib/http/endpoint.ts), with the same meaning: `public` and `optional`: the
 * signed-in user when there is one, otherwise the anonymous public caller with its IP; `user` and `admin`:
 * sign-in required. Plus `system`: the system acts (public forms whose service needs no caller, such as
 * a link's token).
 */
export type ActionAuth = AuthRequirement | "system";

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

interface CommonOptions<P extends Schema | undefined, I extends Schema | undefined> {
  auth: ActionAuth;
  /** Where sign-in sends a signed-out caller back to; a function of the form for pages with ids. */
  returnTo?: string | ((formData: FormData) => string);
  /**
   * The endpoint's own policies (e.g. `authEndpoints.register.rateLimit`), counted per IP (and user).
   * `peek` checks without counting, for an action whose service counts the attempt itself.
   */
  rateLimit?: readonly RateLimitPolicyName[] | { policies: readonly RateLimitPolicyName[]; peek: true };
  /** Hidden fields naming what the form acts on; a malformed value is NotFoundError. */
  params?: P;
  /** The request schema: the endpoint's body schema, or a form's extension of it. */
  input?: I;
  /** Reads the schema's input from the form when its names differ from the schema's (default: formInput). */
  read?: (formData: FormData) => unknown;
  /**
   * The action's label in the metrics' server_action_duration_seconds: `action.for` uses its endpoint's
   * `METHOD path`; others say what they do in a few fixed words ("other" when unset). Never a value from the form.
   */
  metricName?: string;
}

export interface ActionArgs<P, I> {
  ctx: ServiceContext;
  params: Out<P>;
  input: Out<I>;
  formData: FormData;
  /** The echoed values (see `values`), to return with a result. */
  values: Record<string, string> | undefined;
}

export interface ActionOptions<P extends Schema | undefined, I extends Schema | undefined, S extends FormState> extends CommonOptions<P, I> {
  /** The fields put back into the form after a failed submission (never passwords). */
  values?: readonly string[] | ((formData: FormData) => Record<string, string>);
  /**
   * Form input names for schema paths and service fields (`quietHours.start` → `quietStart`,
   * `expiresAt` → `expiresOn`).
   */
  fieldMap?: Record<string, string>;
  /** The whole-form message over per-field messages ("Check the fields marked below." by default). */
  invalidMessage?: string;
  /** The message when the rate limit refuses the post (a form in another language says it its own way). */
  rateLimitedMessage?: (retryAfterSeconds: number) => string;
  /** The message for an unexpected failure (logged), instead of the English default. */
  failedMessage?: string;
  /** A failed parse this form answers its own way (e.g. a broken link); undefined for the usual messages. */
  onInvalid?: (error: z.ZodError, values: Record<string, string> | undefined, formData: FormData) => S | undefined;
  /** Completes a state the wrapper made (invalid input, rate limited, an error) for a richer state type. */
  extend?: (state: FormState, formData: FormData) => S;
  /** A domain error this form answers its own way; undefined for errorState's usual message. */
  onError?: (error: DomainError, values: Record<string, string> | undefined) => S | undefined;
}

export interface RowActionOptions<P extends Schema | undefined, I extends Schema | undefined> extends CommonOptions<P, I> {
  /** Where a domain error sends the caller (undefined rethrows it to the error page). */
  onError?: (error: DomainError, formData: FormData) => string | undefined;
  /** Cache paths to refresh before the redirect, whatever the outcome. */
  revalidate?: (formData: FormData) => void;
}

const CHECK_FIELDS = "Check the fields marked below.";

/** What a server action made here takes, for tools that exercise every action (the hostile-input sweep). */
export interface ActionDescription {
  kind: "form" | "row";
  auth: ActionAuth;
  params?: Schema;
  input?: Schema;
}

const descriptions = new WeakMap<object, ActionDescription>();

/** How a server action made by action() or rowAction() is called, or undefined for any other function. */
export function describeAction(fn: unknown): ActionDescription | undefined {
  return typeof fn === "function" ? descriptions.get(fn) : undefined;
}

/** Step 1, the caller. */
async function resolveCaller(options: CommonOptions<Schema | undefined, Schema | undefined>, formData: FormData): Promise<ServiceContext> {
  if (options.auth === "system") return systemContext();
  if (options.auth === "public" || options.auth === "optional") return optionalUserContext();
  const returnTo = typeof options.returnTo === "function" ? options.returnTo(formData) : (options.returnTo ?? "/dashboard");
  return options.auth === "admin" ? requireAdminContext(returnTo) : requireUserContext(returnTo);
}

/** Step 2, the params: a malformed one names nothing. */
async function parseParams<P extends Schema | undefined>(schema: P, formData: FormData): Promise<Out<P>> {
  if (!schema) return undefined as Out<P>;
  const parsed = await schema.safeParseAsync(formInput(schema, formData));
  if (!parsed.success) throw new NotFoundError();
  return parsed.data as Out<P>;
}

/** Per-field messages keyed by the form's input names: the full path when mapped, else its first segment. */
export function fieldErrorsFor(error: z.ZodError, fieldMap: Record<string, string> = {}): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    const top = path[0] ?? "";
    const field = fieldMap[path.join(".")] ?? fieldMap[top] ?? top;
    fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
  }
  return fieldErrors;
}

/** Step 4, the rate limits: their decision, or undefined when the action has none. */
async function rateLimitDecision(options: CommonOptions<Schema | undefined, Schema | undefined>, ctx: ServiceContext): Promise<RateLimitDecision | undefined> {
  if (!options.rateLimit) return undefined;
  const { policies, peek } = Array.isArray(options.rateLimit) ? { policies: options.rateLimit as readonly RateLimitPolicyName[], peek: false } : (options.rateLimit as { policies: readonly RateLimitPolicyName[]; peek: true });
  if (!policies.length) return undefined;
  const userId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  const decision = await checkRateLimits([...policies], { ip: clientIp(await headers()), userId }, peek ? { consume: false } : undefined);
  // checkRateLimits counts the refusals of counted requests; a peek that refuses the post is one too.
  if (peek && !decision.allowed) countRateLimitRefusal(decision.policy);
  return decision;
}

/** The outcome of a server action that ended by throwing: Next's redirect, its 404 page, or a failure. */
function thrownOutcome(error: unknown): ActionOutcome {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return "redirect";
  if (typeof digest === "string" && digest.startsWith("NEXT_HTTP_ERROR_FALLBACK")) return "refused";
  if (error instanceof RateLimitError) return "rate_limited";
  return error instanceof DomainError ? "refused" : "error";
}

/**
 * Runs a server action and records its duration and outcome: what the action settled on (`settle`), else
 * "ok" for a form's state, "redirect" for Next's redirect (a row button's way to answer), or the failure thrown.
 */
async function measured<T>(name: string | undefined, kind: "form" | "row", work: (settle: (outcome: ActionOutcome) => void) => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  let settled: ActionOutcome | undefined;
  const record = (outcome: ActionOutcome) => observeServerAction(name ?? "other", kind, outcome, secondsSince(startedAt));
  try {
    const result = await work((outcome) => (settled = outcome));
    record(settled ?? "ok");
    return result;
  } catch (error) {
    const thrown = thrownOutcome(error);
    record(thrown === "redirect" ? (settled ?? "redirect") : thrown);
    throw error;
  }
}

function echoedValues(values: ActionOptions<Schema | undefined, Schema | undefined, FormState>["values"], formData: FormData) {
  if (!values) return undefined;
  if (typeof values === "function") return values(formData);
  return Object.fromEntries(values.map((name) => [name, formText(formData, name)]));
}

/**
 * A form's server action for useActionState: `(previous, formData) => state`. The handler returns the
 * success state (or redirects); failures become error states with the submitted values put back.
 */
export function action<S extends FormState = FormState, P extends Schema | undefined = undefined, I extends Schema | undefined = undefined>(
  options: ActionOptions<P, I, S>,
  handler: (args: ActionArgs<P, I>) => Promise<NoInfer<S>>,
): (previous: S, formData: FormData) => Promise<S> {
  const made = (state: FormState, formData: FormData): S => (options.extend ? options.extend(state, formData) : (state as S));
  const run = async (_previous: S, formData: FormData): Promise<S> => {
    return measured(options.metricName, "form", (settle) => runForm(formData, settle));
  };
  const runForm = async (formData: FormData, settle: (outcome: ActionOutcome) => void): Promise<S> => {
    const values = echoedValues(options.values, formData);
    const ctx = await resolveCaller(options, formData);
    try {
      const params = await parseParams(options.params, formData);
      let input = undefined as Out<I>;
      if (options.input) {
        const raw = options.read ? options.read(formData) : formInput(options.input, formData);
        // The API's rule for text (no control characters, no lone surrogates), for what `read` takes
        // from a form its own way (JSON in a hidden field): formText already cleans plain fields.
        const textIssues = controlCharacterIssues(raw);
        if (textIssues.length) {
          const fieldErrors: FieldErrors = {};
          for (const issue of textIssues) {
            const field = options.fieldMap?.[issue.field] ?? options.fieldMap?.[issue.field.split(".")[0]!] ?? issue.field.split(".")[0]!;
            fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
          }
          settle("invalid");
          return made(formError(options.invalidMessage ?? CHECK_FIELDS, values, fieldErrors), formData);
        }
        const parsed = await options.input.safeParseAsync(raw);
        if (!parsed.success) {
          settle("invalid");
          const own = options.onInvalid?.(parsed.error, values, formData);
          if (own) return own;
          return made(formError(options.invalidMessage ?? CHECK_FIELDS, values, fieldErrorsFor(parsed.error, options.fieldMap)), formData);
        }
        input = parsed.data as Out<I>;
      }
      const decision = await rateLimitDecision(options, ctx);
      if (decision && !decision.allowed) {
        settle("rate_limited");
        return made(formError(options.rateLimitedMessage?.(decision.retryAfter) ?? waitMessage(decision.retryAfter), values), formData);
      }
      return await handler({ ctx, params: params as Out<P>, input, formData, values });
    } catch (error) {
      unstable_rethrow(error);
      settle(thrownOutcome(error));
      if (error instanceof DomainError) {
        const own = options.onError?.(error, values);
        if (own) return own;
      }
      const state = errorState(error, values, options.fieldMap);
      return made(options.failedMessage && !(error instanceof DomainError) ? { ...state, message: options.failedMessage } : state, formData);
    }
  };
  descriptions.set(run, { kind: "form", auth: options.auth, params: options.params, input: options.input });
  return run;
}

/**
 * A row button's server action: `(formData) => never`. The handler returns where to go next; a domain
 * error goes where `onError` says (post/redirect/get), so the page shows what happened without
 * JavaScript and leaves no stale row behind.
 */
export function rowAction<P extends Schema | undefined = undefined, I extends Schema | undefined = undefined>(
  options: RowActionOptions<P, I>,
  handler: (args: Omit<ActionArgs<P, I>, "values">) => Promise<string>,
): (formData: FormData) => Promise<void> {
  const run = async (formData: FormData): Promise<void> => {
    await measured(options.metricName, "row", (settle) => runRow(formData, settle));
  };
  const runRow = async (formData: FormData, settle: (outcome: ActionOutcome) => void): Promise<void> => {
    const ctx = await resolveCaller(options, formData);
    let target: string;
    try {
      const params = await parseParams(options.params, formData);
      let input = undefined as Out<I>;
      if (options.input) {
        const raw = options.read ? options.read(formData) : formInput(options.input, formData);
        if (controlCharacterIssues(raw).length) throw new NotFoundError();
        const parsed = await options.input.safeParseAsync(raw);
        if (!parsed.success) throw new NotFoundError();
        input = parsed.data as Out<I>;
      }
      const decision = await rateLimitDecision(options, ctx);
      if (decision && !decision.allowed) throw new RateLimitError(decision.retryAfter);
      target = await handler({ ctx, params: params as Out<P>, input, formData });
    } catch (error) {
      unstable_rethrow(error);
      settle(thrownOutcome(error));
      const to = error instanceof DomainError ? options.onError?.(error, formData) : undefined;
      if (to === undefined) throw error;
      target = to;
    }
    options.revalidate?.(formData);
    redirect(target);
  };
  descriptions.set(run, { kind: "row", auth: options.auth, params: options.params, input: options.input });
  return run;
}

/** onError for row actions: a missing thing goes to `target`; anything else is an error page. */
export function whenNotFound(target: string | ((formData: FormData) => string)): (error: DomainError, formData: FormData) => string | undefined {
  return (error, formData) => (error instanceof NotFoundError ? (typeof target === "function" ? target(formData) : target) : undefined);
}


type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/** What an action built from an endpoint reads from its contract. */
type Contract<P extends ObjectSchema | undefined, B extends Schema | undefined> = Pick<Endpoint<P, undefined, B, undefined>, "auth" | "params" | "body" | "rateLimit"> &
  Partial<Pick<Endpoint, "method" | "path">>;

/** What a form may add to its endpoint's contract; everything else (caller, params, input, limits) is the endpoint's. */
interface FromEndpoint<P extends ObjectSchema | undefined, I extends Schema | undefined> {
  /** Hidden-field names for the endpoint's path params where the form's differ (`{ id: "tagId" }`). */
  fields?: P extends ObjectSchema ? Partial<Record<keyof P["shape"] & string, string>> : never;
  /** `system` where the form acts as the system rather than as its caller (e.g. a link's token is the credential). */
  auth?: "system";
  /** A form's extension of the endpoint's body schema (a confirmation tick box); the body schema by default. */
  input?: I;
}

/**
 * The contract's part of an action's options: the endpoint's caller words, its params read from the form's
 * hidden fields (renamed by `fields`), its body schema and its rate limits (`general` when it names none,
 * as route() counts them), plus the handler's params under the endpoint's own names.
 */
function fromContract<P extends ObjectSchema | undefined, B extends Schema | undefined, I extends Schema | undefined>(endpoint: Contract<P, B>, options: FromEndpoint<P, I>) {
  const fields = (options.fields ?? {}) as Record<string, string>;
  const shape = endpoint.params?.shape;
  const params = endpoint.params ? formParams({ params: endpoint.params }, fields) : undefined;
  const toEndpointNames = (parsed: unknown): Out<P> =>
    (shape ? Object.fromEntries(Object.keys(shape).map((key) => [key, (parsed as Record<string, unknown>)[fields[key] ?? key]])) : undefined) as Out<P>;
  return {
    common: {
      auth: options.auth ?? endpoint.auth,
      params,
      input: (options.input ?? endpoint.body) as I,
      rateLimit: endpointRateLimits(endpoint),
      // The API twin's name in the metrics: the same template as its requests' route label.
      metricName: endpoint.method && endpoint.path ? `${endpoint.method} ${endpoint.path}` : undefined,
    },
    toEndpointNames,
  };
}

type Renamed<S extends z.ZodRawShape, F extends Partial<Record<keyof S & string, string>>> = {
  [K in keyof S as K extends keyof F ? (F[K] extends string ? F[K] : K) : K]: S[K];
};

/**
 * An endpoint's params schema under a form's hidden-field names (`formParams(tagEndpoints.get, { id: "tagId" })`
 * is `{ tagId: uuid }`), for a plain action() or a helper that reads the same field.
 */
export function formParams<S extends z.ZodRawShape, const F extends Partial<Record<keyof S & string, string>> = Record<never, string>>(
  contract: { params?: z.ZodObject<S> },
  fields?: F,
): z.ZodObject<Renamed<S, F>> {
  const renamed = (fields ?? {}) as Record<string, string>;
  const shape = contract.params?.shape ?? {};
  return z.object(Object.fromEntries(Object.entries(shape).map(([key, schema]) => [renamed[key] ?? key, schema]))) as unknown as z.ZodObject<Renamed<S, F>>;
}

type EndpointActionOptions<P extends ObjectSchema | undefined, I extends Schema | undefined, S extends FormState> = Omit<ActionOptions<Schema | undefined, I, S>, keyof CommonOptions<Schema | undefined, I>> &
  FromEndpoint<P, I> & { returnTo?: CommonOptions<Schema | undefined, I>["returnTo"]; read?: CommonOptions<Schema | undefined, I>["read"] };

/** action() built from an endpoint: `action.for(tagEndpoints.update, { fields: { id: "tagId" }, … }, handler)`. */
action.for = function actionFor<S extends FormState = FormState, P extends ObjectSchema | undefined = undefined, B extends Schema | undefined = undefined, I extends Schema | undefined = B>(
  endpoint: Contract<P, B>,
  options: EndpointActionOptions<P, I, S>,
  handler: (args: ActionArgs<P, I>) => Promise<NoInfer<S>>,
): (previous: S, formData: FormData) => Promise<S> {
  const { fields, auth, input, ...rest } = options;
  const { common, toEndpointNames } = fromContract<P, B, I>(endpoint, { fields, auth, input } as FromEndpoint<P, I>);
  return action<S, Schema | undefined, I>({ ...rest, ...common }, (args) => handler({ ...args, params: toEndpointNames(args.params) }));
};

type EndpointRowActionOptions<P extends ObjectSchema | undefined, I extends Schema | undefined> = Omit<RowActionOptions<Schema | undefined, I>, keyof CommonOptions<Schema | undefined, I>> &
  FromEndpoint<P, I> & { returnTo?: CommonOptions<Schema | undefined, I>["returnTo"]; read?: CommonOptions<Schema | undefined, I>["read"] };

/** rowAction() built from an endpoint: `rowAction.for(orderEndpoints.cancel, { fields: { id: "orderId" }, … }, handler)`. */
rowAction.for = function rowActionFor<P extends ObjectSchema | undefined = undefined, B extends Schema | undefined = undefined, I extends Schema | undefined = B>(
  endpoint: Contract<P, B>,
  options: EndpointRowActionOptions<P, I>,
  handler: (args: Omit<ActionArgs<P, I>, "values">) => Promise<string>,
): (formData: FormData) => Promise<void> {
  const { fields, auth, input, ...rest } = options;
  const { common, toEndpointNames } = fromContract<P, B, I>(endpoint, { fields, auth, input } as FromEndpoint<P, I>);
  return rowAction<Schema | undefined, I>({ ...rest, ...common }, (args) => handler({ ...args, params: toEndpointNames(args.params) }));
};
