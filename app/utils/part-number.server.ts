import { findPartIdByNumber, getPartCatalogue } from "~/models/part-catalogue.server";
import { getPart } from "~/models/part.server";

/**
 * The part a typed number names: its part number or one of its OE cross-references, exactly, with
 * dashes, spaces and case aside (as the catalogue search's first question). Null when none or several.
 */
export async function findPartByNumber(text: string) {
  const id = await findPartIdByNumber(text);
  if (!id) return null;
  const [part, catalogue] = await Promise.all([getPart(id), getPartCatalogue(id)]);
  return part && catalogue ? { ...part, ...catalogue } : null;
}
