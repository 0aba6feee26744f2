/**
 * Saved lists (docs/behaviour.md, "Saved lists"): named lists of parts and quantities a customer
 * buys again and again, kept to themselves or shared with their company. Who may see and change a
 * list, the rules of its lines, the audit of shared lists, and filling the cart from a list, for
 * the screens and the API alike.
 */
import type { PartView } from "~/domain/catalogue";
import { lineProblem, PART_GONE_MESSAGE } from "~/domain/order-lines";
import { inCurrency, noPriceIn } from "~/domain/pricing";
import { formatQuantity } from "~/format";
import { MAX_LIST_LINES, MAX_LIST_QUANTITY, NEW_LIST, type ListChoice } from "~/forms/saved-list-forms";
import { addLinesToCart, getCart } from "~/models/cart.server";
import { getPartsByIds } from "~/models/part.server";
import {
  deleteSavedList,
  getSavedList,
  insertSavedList,
  listSavedLists,
  ownerNames,
  updateSavedList,
  type ListChange,
  type SavedListLine,
  type SavedListView,
} from "~/models/saved-list.server";
import type { UserView } from "~/models/user.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { findPartsByNumbers, matchOf, unmatchedMessage } from "./part-number.server";

export type ListUser = Pick<UserView, "id" | "email" | "role" | "companyId" | "companyRole" | "pricing">;
type Context = AuditEvent["context"];

export type Refusal = { ok: false; status: 400 | 404 | 409 | 413 | 415 | 422; message: string; field?: string };
const refuse = (status: Refusal["status"], message: string, field?: string): Refusal => ({
  ok: false,
  status,
  message,
  field,
});

export const LIST_NOT_FOUND = "We could not find that list among yours or your company's.";
export const nameTaken = (name: string) => `You already have a list called “${name.trim()}”: choose another name.`;
const TOO_MANY_LINES = `A list holds at most ${MAX_LIST_LINES} lines.`;

// --- Who sees and changes a list -------------------------------------------------------------------

/** The owner, and while it is shared, every member of the owner's company. */
export function mayView(user: ListUser, list: SavedListView) {
  return list.ownerId === user.id || (list.shared && list.companyId === user.companyId);
}

/** The owner, and a company owner for a list shared with their company. */
export function mayEdit(user: ListUser, list: SavedListView) {
  return list.ownerId === user.id || (list.shared && list.companyId === user.companyId && user.companyRole === "owner");
}

async function visibleList(user: ListUser, listId: string) {
  if (user.role !== "customer") return null;
  const list = await getSavedList(listId);
  return list && mayView(user, list) ? list : null;
}

export type ListRow = {
  id: string;
  name: string;
  lineCount: number;
  ownerName: string;
  mine: boolean;
  shared: boolean;
  updatedAt: string;
};

/** My lists and the company's shared ones, last changed first. */
export async function listsOf(user: ListUser): Promise<ListRow[]> {
  const lists = await listSavedLists({ ownerId: user.id, companyId: user.companyId });
  const names = await ownerNames(lists.map((list) => list.ownerId));
  return lists.map((list) => ({
    id: list.id,
    name: list.name,
    lineCount: list.lines.length,
    ownerName: names.get(list.ownerId) ?? "A former member",
    mine: list.ownerId === user.id,
    shared: list.shared,
    updatedAt: list.updatedAt,
  }));
}

/** The lists the save forms offer: those this customer may change. */
export async function listChoicesFor(user: ListUser): Promise<ListChoice[]> {
  if (user.role !== "customer") return [];
  const lists = await listSavedLists({ ownerId: user.id, companyId: user.companyId });
  return lists.filter((list) => mayEdit(user, list)).map((list) => ({ id: list.id, name: list.name }));
}

/** One list as its page shows it, or null when this customer may not see it. */
export async function getListFor(user: ListUser, listId: string) {
  const list = await visibleList(user, listId);
  if (!list) return null;
  const names = await ownerNames([list.ownerId]);
  return { list, mayEdit: mayEdit(user, list), ownerName: names.get(list.ownerId) ?? "A former member" };
}

/** A list's lines for another screen (a quote request), or null when this customer may not see it. */
export async function listLinesFor(user: ListUser, listId: string) {
  const list = await visibleList(user, listId);
  if (!list) return null;
  return {
    id: list.id,
    name: list.name,
    lines: list.lines.map(({ partId, partNumber, quantity }) => ({ partId, partNumber, quantity })),
  };
}

// --- Lines ---------------------------------------------------------------------------------------

type Part = Pick<PartView, "id" | "partNumber" | "name" | "minOrderQuantity">;

/** What is wrong with `quantity` of `part` on a list (null when nothing is). */
export function quantityProblem(part: Part, quantity: number) {
  if (!Number.isSafeInteger(quantity) || quantity < 1) return "Quantity must be a whole number";
  if (quantity < part.minOrderQuantity) {
    return `The minimum order of ${part.partNumber} is ${formatQuantity(part.minOrderQuantity)} units`;
  }
  if (quantity > MAX_LIST_QUANTITY) return `A list line holds at most ${formatQuantity(MAX_LIST_QUANTITY)} units`;
  return null;
}

const lineOf = (part: Part, quantity: number): SavedListLine => ({
  partId: part.id,
  partNumber: part.partNumber,
  name: part.name,
  quantity,
});

/** `added` merged into `lines`: the same part twice is one line with both quantities. */
function mergeLines(lines: SavedListLine[], added: SavedListLine[]) {
  const next = lines.map((line) => ({ ...line }));
  for (const line of added) {
    const existing = next.find((each) => each.partId === line.partId);
    if (existing) existing.quantity += line.quantity;
    else next.push({ ...line });
  }
  return next;
}

/** The merged lines, or why they cannot be a list's. */
function checkedMerge(lines: SavedListLine[], added: SavedListLine[]): SavedListLine[] | Refusal {
  const next = mergeLines(lines, added);
  if (next.length > MAX_LIST_LINES) return refuse(409, TOO_MANY_LINES);
  const over = next.find((line) => line.quantity > MAX_LIST_QUANTITY);
  if (over) {
    return refuse(
      409,
      `${over.partNumber} would come to ${formatQuantity(over.quantity)} units: a list line holds at most ${formatQuantity(MAX_LIST_QUANTITY)}.`,
      "quantity",
    );
  }
  return next;
}

// --- Changes -------------------------------------------------------------------------------------

async function auditShared(
  user: ListUser,
  action: "saved-list.create" | "saved-list.share" | "saved-list.delete",
  list: Pick<SavedListView, "companyId" | "name" | "lines">,
  context?: Context,
) {
  await audit({
    context,
    actor: { id: user.id, email: user.email },
    action,
    target: { type: "company", id: list.companyId, label: `List “${list.name}”` },
    after: { name: list.name, lines: list.lines.length },
  });
}

/** A new list of this customer's; a shared one is audited. */
export async function createList(
  user: ListUser,
  { name, shared = false, lines = [] }: { name: string; shared?: boolean; lines?: SavedListLine[] },
  context?: Context,
): Promise<{ ok: true; list: SavedListView } | Refusal> {
  if (user.role !== "customer") return refuse(404, LIST_NOT_FOUND);
  const merged = checkedMerge([], lines);
  if ("ok" in merged) return merged;
  const created = await insertSavedList({ ownerId: user.id, companyId: user.companyId, name, shared, lines: merged });
  if (!created.ok) return refuse(409, nameTaken(name), "name");
  if (shared) await auditShared(user, "saved-list.create", created.list, context);
  return created;
}

/**
 * Reads the list, lets `change` check it and say what to write, and writes it only while the list
 * is still as read (re-read and checked again when someone changed it meanwhile).
 */
async function editList(
  user: ListUser,
  listId: string,
  change: (list: SavedListView) => ListChange | Refusal | Promise<ListChange | Refusal>,
): Promise<{ ok: true; before: SavedListView; change: ListChange } | Refusal> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const list = await visibleList(user, listId);
    if (!list) return refuse(404, LIST_NOT_FOUND);
    if (!mayEdit(user, list)) return refuse(409, "Only the list's owner or a company owner may change it.");
    const next = await change(list);
    if ("ok" in next) return next;
    const written = await updateSavedList(list.id, list.version, next);
    if (written === "taken") return refuse(409, nameTaken(next.name ?? ""), "name");
    if (written === "ok") return { ok: true, before: list, change: next };
  }
  return refuse(409, "The list kept changing while you saved: look at it again and try once more.");
}

export const renameList = (user: ListUser, listId: string, name: string) => editList(user, listId, () => ({ name }));

/** Shares or stops sharing; sharing is audited (the company sees the list from then on). */
export async function shareList(user: ListUser, listId: string, shared: boolean, context?: Context) {
  const edited = await editList(user, listId, () => ({ shared }));
  if (edited.ok && shared && !edited.before.shared) {
    await auditShared(user, "saved-list.share", edited.before, context);
  }
  return edited;
}

export const setLineQuantity = (user: ListUser, listId: string, partId: string, quantity: number) =>
  editList(user, listId, async (list) => {
    const line = list.lines.find((each) => each.partId === partId);
    if (!line) return refuse(409, "That part is not on the list (any more).");
    const part = (await getPartsByIds([partId])).get(partId);
    const problem = part ? quantityProblem(part, quantity) : null;
    if (problem) return refuse(400, problem, "quantity");
    return { lines: list.lines.map((each) => (each.partId === partId ? { ...each, quantity } : each)) };
  });

export const removeLine = (user: ListUser, listId: string, partId: string) =>
  editList(user, listId, (list) => {
    if (!list.lines.some((each) => each.partId === partId))
      return refuse(409, "That part is not on the list (any more).");
    return { lines: list.lines.filter((each) => each.partId !== partId) };
  });

/** A part by its number (or OE number) onto the list, merged with its line if it is there. */
export const addPartByNumber = (user: ListUser, listId: string, partNumber: string, quantity: number) =>
  editList(user, listId, async (list) => {
    const match = matchOf(await findPartsByNumbers([partNumber]), partNumber);
    if (!match.part) return refuse(400, unmatchedMessage(partNumber.toUpperCase(), match) ?? "", "partNumber");
    const problem = quantityProblem(match.part, quantity);
    if (problem) return refuse(400, problem, "quantity");
    const lines = checkedMerge(list.lines, [lineOf(match.part, quantity)]);
    return "ok" in lines ? lines : { lines };
  });

/** Deletes the list; deleting a shared one is audited. */
export async function deleteList(user: ListUser, listId: string, context?: Context) {
  const list = await visibleList(user, listId);
  if (!list) return refuse(404, LIST_NOT_FOUND);
  if (!mayEdit(user, list)) return refuse(409, "Only the list's owner or a company owner may delete it.");
  if (!(await deleteSavedList(list.id, list.version))) {
    return refuse(409, "The list changed just now: look at it again before deleting it.");
  }
  if (list.shared) await auditShared(user, "saved-list.delete", list, context);
  return { ok: true as const, list };
}

/**
 * Lines from elsewhere (a part page, the cart, a past order) onto a list of the customer's or a new
 * one: parts no longer sold are left out, quantities brought within the list's rules, each said.
 */
type SavedToList = { ok: true; list: { id: string; name: string }; saved: number; notes: string[] };

export async function saveLinesToList(
  user: ListUser,
  target: { listId: string; name?: string; shared?: boolean },
  wanted: { partId: string; quantity: number }[],
  { context, typed = false }: { context?: Context; typed?: boolean } = {},
): Promise<SavedToList | Refusal> {
  const parts = await getPartsByIds(wanted.map((line) => line.partId));
  const notes: string[] = [];
  const lines: SavedListLine[] = [];
  for (const { partId, quantity } of wanted) {
    const part = parts.get(partId);
    if (!part) {
      notes.push("A part that is no longer sold was left out.");
      continue;
    }
    // A quantity the customer typed is refused by its field; one from the cart or an order is fitted.
    const problem = typed ? quantityProblem(part, quantity) : null;
    if (problem) return refuse(400, problem, "quantity");
    const fitted = Math.min(MAX_LIST_QUANTITY, Math.max(part.minOrderQuantity, quantity));
    if (fitted !== quantity) {
      notes.push(`${part.partNumber}: ${formatQuantity(fitted)} units, not ${formatQuantity(quantity)}.`);
    }
    lines.push(lineOf(part, fitted));
  }
  if (lines.length === 0) return refuse(409, "Nothing here can go on a list: none of these parts is sold any more.");
  if (target.listId === NEW_LIST) {
    const created = await createList(user, { name: target.name ?? "", shared: target.shared ?? false, lines }, context);
    if (!created.ok) return created;
    return { ok: true, list: { id: created.list.id, name: created.list.name }, saved: lines.length, notes };
  }
  const edited = await editList(user, target.listId, (list) => {
    const merged = checkedMerge(list.lines, lines);
    return "ok" in merged ? merged : { lines: merged };
  });
  if (!edited.ok) return edited.status === 404 ? { ...edited, field: "listId" } : edited;
  return { ok: true, list: { id: edited.before.id, name: edited.before.name }, saved: lines.length, notes };
}

/** The customer's cart, as it is, onto a list. */
export async function saveCartToList(
  user: ListUser,
  target: { listId: string; name?: string; shared?: boolean },
  context?: Context,
) {
  const cart = await getCart(user.id);
  if (cart.lines.length === 0) return refuse(409, "Your cart is empty: there is nothing to save.");
  return saveLinesToList(user, target, cart.lines, { context });
}

// --- Into the cart -------------------------------------------------------------------------------

export type CartRefusedLine = { partNumber: string; name: string; reason: string };

/**
 * The list's lines (all, or the chosen parts) into the customer's cart, each checked as the cart
 * checks a line (still sold, sold in the buyer's currency, minimum, stock counting what the cart
 * holds): the lines that pass go in, the others come back with the reason.
 */
export async function addListToCart(
  user: ListUser,
  listId: string,
  chosen?: string[],
): Promise<{ ok: true; added: number; refused: CartRefusedLine[] } | Refusal> {
  const list = await visibleList(user, listId);
  if (!list) return refuse(404, LIST_NOT_FOUND);
  const lines = chosen ? list.lines.filter((line) => chosen.includes(line.partId)) : list.lines;
  if (lines.length === 0) {
    return refuse(409, chosen ? "None of the lines you ticked is on the list (any more)." : "The list is empty.");
  }
  const [parts, cart] = await Promise.all([getPartsByIds(lines.map((line) => line.partId)), getCart(user.id)]);
  const inCart = new Map(cart.lines.map((line) => [line.partId, line.quantity]));
  const refused: CartRefusedLine[] = [];
  const going: { partId: string; quantity: number }[] = [];
  for (const line of lines) {
    const part = parts.get(line.partId);
    const said = { partNumber: line.partNumber, name: line.name };
    if (!part) {
      refused.push({ ...said, reason: PART_GONE_MESSAGE });
      continue;
    }
    if (!inCurrency(part, user.pricing.currency)) {
      refused.push({ ...said, reason: noPriceIn(part.partNumber, user.pricing.currency) });
      continue;
    }
    const already = inCart.get(part.id) ?? 0;
    const problem = lineProblem(part, already + line.quantity);
    if (problem) {
      const held = already ? ` (${formatQuantity(already)} already in your cart)` : "";
      refused.push({ ...said, reason: `${problem.message}${held}` });
      continue;
    }
    going.push({ partId: part.id, quantity: line.quantity });
    inCart.set(part.id, already + line.quantity);
  }
  if (going.length) {
    const stored = await addLinesToCart(user.id, going);
    if (!stored.ok) {
      return refuse(409, `Your cart would hold more than ${MAX_LIST_LINES} lines: make room in it first.`);
    }
  }
  return { ok: true, added: going.length, refused };
}

/** "12 lines added to your cart", and what was not, for a toast. */
export function cartOutcomeWords(outcome: { added: number; refused: CartRefusedLine[] }) {
  const lines = (count: number) => `${count} ${count === 1 ? "line" : "lines"}`;
  const message = outcome.added
    ? `${lines(outcome.added)} added to your cart`
    : "Nothing from the list could go into your cart";
  const description = outcome.refused.length
    ? `Not added: ${outcome.refused.map((line) => `${line.partNumber} ${line.name}: ${line.reason}`).join("; ")}.`
    : undefined;
  return { message, description };
}

/** A list as the API answers it. */
export function listJson(user: Pick<ListUser, "id">, list: SavedListView) {
  return {
    id: list.id,
    name: list.name,
    shared: list.shared,
    mine: list.ownerId === user.id,
    lines: list.lines,
    updatedAt: list.updatedAt,
  };
}

/** The lists the API lists: the key owner's and their company's shared ones. */
export async function listsForApi(user: ListUser) {
  if (user.role !== "customer") return [];
  const lists = await listSavedLists({ ownerId: user.id, companyId: user.companyId });
  return lists.map((list) => listJson(user, list));
}

/** One list for the API, or null when the key owner may not see it. */
export async function listForApi(user: ListUser, listId: string) {
  const list = await visibleList(user, listId);
  return list ? listJson(user, list) : null;
}
