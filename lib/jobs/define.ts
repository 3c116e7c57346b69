import type { ServiceContext } from "@/lib/services/context";

/** How pg-boss retries a failed job: `retryLimit` more attempts, `retryDelay` seconds apart, doubling with `retryBackoff`. */
export interface JobRetryOptions {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
}

/** What a handler gets besides its data. */
export interface JobContext {
  id: string;
  name: string;
  /** A system context on the database the job was fetched from (not a transaction). */
  ctx: ServiceContext;
}

/** How pg-boss runs a job: its retries, its time limit and its worker's polling. */
export interface JobOptions extends JobRetryOptions {
  /** A run longer than this fails (and is retried); pg-boss's default is 15 minutes. */
  expireInSeconds?: number;
  /** How often an idle worker polls for this job (seconds, >= 0.5); pg-boss's default is 2. */
  pollingIntervalSeconds?: number;
}

/** A job as enqueueing and queue creation see it: its name and options, no handler. */
export interface JobSpec<Name extends string = string> extends JobOptions {
  name: Name;
}

export interface JobDefinition<Name extends string = string, Data = unknown> extends JobSpec<Name> {
  /**
   * Runs the job. Throwing fails this attempt; pg-boss retries it per the options above. Data went through
   * JSON: dates arrive as strings. Handlers must be idempotent — a retry can follow a partial success.
   */
  handler(data: Data, job: JobContext): Promise<void>;
}

/** Any job, whatever its data (method parameters are bivariant, so every definition fits). */
export type AnyJobDefinition = JobDefinition<string, unknown>;

/**
 * Declares a job; the data type comes from the handler's parameter:
 * `defineJob({ name: "email.send", retryLimit: 5, retryDelay: 30, retryBackoff: true, handler: async (message: EmailMessage) => … })`.
 */
export function defineJob<const Name extends string, Data>(definition: JobDefinition<Name, Data>): JobDefinition<Name, Data> {
  if (!/^[A-Za-z0-9_.-]+$/.test(definition.name)) throw new Error(`Invalid job name "${definition.name}"`);
  if (!Number.isInteger(definition.retryLimit) || definition.retryLimit < 0) throw new Error(`${definition.name}: retryLimit must be an integer >= 0`);
  if (!Number.isInteger(definition.retryDelay) || definition.retryDelay < 0) throw new Error(`${definition.name}: retryDelay must be an integer >= 0`);
  return definition;
}
