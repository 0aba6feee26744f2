/** Test data written straight to the database, and sessions for it (shared by both suites). */
import type { Category } from "~/domain/catalogue";
import { randomUUID } from "node:crypto";
import { Part, toPartView } from "~/models/part.server";
import { createSession } from "~/models/session.server";
import type { UpdateQuery } from "mongoose";
import { Company, type CompanyDoc, type CompanyRole } from "~/models/company.server";
import { User, toUserView, type Role } from "~/models/user.server";
import { hashPassword } from "~/services/password.server";
import { authSessionStorage } from "~/services/session-cookie.server";

export const TEST_PASSWORD = "correct-horse-42";

let passwordHash: Promise<string> | undefined;

export async function createUser({
  role = "customer",
  name = role === "admin" ? "Ada Admin" : "Carl Customer",
  email = `${role}-${randomUUID().slice(0, 8)}@example.com`,
  verified = true,
  company,
  spendingLimitCents,
}: {
  role?: Role;
  name?: string;
  email?: string;
  /** false: the address was never proved (a fresh sign-up). */ verified?: boolean;
  /** A member of this company with this role (else the owner of a company of one). */
  company?: { id: string; role: CompanyRole };
  spendingLimitCents?: number;
} = {}) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const doc = await User.create({
    email,
    name,
    role,
    passwordHash: await passwordHash,
    ...(verified ? { emailVerifiedAt: new Date() } : {}),
    ...(company ? { companyId: company.id, companyRole: company.role } : {}),
    ...(spendingLimitCents ? { spendingLimitCents } : {}),
  });
  if (company?.role === "owner") await Company.updateOne({ _id: company.id }, { $inc: { ownerCount: 1 } });
  return { ...toUserView(doc.toObject()), password: TEST_PASSWORD };
}

/**
 * The customer as stored: the user's own fields with their company's (details, address book, terms,
 * caps) on top, as they were on the user before companies.
 */
export async function storedCustomer(userId: string) {
  const user = await User.findById(userId).lean();
  if (!user) return null;
  const company = await Company.findById(user.companyId).lean();
  const { _id, createdAt, updatedAt, ...shared } = company ?? ({} as Partial<CompanyDoc>);
  void [_id, createdAt, updatedAt];
  return { ...user, ...shared };
}

/** Changes a customer's company document directly (what an admin or the migration would have set). */
export async function updateCompanyOf(userId: string, update: UpdateQuery<CompanyDoc>) {
  const user = await User.findById(userId, { companyId: 1 }).lean();
  await Company.updateOne({ _id: user!.companyId }, update);
}

export async function createPart(
  fields: Partial<{
    name: string;
    priceCents: number;
    minOrderQuantity: number;
    availableQuantity: number;
    description: string;
    partNumber: string;
    oeNumbers: string[];
    category: string;
    brand: string;
    volumeBreaks: { minQuantity: number; percentOff: number | null; unitPriceCents: number | null }[];
  }> = {},
) {
  const unique = randomUUID().slice(0, 8).toUpperCase();
  const doc = await Part.create({
    name: fields.name ?? `Test Part ${unique}`,
    partNumber: fields.partNumber ?? `T-${unique}`,
    oeNumbers: fields.oeNumbers ?? [],
    description: fields.description ?? "A part made for a test.",
    img: "/images/parts/pw-1001.svg",
    priceCents: fields.priceCents ?? 500,
    minOrderQuantity: fields.minOrderQuantity ?? 100,
    availableQuantity: fields.availableQuantity ?? 1000,
    ...(fields.category ? { category: fields.category as Category } : {}),
    ...(fields.brand ? { brand: fields.brand } : {}),
    ...(fields.volumeBreaks ? { volumeBreaks: fields.volumeBreaks } : {}),
  });
  return toPartView(doc.toObject());
}

/** The value of the signed `__session` cookie for a new session of this user. */
export async function sessionCookieValue(userId: string) {
  const sessionId = await createSession(userId);
  const session = await authSessionStorage.getSession();
  session.set("sessionId", sessionId);
  const header = await authSessionStorage.commitSession(session);
  const pair = header.split(";")[0];
  return { sessionId, value: pair.slice(pair.indexOf("=") + 1) };
}

/** A `Cookie` header that signs in as this user. */
export async function sessionCookieHeader(userId: string) {
  const { value } = await sessionCookieValue(userId);
  return `__session=${value}`;
}
