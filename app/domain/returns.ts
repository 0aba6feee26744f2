/**
 * Returns (RMA): why a customer sends units back, the states a return goes through, and the words
 * people read for each. Shared by the screens, mail, the API and the model.
 */
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

/** What staff found when the units came back: put back on the shelf, or scrapped. */
export const RETURN_CONDITIONS = ["restock", "scrap"] as const;
export type ReturnCondition = (typeof RETURN_CONDITIONS)[number];

export const RETURN_CONDITION_WORDS: Record<ReturnCondition, string> = {
  restock: "Back to stock",
  scrap: "Scrapped",
};

export const RMA_PREFIX = "RMA-";
/** Return numbers start here, so each has six digits like order numbers. */
export const RMA_NUMBER_BASE = 100_000;

export const formatRmaNumber = (number: number) => `${RMA_PREFIX}${number}`;

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
  }[];
  requestedAt: string;
  requestedBy: string;
  requestedByName: string;
  decidedAt: string | null;
  decidedBy: string | null;
  declineReason: string | null;
  receivedAt: string | null;
  receivedBy: string | null;
  condition: ReturnCondition | null;
};
