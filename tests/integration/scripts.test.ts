import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Part } from "~/models/part.server";
import { Review } from "~/models/review.server";
import { User } from "~/models/user.server";
import { verifyPassword } from "~/services/password.server";
import { createUser } from "../setup/factories";
import { tsxCommand } from "../setup/tsx-command";

/** Runs one of the project's npm scripts' entry points against the test database. */
function runScript(file: string, args: string[] = []) {
  const result = spawnSync(...tsxCommand(file, args), { env: process.env, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("npm run seed", () => {
  test("is idempotent: a second run adds nothing and prints the demo logins", async () => {
    runScript("scripts/seed.ts");
    const before = await Promise.all([Part.countDocuments(), Review.countDocuments(), User.countDocuments()]);
    const again = runScript("scripts/seed.ts");
    expect(again.status).toBe(0);
    expect(again.output).toContain("admin@partsworks.test / admin-demo-123");
    expect(await Promise.all([Part.countDocuments(), Review.countDocuments(), User.countDocuments()])).toEqual(before);
    expect(await Part.countDocuments({ partNumber: /^PW-10/ })).toBeGreaterThanOrEqual(12);
    expect(await User.exists({ email: "admin@partsworks.test", role: "admin" })).toBeTruthy();
  }, 60_000);
});

describe("npm run admin:create", () => {
  test("creates a new admin who can sign in with the given password", async () => {
    const email = `boss-${randomUUID().slice(0, 8)}@example.com`;
    const result = runScript("scripts/create-admin.ts", [
      "--email",
      email,
      "--password",
      "s3cret-boss",
      "--name",
      "Big Boss",
    ]);
    expect(result.status).toBe(0);
    const user = await User.findOne({ email }).select("+passwordHash").lean();
    expect(user).toMatchObject({ role: "admin", name: "Big Boss" });
    expect(await verifyPassword(user!.passwordHash!, "s3cret-boss")).toBe(true);
  }, 60_000);

  test("promotes an existing customer", async () => {
    const customer = await createUser();
    const result = runScript("scripts/create-admin.ts", ["--email", customer.email, "--password", "new-password"]);
    expect(result.status).toBe(0);
    expect(await User.findById(customer.id).lean()).toMatchObject({ role: "admin", name: customer.name });
    expect(await User.countDocuments({ email: customer.email })).toBe(1);
  }, 60_000);

  test("refuses bad arguments with a clear message and changes nothing", async () => {
    const count = await User.countDocuments();
    const result = runScript("scripts/create-admin.ts", ["--email", "not-an-email", "--password", "123"]);
    expect(result.status).toBe(1);
    expect(result.output).toContain("--email must be an email address");
    expect(result.output).toContain("--password must be 6 characters or longer");
    expect(await User.countDocuments()).toBe(count);
  }, 60_000);
});
