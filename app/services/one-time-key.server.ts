/**
 * One-time keys for the forms that place an order or record money. The page renders a fresh key in
 * a hidden `idempotencyKey` field; the action runs once per key and owner, and the same form sent
 * again (a double click, a retry after an error page, the browser's Back and resend) gets the first
 * outcome: the same redirect to the same order, or the same refusal, never a second order.
 *
 * A first call that failed without an outcome (the database went away in the middle, the process
 * died) keeps its key claimed: it may have placed the order (the crash sweep finishes what it
 * started), so a retry is told to look at My Orders instead of placing it again.
 *
 * A key is claimed for one operation and one target (the order paid, the part ordered): the same key
 * sent with another form, or the same form of another order or part, is refused (409) and changes
 * nothing, rather than answering with the first form's outcome.
 */
import { createHash, randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data as dataWithInit } from "@remix-run/node";
import { z } from "zod";
import {
  claimIdempotencyKey,
  findIdempotentAnswer,
  reclaimRefusedKey,
  storeIdempotentAnswer,
} from "~/models/idempotency.server";
import { getEnv } from "./env.server";
import { parseForm, readForm } from "./form.server";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";

const KEY = /^[\x21-\x7e]{8,255}$/;
/** How long a second call waits for the first one's outcome (a double click) before answering 409. */
const WAIT_FOR_FIRST_MS = 3000;
/** A first call without an answer after this long has ended without one. */
const RUNNING_AT_MOST_MS = 30_000;

/** Every form's keys share one namespace per owner, so a key is claimed once whatever form sends it. */
const FORM_KEYS = "one-time-key";

/** A fresh key for a form being rendered. */
export const newOneTimeKey = () => randomUUID();

/** What an action answered, stored so that it can be given again. */
type Outcome =
  | { kind: "response"; thrown: boolean; status: number; headers: [string, string][]; body: string }
  | { kind: "data"; data: unknown; status: number; headers: [string, string][] }
  | { kind: "value"; value: unknown };

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return !!value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit";
}

async function toOutcome(result: unknown, thrown: boolean): Promise<{ status: number; outcome: Outcome }> {
  if (result instanceof Response) {
    const headers = [...result.headers.entries()];
    const body = await result.clone().text();
    return { status: result.status, outcome: { kind: "response", thrown, status: result.status, headers, body } };
  }
  if (isDataWithInit(result)) {
    const status = result.init?.status ?? 200;
    const headers = [...new Headers(result.init?.headers).entries()];
    return { status, outcome: { kind: "data", data: result.data, status, headers } };
  }
  return { status: 200, outcome: { kind: "value", value: result } };
}

function replay(outcome: Outcome): unknown {
  const replayed: [string, string] = ["Idempotent-Replayed", "true"];
  if (outcome.kind === "response") {
    const response = new Response(outcome.body || null, {
      status: outcome.status,
      headers: [...outcome.headers, replayed],
    });
    if (outcome.thrown) throw response;
    return response;
  }
  if (outcome.kind === "data") {
    return dataWithInit(outcome.data, { status: outcome.status, headers: [...outcome.headers, replayed] });
  }
  return outcome.value;
}

/** The form's fields without the key itself: a hash says whether a second call sent the same form. */
function hashForm(form: FormData) {
  const fields = [...form.entries()]
    .filter(([name]) => name !== ONE_TIME_KEY_FIELD)
    .map(([name, value]) => [name, typeof value === "string" ? value : `file:${value.name}:${value.size}`]);
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

export type FormReply = SubmissionResult<string[]>;

/** A form-level message as Conform's reply (what a form's `lastResult` reads), in the route's own shape. */
function formMessage(form: FormData, message: string, status: number, shape: (reply: FormReply) => unknown) {
  const submission = parseForm(form, { schema: z.object({}).passthrough() });
  return dataWithInit(shape(submission.reply({ formErrors: [message] })), {
    status,
    headers: { "Cache-Control": "no-store" },
  });
}

export const KEY_OF_ANOTHER_FORM =
  "This form was sent with the key of another form (another order, part or page), so nothing was done. Reload this page and send the form again.";
export const STILL_RUNNING = "This order is still being placed: look in My Orders in a moment before sending it again.";
export const UNCONFIRMED =
  "We could not confirm whether this was saved when you first sent it. Look in My Orders before sending it again; to place another order, reload the page.";

/**
 * Runs `run` (the action's work) once for the form's one-time key. A form sent without a key (a page
 * rendered before keys existed, a script) just runs. Conform's validate intent (the no-JavaScript
 * "Update total") changes nothing and never claims the key.
 */
export async function runOnce<T>(
  request: Request,
  {
    ownerId,
    operation,
    target = "",
    shape = (reply) => reply,
    when = () => true,
  }: {
    ownerId: string;
    operation: string;
    /** What the form acts on (the order paid, the part ordered): the key is good for it alone. */
    target?: string;
    /** Which submissions of the form place the order (a form with several buttons). */
    when?: (form: FormData) => boolean;
    /** Where the route's action data carries the form's reply, when not at the top. */
    shape?: (reply: FormReply) => unknown;
  },
  run: () => Promise<T>,
): Promise<T> {
  const form = await readForm(request.clone());
  const key = form.get(ONE_TIME_KEY_FIELD);
  if (typeof key !== "string" || !KEY.test(key) || form.has("__intent__") || !when(form)) return run();
  const claim = { ownerId, operation: FORM_KEYS, key };
  const scope = JSON.stringify([operation, target]);
  const bodyHash = hashForm(form);
  const expiresAt = new Date(Date.now() + getEnv().API_IDEMPOTENCY_HOURS * 60 * 60 * 1000);

  const taken = await claimIdempotencyKey({ ...claim, bodyHash, scope }, expiresAt);
  if (!taken.claimed) {
    const { record } = taken;
    if (record.scope !== scope) return formMessage(form, KEY_OF_ANOTHER_FORM, 409, shape) as T;
    // Refused before: a corrected form may run (a refusal changed nothing); the same form gets the same refusal.
    const rerun = record.status !== null && record.status >= 400 && record.bodyHash !== bodyHash;
    if (!rerun || !(await reclaimRefusedKey({ ...claim, bodyHash, scope }))) {
      let answer = record.status !== null ? { status: record.status, body: record.body ?? "" } : null;
      for (const until = Date.now() + WAIT_FOR_FIRST_MS; !answer && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await findIdempotentAnswer(claim);
      }
      if (answer) return replay(JSON.parse(answer.body) as Outcome) as T;
      const running = record.claimedAt && Date.now() - record.claimedAt.getTime() < RUNNING_AT_MOST_MS;
      return formMessage(form, running ? STILL_RUNNING : UNCONFIRMED, 409, shape) as T;
    }
  }

  let result: T;
  try {
    result = await run();
  } catch (error) {
    // A refusal thrown as a response (404, 403) is an outcome; anything else leaves it unknown,
    // and the key claimed (see above).
    if (error instanceof Response && error.status < 500) {
      const { status, outcome } = await toOutcome(error, true);
      await storeIdempotentAnswer(claim, { status, body: JSON.stringify(outcome) });
    }
    throw error;
  }
  const { status, outcome } = await toOutcome(result, false);
  // A 5xx answer leaves the outcome unknown, as a thrown error does.
  if (status < 500) await storeIdempotentAnswer(claim, { status, body: JSON.stringify(outcome) });
  return result;
}
