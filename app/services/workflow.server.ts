/**
 * A process that changes several documents, written as a list of named steps (Medusa v2's workflow
 * idea). Our own few lines, not Medusa's engine: its engine keeps every step's state in a store and
 * retries on its own, which our sweeps already do from the marks the documents carry (a reserving
 * order, a claimed cart, a pending event or credit note), and no kept library offers just this.
 *
 * Each step returns a receipt: what it did, which its compensation gets back. Up to the step that
 * `commits`, a failure (a step that refuses, or one that throws) undoes what ran, last first: the
 * failing step's own compensation (with the receipt of the part it did, or none when it threw: then
 * it undoes from the documents), then every step before it. A compensation is safe to run when its
 * step did nothing, and may say its step's work was kept (someone else finished it meanwhile): then
 * nothing before it is undone either. From the committing step on the change stands: a later step
 * that fails ends the run there, and the sweep its step names finishes the rest from the marks the
 * committing step wrote, as after a crash. Each step runs in a trace span of its own when tracing is on.
 */
import { logFailure } from "./log.server";
import { inSpan } from "./tracing.server";

/** A refusal: the workflow ends with this result, its steps undone (the step's partial receipt with it). */
export class Stop<R> {
  constructor(
    readonly result: R,
    readonly receipt?: unknown,
  ) {}
}
export const stop = <R>(result: R, receipt?: unknown) => new Stop(result, receipt);

export type Step<C, R, T = unknown> = {
  name: string;
  /** Does the step's work; returns its receipt (or a refusal). */
  run: (context: C) => Promise<T | Stop<R>>;
  /** What the step does when a sweep takes up a run that a crash cut short, from this step on (default: `run`). */
  resume?: (context: C) => Promise<T | Stop<R>>;
  /** Undoes `run` from its receipt (none when it threw); "kept" when its work stands after all. */
  compensate?: (context: C, receipt: T | undefined) => Promise<void | "kept">;
  /** The step after which the change stands: no refusal may come after it. */
  commits?: true;
  /** After the commit: which sweep finishes this step (and those after it) when it fails. */
  finishedBy?: string;
};

/** A step with its receipt's type checked against its compensation's. */
export const step = <C, R, T>(definition: Step<C, R, T>) => definition as Step<C, R>;

export type WorkflowOptions = {
  /** Resumes a run a crash cut short: the steps before this one ran (they are undone on failure). */
  resumeAt?: string;
  /**
   * Called after each step but the last (a finished workflow is not undone). A throw here is a
   * failure of that step: the seam through which the tests make every step fail in turn.
   */
  afterStep?: (name: string) => void | Promise<void>;
};

export type WorkflowResult<R> =
  | {
      ok: true;
      receipts: Map<string, unknown>;
      /** The committed run's first step that failed: the rest is its sweep's. */
      unfinished?: { step: string; finishedBy: string; error: unknown };
    }
  | { ok: false; stop: R; kept: boolean };

export type Workflow<C, R> = {
  name: string;
  steps: Step<C, R>[];
  /** The steps' names, in order (the tests fail each in turn). */
  stepNames: string[];
  run: (context: C, options?: WorkflowOptions) => Promise<WorkflowResult<R>>;
};

/** Names a list of steps; a committed step after a refusal-free one is checked when it is defined. */
export function defineWorkflow<C, R>(name: string, steps: Step<C, R>[]): Workflow<C, R> {
  const commit = steps.findIndex((each) => each.commits);
  for (const later of steps.slice(commit + 1))
    if (commit >= 0 && !later.finishedBy) throw new Error(`${name}: ${later.name} runs after the commit with no sweep`);
  return {
    name,
    steps,
    stepNames: steps.map((each) => each.name),
    run: (context, options) => runWorkflow(name, steps, context, options),
  };
}

type Ran<C, R> = { step: Step<C, R>; receipt: unknown };

async function runWorkflow<C, R>(
  name: string,
  steps: Step<C, R>[],
  context: C,
  { resumeAt, afterStep }: WorkflowOptions = {},
): Promise<WorkflowResult<R>> {
  const first = resumeAt ? steps.findIndex((each) => each.name === resumeAt) : 0;
  if (first < 0) throw new Error(`${name} has no step named ${resumeAt}`);
  // Steps a crash left done: their compensations undo from the documents.
  const ran: Ran<C, R>[] = steps.slice(0, first).map((each) => ({ step: each, receipt: undefined }));
  const receipts = new Map<string, unknown>();
  let committed = steps.slice(0, first).some((each) => each.commits);
  for (const [index, current] of steps.entries()) {
    if (index < first) continue;
    let outcome: unknown;
    try {
      const work = resumeAt && current.resume ? current.resume : current.run;
      outcome = await inSpan(`${name} ${current.name}`, { "workflow.name": name, "workflow.step": current.name }, () =>
        work(context),
      );
      if (!(outcome instanceof Stop)) {
        ran.push({ step: current, receipt: outcome });
        receipts.set(current.name, outcome);
        committed ||= Boolean(current.commits);
        if (index < steps.length - 1) await afterStep?.(current.name);
      }
    } catch (error) {
      if (committed) {
        // The change stands: what this step (or, after it ran, the next) left is its sweep's.
        const left = ran.at(-1)?.step === current ? (steps[index + 1] ?? current) : current;
        logFailure(`${name}: ${left.name} and what follows are left to ${left.finishedBy}`, error);
        return { ok: true, receipts, unfinished: { step: left.name, finishedBy: left.finishedBy!, error } };
      }
      if (ran.at(-1)?.step !== current) ran.push({ step: current, receipt: undefined });
      // The error is what the caller hears; an undo that fails too is left to the sweep.
      await undo(ran, context).catch((undoError) =>
        logFailure(`${name}: undoing ${current.name} failed; left to the sweep`, undoError),
      );
      throw error;
    }
    if (outcome instanceof Stop) {
      if (committed) throw new Error(`${name}: ${current.name} refused after the commit`);
      ran.push({ step: current, receipt: outcome.receipt });
      return { ok: false, stop: outcome.result as R, kept: await undo(ran, context) };
    }
  }
  return { ok: true, receipts };
}

/** Runs the compensations last first, each with its receipt; true when one said its work was kept. */
async function undo<C, R>(ran: Ran<C, R>[], context: C) {
  for (const { step: done, receipt } of [...ran].reverse()) {
    if ((await done.compensate?.(context, receipt)) === "kept") return true;
  }
  return false;
}
