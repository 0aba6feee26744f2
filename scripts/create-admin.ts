import { parseArgs } from "node:util";
import { z } from "zod";
import { User } from "../app/models/user.server";
import { hashPassword } from "../app/services/password.server";
import { withDb } from "./with-db";

/**
 * npm run admin:create -- --email E --password P [--name N]
 * Creates an admin, or promotes (and sets the password of) an existing user.
 */
const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
});
const parsed = z
  .object({
    email: z.string({ required_error: "--email is required" }).email("--email must be an email address"),
    password: z
      .string({ required_error: "--password is required" })
      .min(6, "--password must be 6 characters or longer"),
    name: z.string().min(1).max(100).optional(),
  })
  .safeParse(values);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(issue.message);
  console.error("Usage: npm run admin:create -- --email E --password P [--name N]");
  process.exit(1);
}
const { email, password, name } = parsed.data;
await withDb(async () => {
  const passwordHash = await hashPassword(password);
  const existing = await User.findOne({ email: email.toLowerCase() });
  if (existing) {
    existing.role = "admin";
    existing.passwordHash = passwordHash;
    if (name) existing.name = name;
    await existing.save();
    console.log(`${email} is now an admin.`);
  } else {
    await User.create({ email, name: name ?? email.split("@")[0], role: "admin", passwordHash });
    console.log(`Created admin ${email}.`);
  }
});
