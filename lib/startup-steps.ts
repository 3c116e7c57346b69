import { describeError, log } from "@/lib/log";

export interface StartupStep {
  name: string;
  run(): Promise<unknown>;
}

/** How long after a failed start-up step it is tried again. */
export const STARTUP_RETRY_DELAY_MS = 5_000;

/**
 * Runs the server's start-up steps one after another. A step that fails (the database away at boot) does
 * not hold up the others: it is tried again every `retryDelayMs` in the background until it passes, so an
 * instance that started during an outage gets its admin, its job workers and the rest once the database is
 * back, without a restart; the server serves meanwhile (health reports the database). Resolves after the
 * first pass with the names of the steps that failed in it.
 */
export async function runStartupSteps(steps: readonly StartupStep[], retryDelayMs = STARTUP_RETRY_DELAY_MS): Promise<string[]> {
  const failed: string[] = [];
  for (const step of steps) {
    if (await attempt(step, retryDelayMs, false)) continue;
    failed.push(step.name);
    const retry = () => {
      const timer = setTimeout(() => {
        void attempt(step, retryDelayMs, true).then((passed) => passed || retry());
      }, retryDelayMs);
      timer.unref?.();
    };
    retry();
  }
  return failed;
}

async function attempt(step: StartupStep, retryDelayMs: number, retrying: boolean): Promise<boolean> {
  try {
    await step.run();
    if (retrying) log.info("startup step done on a later try", { step: step.name });
    return true;
  } catch (error) {
    log.error("startup step failed", { step: step.name, retryInMs: retryDelayMs, ...describeError(error) });
    return false;
  }
}
