/**
 * Returns (RMA): why a customer sends units back, the states a return goes through, and the words
 * people read for each. Shared by the screens, mail, the API and the model.
 */
import { company } from "~/content/company";
import { addressLines } from "./address";

export const RETURN_REASONS = ["wrong-part-ordered", "wrong-part-sent", "damaged", "warranty"] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_REASON_WORDS: Record<ReturnReason, string> = {
  "wrong-part-ordered": "Wrong part ordered",
  "wrong-part-sent": "Wrong part sent",
  damaged: "Arrived damaged",
  warranty: "Failed under warranty",
};

/** requested -> approved (an RMA number) -> received; or requested -> declined. */
export const RETURN_STATUSES = ["requested", "approved", "declined", "received"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_STATUS_WORDS: Record<ReturnStatus, string> = {
  requested: "Requested, waiting for the shop",
  approved: "Approved, waiting for the parts",
  declined: "Declined",
  received: "Received",
};

/**
 * What staff found when a line's units came back: put back on the shelf, held aside to be inspected
 * (not on sale), or scrapped. Only "restock" changes the part's stock.
 */
export const RETURN_CONDITIONS = ["restock", "inspect", "scrap"] as const;
export type ReturnCondition = (typeof RETURN_CONDITIONS)[number];

export const RETURN_CONDITION_WORDS: Record<ReturnCondition, string> = {
  restock: "Back to stock",
  inspect: "Held for inspection",
  scrap: "Scrapped",
};

/** The choices on staff's receipt form, one per line. */
export const RETURN_CONDITION_CHOICES: Record<ReturnCondition, string> = {
  restock: "Good: back to stock",
  inspect: "Inspect: held aside, not on sale",
  scrap: "Scrapped: not fit to sell again",
};

/**
 * The condition a line starts at when staff receive it: a part that arrived damaged, or is not the
 * part the line says (sent in error), is inspected before anything goes back on sale; one that
 * failed under warranty is faulty; only the customer's own wrong choice is expected back as new.
 */
export const DEFAULT_RETURN_CONDITION: Record<ReturnReason, ReturnCondition> = {
  "wrong-part-ordered": "restock",
  "wrong-part-sent": "inspect",
  damaged: "inspect",
  warranty: "scrap",
};

export const RMA_PREFIX = "RMA-";
/** Return numbers start here, so each has six digits like order numbers. */
export const RMA_NUMBER_BASE = 100_000;

export const formatRmaNumber = (number: number) => `${RMA_PREFIX}${number}`;

/** The RMA document (a label for the parcel, where to send it, what is in it), or its PDF. */
export const rmaPath = (orderId: string, number: string, pdf = false) =>
  `/documents/${orderId}/rma/${number}${pdf ? "/pdf" : ""}`;

/** Where returned parts are sent, line by line as on a parcel's label (content/company.ts keeps it once). */
export const RETURNS_ADDRESS_LINES = addressLines(company.returnsAddress);

/** The refusal of a receipt that names line `line` (from 1) of a return of `count` lines. */
export const lineNotInReturn = (count: number, line: number) =>
  `This return has ${count} ${count === 1 ? "line" : "lines"}: line ${line} is not in it. Reload the page and record what came back again.`;

export const MAX_RETURN_NOTE = 1000;
export const MAX_DECLINE_REASON = 300;

/** A return (RMA) of some shipped units: numbered once approved. */
export type ReturnView = {
  id: string;
  /** "RMA-100042" once approved, else null. */
  number: string | null;
  status: ReturnStatus;
  reason: ReturnReason;
  note: string;
  lines: {
    lineIndex: number;
    partNumber: string;
    productName: string;
    quantity: number;
    receivedQuantity: number | null;
    /** What came back of this line was found in (a return received before lines had their own: the return's). */
    condition: ReturnCondition | null;
  }[];
  requestedAt: string;
  requestedBy: string;
  requestedByName: string;
  decidedAt: string | null;
  decidedBy: string | null;
  declineReason: string | null;
  receivedAt: string | null;
  receivedBy: string | null;
  /** The lines' condition when they all share one, else null (see each line's). */
  condition: ReturnCondition | null;
};

/** The RMA document: a label for the parcel (the RMA number, where to send it, who sends it) and what is in it. */
export type RmaDocumentData = {
  number: string;
  status: ReturnStatus;
  reason: ReturnReason;
  approvedAt: string | null;
  receivedAt: string | null;
  order: { id: string; number: string };
  /** Who sends it: the customer, at the order's delivery address. */
  sender: string[];
  /** Where it goes (RETURNS_ADDRESS_LINES). */
  returnsAddress: string[];
  lines: {
    partNumber: string;
    productName: string;
    quantity: number;
    receivedQuantity: number | null;
    condition: ReturnCondition | null;
  }[];
};

export const rmaFileName = (number: string) => `return-label-${number}.pdf`;
