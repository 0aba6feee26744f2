/**
 * What the order workflows share: who acts and for which audit context, the order as an audit
 * target, and the names of the sweeps that finish what a workflow leaves after its change stands.
 */
import type { AuditEvent } from "~/services/audit-trail.server";
import type { WorkflowOptions } from "~/services/workflow.server";
import type { OrderView } from "./model/view.server";

export type Actor = { id: string; email: string };
export type Options = { actor: Actor; context?: AuditEvent["context"] };
/** The workflow's seam between steps (the tests fail each in turn). */
export type Seam = Pick<WorkflowOptions, "afterStep">;

export const orderTarget = (order: OrderView) => ({
  type: "order" as const,
  id: order.id,
  label: `${order.number}: ${order.summary} for ${order.userEmail}`,
});

export const EVENT_SWEEP = "the order event sweep";
export const LEDGER_SWEEP = "the ledger sweep";
export const STOCK_SWEEP = "the stock sweep";
/** An audit entry is written by the run that made the change: a crash just before it loses it. */
export const NOT_AUDITED_AGAIN =
  "nobody: the audit entry is not written again (the order keeps the change and its date)";
