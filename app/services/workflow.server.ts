/**
 * A process that changes several documents, written as a list of named steps, each with its
 * compensation (Medusa v2's workflow idea). Our own few lines, not Medusa's engine: its engine keeps
 * every step's state in a store and retries on its own, which our crash sweeps already do from the
 * documents themselves (a reserving order, a claimed cart), and no kept library offers just this.
 *
 * A failure (a step that refuses, or one that throws) undoes what ran, last first: the failing
 * step's own compensation (it may have done part of its work: some lines held), then every step
 * before it. A compensation is safe to run when its step did nothing, and may say its step's work
 * was kept (someone else finished it meanwhile): then nothing before it is undone either.
 */

/** A refusal: the workflow ends with this result, its steps undone. */
export type Stop<R> = { stop: R };
export const stop = <R>(result: R): Stop<R> => ({ stop: result });

export type Step<C, R> = {
  name: string;
  run: (context: C) => Promise<void | Stop<R>>;
  /** What the step does when a sweep takes up a run that a crash cut short, from this step on (default: `run`). */
  resume?: (context: C) => Promise<void | Stop<R>>;
  /** Undoes `run`; "kept" when its work stands after all (then the steps before it stand too). */
  compensate?: (context: C) => Promise<void | "kept">;
};

export type WorkflowOptions = {
  /** Resumes a run a crash cut short: the steps before this one ran (they are undone on failure). */
  resumeAt?: string;
  /**
   * Called after each step but the last (a finished workflow is not undone). A throw here is a
   * failure of that step: the seam through which the tests make every step fail in turn.
   */
  afterStep?: (name: string) => void | Promise<void>;
};

export type WorkflowResult<R> = { ok: true } | { ok: false; stop: R; kept: boolean };

export async function runWorkflow<C, R>(
  steps: Step<C, R>[],
  context: C,
  { resumeAt, afterStep }: WorkflowOptions = {},
): Promise<WorkflowResult<R>> {
  const first = resumeAt ? steps.findIndex((step) => step.name === resumeAt) : 0;
  if (first < 0) throw new Error(`No step named ${resumeAt}`);
  const started: Step<C, R>[] = steps.slice(0, first);
  for (const [index, step] of steps.entries()) {
    if (index < first) continue;
    started.push(step);
    let outcome: void | Stop<R>;
    try {
      outcome = await (resumeAt && step.resume ? step.resume : step.run)(context);
      if (!outcome && index < steps.length - 1) await afterStep?.(step.name);
    } catch (error) {
      // The error is what the caller hears; an undo that fails too is left to the sweep.
      await undo(started, context).catch((undoError) => console.error(`Undoing ${step.name} failed:`, undoError));
      throw error;
    }
    if (outcome) return { ok: false, stop: outcome.stop, kept: await undo(started, context) };
  }
  return { ok: true };
}

/** Runs the compensations last first; true when one said its work was kept (and stopped there). */
async function undo<C, R>(started: Step<C, R>[], context: C) {
  for (const step of [...started].reverse()) {
    if ((await step.compensate?.(context)) === "kept") return true;
  }
  return false;
}
