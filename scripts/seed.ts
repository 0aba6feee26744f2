import { ensureDemoData } from "../app/demo/data.server";
import { withDb } from "./with-db";

/** npm run seed: adds the demo parts, reviews and accounts that are missing (idempotent). */
const logins = await withDb(ensureDemoData);
console.log("Demo data is in place. Logins:");
for (const login of logins)
  console.log(`  ${login.role.padEnd(8)} ${login.email} / ${login.password}${login.note ? ` (${login.note})` : ""}`);
