/**
 * The returns service: a customer asks to return shipped units, staff approve (RMA number and
 * instructions by mail) or decline, then record what came back and each line's condition. Units
 * back to stock raise the part's stock, and backorders waiting on it are allocated; units held for
 * inspection or scrapped leave the stock as it was. Each step raises the order's event (mail,
 * webhooks) and audits.
 */
import { RETURN_CONDITION_WORDS, RETURN_REASON_WORDS } from "~/domain/returns";
import {
  decideReturn,
  receiveReturn,
  requestReturn,
  type Decision,
  type Receipt,
  type ReturnRequest,
} from "~/orders/model/returns.server";
import type { ReturnView } from "~/domain/returns";
import type { CreditNoteView } from "~/domain/credit-notes";
import type { OrderView } from "~/orders/model/view.server";
import { audit, type AuditAction, type AuditEvent } from "~/services/audit-trail.server";
import { raiseOrderEvent } from "./events.server";
import { allocateArrivedStock } from "./warehouse.server";
import {
  CREDIT_AFTER_CHANGE,
  crediting,
  EVENT_SWEEP,
  NOT_AUDITED_AGAIN,
  STOCK_SWEEP,
  type Crediting,
} from "./credit-notes.server";
import { defineWorkflow, stop, type Step, type WorkflowOptions } from "~/services/workflow.server";

type Actor = { id: string; email: string };
type Options = { actor: Actor; context?: AuditEvent["context"] };

export type ReturnOutcome =
  | { ok: true; order: OrderView; entry: ReturnView; creditNote?: CreditNoteView | null }
  | { ok: false; status: 404 | 409 | 422; message: string; lineIndex?: number };

const CHANGED = "This return changed just now (someone else acted on it); look at it again.";

const describeUnits = (entry: ReturnView, received = false) =>
  entry.lines
    .map((line) =>
      received
        ? `${line.receivedQuantity ?? 0} × ${line.partNumber || line.productName}${line.condition ? ` (${RETURN_CONDITION_WORDS[line.condition].toLowerCase()})` : ""}`
        : `${line.quantity} × ${line.partNumber || line.productName}`,
    )
    .join(", ");

async function auditReturn(
  order: OrderView,
  returnId: string,
  action: AuditAction,
  { actor, context }: Options,
  before: string | null,
) {
  const entry = order.returns.find((candidate) => candidate.id === returnId)!;
  await audit({
    context,
    actor,
    action,
    target: { type: "order", id: order.id, label: `${order.number}: ${order.summary} for ${order.userEmail}` },
    before: { return: before },
    after: {
      return: entry.status,
      rma: entry.number,
      reason: RETURN_REASON_WORDS[entry.reason],
      units: describeUnits(entry, entry.status === "received"),
      ...(entry.declineReason ? { declineReason: entry.declineReason } : {}),
      ...(entry.condition ? { condition: RETURN_CONDITION_WORDS[entry.condition] } : {}),
    },
  });
}

async function afterChange(
  order: OrderView,
  returnId: string,
  action: AuditAction,
  options: Options,
  before: string | null,
) {
  const entry = order.returns.find((candidate) => candidate.id === returnId)!;
  await raiseOrderEvent({ type: "returnUpdated", order, returnId });
  await auditReturn(order, returnId, action, options, before);
  return { ok: true as const, order, entry };
}

/** A company member asks to return units of a shipped order (the route checks who may). */
export async function askForReturn(orderId: string, request: ReturnRequest, options: Options): Promise<ReturnOutcome> {
  const result = await requestReturn(orderId, request);
  switch (result.outcome) {
    case "not_found":
      return { ok: false, status: 404, message: "That order does not exist." };
    case "refused":
      return { ok: false, status: 422, message: result.message, lineIndex: result.lineIndex };
    case "changed":
      return {
        ok: false,
        status: 409,
        message: `Another return of ${result.order.number} was asked for just now; check what is left to return and try again.`,
      };
  }
  return afterChange(result.order, result.returnId, "order.return-request", options, null);
}

/** Staff approve (an RMA number, instructions by mail) or decline (with the reason) a return asked for. */
export async function decideOnReturn(
  orderId: string,
  returnId: string,
  decision: Decision,
  options: Options,
): Promise<ReturnOutcome> {
  const result = await decideReturn(orderId, returnId, decision, options.actor.email);
  if (result.outcome === "not_found") return { ok: false, status: 404, message: "That return does not exist." };
  if (result.outcome === "refused") return { ok: false, status: 409, message: result.message };
  if (result.outcome === "changed") return { ok: false, status: 409, message: CHANGED };
  const action = decision.approve ? "order.return-approve" : "order.return-decline";
  return afterChange(result.order, returnId, action, options, "requested");
}

type Receiving = Crediting & { returnId: string; receipt: Receipt; restockedPartIds: string[] };

/**
 * Staff record what came back and each line's condition: one conditional update marks the return
 * received, its units back to stock and its credit note pending (the change that stands); then the stock goes
 * to backorders first, the return's event and audit go out, and what came back is credited.
 */
const RECEIVE_RETURN = defineWorkflow<Receiving, Extract<ReturnOutcome, { ok: false }>>("receive-return-and-credit", [
  {
    name: "receive-return",
    commits: true,
    run: async (r) => {
      const result = await receiveReturn(r.orderId, r.returnId, r.receipt, r.actor.email);
      if (result.outcome === "not_found")
        return stop({ ok: false, status: 404, message: "That return does not exist." });
      if (result.outcome === "refused")
        return stop({
          ok: false,
          status: result.lineIndex === undefined ? 409 : 422,
          message: result.message,
          lineIndex: result.lineIndex,
        });
      if (result.outcome === "changed") return stop({ ok: false, status: 409, message: CHANGED });
      r.order = result.order;
      r.restockedPartIds = result.restockedPartIds;
      return { returnId: r.returnId };
    },
  },
  {
    name: "allocate-stock",
    finishedBy: STOCK_SWEEP,
    run: async (r) => {
      if (r.restockedPartIds.length) await allocateArrivedStock(r.restockedPartIds);
    },
  },
  {
    name: "raise-return-event",
    finishedBy: EVENT_SWEEP,
    run: async (r) => raiseOrderEvent({ type: "returnUpdated", order: r.order!, returnId: r.returnId }),
  },
  {
    name: "audit-receive",
    finishedBy: NOT_AUDITED_AGAIN,
    run: async (r) => auditReturn(r.order!, r.returnId, "order.return-receive", r, "approved"),
  },
  ...(CREDIT_AFTER_CHANGE as Step<Receiving, Extract<ReturnOutcome, { ok: false }>>[]),
]);

export const RECEIVE_RETURN_STEPS = RECEIVE_RETURN.stepNames;

/** Staff record what came back of an approved return and each line's condition; units back to stock go to backorders first. */
export async function receiveReturnedParts(
  orderId: string,
  returnId: string,
  receipt: Receipt,
  options: Options,
  seam: Pick<WorkflowOptions, "afterStep"> = {},
): Promise<ReturnOutcome> {
  const r: Receiving = {
    ...crediting(orderId, { reason: "return", returnId }, options),
    returnId,
    receipt,
    restockedPartIds: [],
  };
  const result = await RECEIVE_RETURN.run(r, seam);
  if (!result.ok) return result.stop;
  const order = r.order!;
  const entry = order.returns.find((candidate) => candidate.id === returnId)!;
  return { ok: true, order, entry, ...(r.note ? { creditNote: r.note } : {}) };
}
