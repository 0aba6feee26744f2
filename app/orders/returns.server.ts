/**
 * The returns service: a customer asks to return shipped units, staff approve (RMA number and
 * instructions by mail) or decline, then record what came back and its condition. Units back to
 * stock raise the part's stock, and backorders waiting on it are allocated. Each step raises the
 * order's event (mail, webhooks) and audits.
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
import { creditReceivedReturn } from "./credit-notes.server";

type Actor = { id: string; email: string };
type Options = { actor: Actor; context?: AuditEvent["context"] };

export type ReturnOutcome =
  | { ok: true; order: OrderView; entry: ReturnView; creditNote?: CreditNoteView | null }
  | { ok: false; status: 404 | 409 | 422; message: string; lineIndex?: number };

const CHANGED = "This return changed just now (someone else acted on it); look at it again.";

const describeUnits = (entry: ReturnView, received = false) =>
  entry.lines
    .map(
      (line) => `${received ? (line.receivedQuantity ?? 0) : line.quantity} × ${line.partNumber || line.productName}`,
    )
    .join(", ");

async function afterChange(
  order: OrderView,
  returnId: string,
  action: AuditAction,
  { actor, context }: Options,
  before: string | null,
) {
  const entry = order.returns.find((candidate) => candidate.id === returnId)!;
  await raiseOrderEvent({ type: "returnUpdated", order, returnId });
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

/** Staff record what came back of an approved return and its condition; units back to stock go to backorders first. */
export async function receiveReturnedParts(
  orderId: string,
  returnId: string,
  receipt: Receipt,
  options: Options,
): Promise<ReturnOutcome> {
  const result = await receiveReturn(orderId, returnId, receipt, options.actor.email);
  if (result.outcome === "not_found") return { ok: false, status: 404, message: "That return does not exist." };
  if (result.outcome === "refused")
    return {
      ok: false,
      status: result.lineIndex === undefined ? 409 : 422,
      message: result.message,
      lineIndex: result.lineIndex,
    };
  if (result.outcome === "changed") return { ok: false, status: 409, message: CHANGED };
  if (result.restockedPartIds.length) await allocateArrivedStock(result.restockedPartIds);
  const received = await afterChange(result.order, returnId, "order.return-receive", options, "approved");
  // What came back is credited: a credit note, and a refund of card money.
  const credited = await creditReceivedReturn(orderId, returnId, options);
  return credited?.ok ? { ...received, order: credited.order, creditNote: credited.note } : received;
}
