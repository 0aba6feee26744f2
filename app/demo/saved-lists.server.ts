/**
 * The demo's saved list: the trade company's monthly restock, shared with its members, made through
 * the lists service (so its audit entry is what a real one leaves).
 */
import { Part } from "~/models/part.server";
import { getUserByEmail } from "~/models/user.server";
import { SavedList } from "~/models/saved-list.server";
import { createList } from "~/services/saved-lists.server";
import { DEMO_TRADE } from "./content.server";

export const DEMO_LIST_NAME = "Monthly workshop restock";

/** What a garage of a dozen bays goes through in a month, at each part's minimum order or above. */
const DEMO_LIST_LINES: [partNumber: string, quantity: number][] = [
  ["PW-1003", 400],
  ["PW-1004", 200],
  ["PW-1005", 600],
  ["PW-1001", 200],
  ["PW-1011", 300],
  ["PW-1012", 100],
];

/** Added once, also to a demo database made before saved lists existed. */
export async function ensureDemoSavedLists() {
  const owner = await getUserByEmail(DEMO_TRADE.email);
  if (!owner?.companyId) return;
  if (await SavedList.exists({ ownerId: owner.id, nameKey: DEMO_LIST_NAME.toLowerCase() })) return;
  const parts = await Part.find(
    { partNumber: { $in: DEMO_LIST_LINES.map(([number]) => number) } },
    { partNumber: 1, name: 1 },
  ).lean();
  const byNumber = new Map(parts.map((part) => [part.partNumber, part]));
  const lines = DEMO_LIST_LINES.flatMap(([number, quantity]) => {
    const part = byNumber.get(number);
    return part ? [{ partId: String(part._id), partNumber: number, name: part.name, quantity }] : [];
  });
  await createList(owner, { name: DEMO_LIST_NAME, shared: true, lines });
}
