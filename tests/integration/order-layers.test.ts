/**
 * The floors of the app, as the lint (eslint.config.js) keeps them: each probe is a file that a
 * newcomer might write at that place, linted by the project's own ESLint configuration.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, test } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

/** The restricted-path messages a file at `filePath` with these imports gets. */
async function layerErrors(filePath: string, imports: string[]) {
  const code = imports.map((spec, i) => `import * as m${i} from "${spec}";\nexport const u${i} = m${i};\n`).join("");
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === "import-x/no-restricted-paths");
}

describe("the order module's floors", () => {
  test("its model floor imports models, app/domain and itself, never a service, util, route or component", async () => {
    const file = "app/orders/model/probe.server.ts";
    expect(await layerErrors(file, ["./schema.server", "~/models/part.server", "~/domain/order-states"])).toEqual([]);
    for (const spec of [
      "../events.server",
      "~/orders/checkout.server",
      "~/services/env.server",
      "~/routes/dashboard.cart",
      "~/components/order-details",
      "~/emails/orders",
    ]) {
      expect(await layerErrors(file, [spec]), spec).not.toEqual([]);
    }
  });

  test("models elsewhere read the order's model floor, never its services", async () => {
    const file = "app/models/probe.server.ts";
    expect(await layerErrors(file, ["~/orders/model/view.server"])).toEqual([]);
    expect(await layerErrors(file, ["~/orders/service.server"])).not.toEqual([]);
  });

  test("its services use models and services, and never import a route", async () => {
    const file = "app/orders/probe.server.ts";
    expect(await layerErrors(file, ["./model/schema.server", "~/services/email.server", "./events.server"])).toEqual(
      [],
    );
    expect(await layerErrors(file, ["~/routes/dashboard.cart"])).not.toEqual([]);
  });

  test("app/domain stays plain: no import of the order module", async () => {
    expect(await layerErrors("app/domain/probe.ts", ["~/orders/model/schema.server"])).not.toEqual([]);
  });
});

describe("what the browser runs, and the services", () => {
  const serverOnly = [
    "~/models/user.server",
    "~/orders/service.server",
    "~/services/guards.server",
    "~/orders/model/view.server",
  ];

  test("a component takes shapes from app/domain and formatting from app/format, never a model or a *.server file", async () => {
    const file = "app/components/probe.tsx";
    expect(await layerErrors(file, ["~/domain/catalogue", "~/format", "~/forms/cart-forms", "./forms"])).toEqual([]);
    for (const spec of serverOnly) expect(await layerErrors(file, [spec]), spec).not.toEqual([]);
  });

  test("mail templates, app/format, forms, hooks and a route's own forms import no model or *.server file either", async () => {
    for (const file of [
      "app/emails/probe.tsx",
      "app/format/probe.ts",
      "app/forms/probe.ts",
      "app/hooks/probe.ts",
      "app/routes/dashboard.probe/forms.ts",
      "app/browser/probe.ts",
    ]) {
      expect(await layerErrors(file, ["~/domain/address"]), file).toEqual([]);
      for (const spec of [...serverOnly, "~/services/email.server"]) {
        expect(await layerErrors(file, [spec]), `${file} importing ${spec}`).not.toEqual([]);
      }
    }
  });

  test("services and models never import a route or a component", async () => {
    for (const file of ["app/services/probe.server.ts", "app/orders/probe.server.ts", "app/models/probe.server.ts"]) {
      for (const spec of ["~/routes/dashboard.cart", "~/components/part-card"]) {
        expect(await layerErrors(file, [spec]), `${file} importing ${spec}`).not.toEqual([]);
      }
    }
    expect(await layerErrors("app/services/probe.server.ts", ["~/models/part.server", "~/emails/orders"])).toEqual([]);
    // The document renderer may render the printed order, and only that component; a service may not.
    expect(await layerErrors("app/orders/probe.server.ts", ["~/components/order-document"])).toEqual([]);
    expect(await layerErrors("app/services/probe.server.ts", ["~/components/order-document"])).not.toEqual([]);
  });

  test("the order module sits above the services: a service importing any of it (types too) is refused, the module importing a service is not", async () => {
    for (const spec of ["~/orders/service.server", "~/orders/model/view.server", "~/orders/events.server"]) {
      const [refused] = await layerErrors("app/services/probe.server.ts", [spec]);
      expect(refused?.message, spec).toMatch(/The order module sits above the services/);
    }
    expect(
      await layerErrors("app/orders/probe.server.ts", ["~/services/stripe.server", "~/services/webhooks.server"]),
    ).toEqual([]);
  });

  test("the demo data sits above the shop: nothing below it imports it, and it writes through the module", async () => {
    for (const file of ["app/services/probe.server.ts", "app/orders/probe.server.ts", "app/models/probe.server.ts"]) {
      const [refused] = await layerErrors(file, ["~/demo/data.server"]);
      expect(refused?.message, file).toMatch(/The demo data sits above the shop/);
    }
    expect(
      await layerErrors("app/demo/probe.server.ts", ["~/orders/model/schema.server", "~/services/pricing.server"]),
    ).toEqual([]);
  });

  test("audit entries are raised by services: a route importing the audit trail is refused, a service is not", async () => {
    const [refused] = await layerErrors("app/routes/dashboard.probe.tsx", ["~/services/audit-trail.server"]);
    expect(refused?.message).toMatch(/Routes never write the audit log/);
    expect(await layerErrors("app/routes/dashboard.probe.tsx", ["~/services/parts.server"])).toEqual([]);
    for (const file of ["app/services/probe.server.ts", "app/orders/probe.server.ts"]) {
      expect(await layerErrors(file, ["~/services/audit-trail.server"]), file).toEqual([]);
    }
  });
});

test("numbers and dates are formatted by app/format only: a screen formatting one itself is refused", async () => {
  const code = `export const a = (n: number) => n.toLocaleString("en-US");\nexport const b = new Intl.DateTimeFormat("en-US");\n`;
  const rules = async (filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.map((message) => message.ruleId);
  expect(await rules("app/components/probe.tsx")).toEqual(["no-restricted-properties", "no-restricted-properties"]);
  expect(await rules("app/format/probe.ts")).toEqual([]);
});

test("a folder's name says what its files may do: services run on the server only, forms and hooks in the browser too", () => {
  const files = (dir: string) => readdirSync(dir).filter((name) => !/\.test\.tsx?$/.test(name));
  expect(files("app/services").filter((name) => !/\.server\.tsx?$/.test(name))).toEqual([]);
  for (const dir of ["app/forms", "app/hooks", "app/domain", "app/format"]) {
    expect(
      files(dir).filter((name) => name.includes(".server.")),
      dir,
    ).toEqual([]);
  }
});

test("no module reaches itself through its imports: the lint refuses a circle, also through a third module", async () => {
  const dir = path.join(process.cwd(), "app", `cycle-probe-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, "a.server.ts"), 'import { b } from "./b.server";\nexport const a = () => b;\n');
    writeFileSync(path.join(dir, "b.server.ts"), 'import { c } from "./c.server";\nexport const b = () => c;\n');
    writeFileSync(path.join(dir, "c.server.ts"), 'import { a } from "./a.server";\nexport const c = () => a;\n');
    const results = await eslint.lintFiles([dir]);
    const circles = results.flatMap((result) =>
      result.messages.filter((message) => message.ruleId === "import-x/no-cycle"),
    );
    expect(circles).toHaveLength(3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("every floor is fenced by what it may import", () => {
  test("a file at app/'s root (the root route, the runtime, the entries) is above every floor: none imports it", async () => {
    for (const file of [
      "app/domain/probe.ts",
      "app/models/probe.server.ts",
      "app/orders/model/probe.server.ts",
      "app/services/probe.server.ts",
      "app/orders/probe.server.ts",
    ]) {
      for (const spec of ["~/root", "~/runtime.server", "~/entry.server"])
        expect(await layerErrors(file, [spec]), `${file} → ${spec}`).not.toEqual([]);
    }
  });

  test("a new folder in app/ is outside every floor until a floor lets it in", async () => {
    const dir = path.join(process.cwd(), "app", `reports-probe-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(path.join(dir, "monthly.server.ts"), "export const monthly = 1;\n");
      const spec = `~/reports-probe-${process.pid}/monthly.server`;
      for (const file of ["app/domain/probe.ts", "app/models/probe.server.ts", "app/services/probe.server.ts"])
        expect(await layerErrors(file, [spec]), file).not.toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("server/ never imports the app; shared/ imports neither; the app reaches server/ only through the request context and settings", async () => {
    expect(await layerErrors("server/probe.ts", ["../app/runtime.server"])).not.toEqual([]);
    expect(await layerErrors("server/probe.ts", ["./logger", "../shared/outage-words"])).toEqual([]);
    expect(await layerErrors("shared/probe.ts", ["../server/logger"])).not.toEqual([]);
    expect(await layerErrors("shared/probe.ts", ["../app/domain/ledger"])).not.toEqual([]);
    expect(await layerErrors("app/services/probe.server.ts", ["../../server/request-context"])).toEqual([]);
    expect(await layerErrors("app/services/probe.server.ts", ["../../server/logger"])).not.toEqual([]);
  });
});
