/**
 * A quote as a document and over the API, against the real database: asked for by API key (a bad
 * line is a 422 at its field, nothing written), priced by staff, heard by the company's webhook
 * endpoint, read and listed, printed as a quotation page and PDF that only its company and staff
 * see, and accepted by API into an order at the quoted price, once.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { formatDate } from "~/format";
import { createApiKey } from "~/models/api-key.server";
import { Part } from "~/models/part.server";
import { addEndpoint, WebhookDelivery } from "~/models/webhook.server";
import { Quote } from "~/orders/model/quote-schema.server";
import { sendQuoteVersion } from "~/orders/quotes.server";
import { action as quotesAction, loader as quotesLoader } from "~/routes/api.v1.quotes._index";
import { loader as quoteLoader } from "~/routes/api.v1.quotes.$id._index";
import { action as acceptAction } from "~/routes/api.v1.quotes.$id.accept";
import { loader as pdfLoader } from "~/routes/documents.quotes.$id.$version_.pdf";
import { closePdfBrowser } from "~/services/pdf.server";
import { newSecret } from "~/services/webhooks.server";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { fetchPage, getRequest, loaderArgs, pageText, settle, testContext } from "../setup/requests";
import { DETROIT } from "../fixtures/addresses";

afterAll(() => closePdfBrowser());

const run = promisify(execFile);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function api(token: string, path: string, method = "GET", body?: unknown) {
  return new Request(`http://localhost/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

const call = (handler: typeof quotesAction, request: Request, params: Record<string, string> = {}) =>
  handler({ request, params, context: testContext() });

const keyOf = async (user: { id: string; companyId?: string | null }) =>
  (await createApiKey({ ownerId: user.id, companyId: user.companyId, name: "ERP", scopes: ["read", "order"] })).token;

type QuoteJson = { id: string; number: string; status: string; version: { number: string } | null };

describe("a quote by API, as a quotation, and to its order", () => {
  test("asked, priced, heard by the webhook, printed for its company only, accepted at the quoted price once", async () => {
    const [owner, stranger, admin] = await Promise.all([
      createUser({ name: "Olga Owner" }),
      createUser({ name: "Sven Stranger" }),
      createUser({ role: "admin", name: "Sam Staff" }),
    ]);
    const pads = await createPart({ priceCents: 1250, minOrderQuantity: 100, availableQuantity: 5000 });
    await Part.updateOne({ _id: pads.id }, { $set: { quoteFloors: [{ currency: "USD", priceCents: 1000 }] } });
    const endpoint = await addEndpoint({
      ownerId: owner.id,
      companyId: owner.companyId,
      scope: "own",
      url: "https://erp.example.com/partsworks",
      secret: newSecret(),
    });
    const [token, strangerToken] = await Promise.all([keyOf(owner), keyOf(stranger)]);

    // Under the minimum: a 422 naming the line's field, nothing written.
    const under = await call(
      quotesAction,
      api(token, "/quotes", "POST", { lines: [{ partNumber: pads.partNumber, quantity: 50 }] }),
    );
    expect(under.status).toBe(422);
    expect(under.headers.get("content-type")).toBe("application/problem+json");
    expect(((await under.json()) as { errors: { field: string; message: string }[] }).errors).toEqual([
      { field: "lines.0.quantity", message: `The minimum order of ${pads.partNumber} is 100 units` },
    ]);
    expect(await Quote.countDocuments({ userId: owner.id })).toBe(0);

    const asked = await call(
      quotesAction,
      api(token, "/quotes", "POST", {
        lines: [{ partNumber: pads.partNumber, quantity: 2000, targetUnitPriceCents: 1050 }],
        wantedBy: day(30),
        note: "Quarterly fleet order",
      }),
    );
    expect(asked.status).toBe(201);
    const quote = (await asked.json()) as QuoteJson & { lines: { targetUnitPriceCents: number }[] };
    expect(quote).toMatchObject({ status: "requested", version: null, lines: [{ targetUnitPriceCents: 1050 }] });

    const sent = await sendQuoteVersion(admin, quote.id, {
      intent: "send",
      expectedVersions: 0,
      lines: [{ partId: pads.id, unitPrice: "10.80", leadTimeDays: 5 }],
      validUntil: day(14),
      terms: "Net 30, delivered duty paid",
    });
    if (!sent.ok) throw new Error(JSON.stringify(sent.errors));
    const label = `${quote.number}-1`;

    // The company's endpoint heard the request and the version sent, with the quote's payload.
    const deliveries = await WebhookDelivery.find({ endpointId: endpoint.id, orderId: quote.id }).lean();
    expect(deliveries.map((delivery) => delivery.type).sort()).toEqual(["quote.requested", "quote.sent"]);
    const heard = JSON.parse(deliveries.find((delivery) => delivery.type === "quote.sent")!.body) as {
      data: { quote: { version: { number: string; netCents: number } } };
    };
    expect(heard.data.quote.version).toMatchObject({ number: label, netCents: 2000 * 1080 });

    // Listed and read by its company's key; another company's key gets a 404.
    const listed = (await (await call(quotesLoader, api(token, "/quotes"))).json()) as { data: QuoteJson[] };
    expect(listed.data.map((each) => [each.id, each.version?.number])).toEqual([[quote.id, label]]);
    const read = await call(quoteLoader, api(token, `/quotes/${quote.id}`), { id: quote.id });
    expect(await read.json()).toMatchObject({
      status: "quoted",
      versions: [{ number: label, sentAt: expect.any(String) }],
    });
    expect((await call(quoteLoader, api(strangerToken, `/quotes/${quote.id}`), { id: quote.id })).status).toBe(404);

    // The quotation: its page for the company, the same 404 for another company's buyer and a version never sent.
    const [cookie, strangerCookie] = await Promise.all([
      sessionCookieHeader(owner.id),
      sessionCookieHeader(stranger.id),
    ]);
    const page = await fetchPage(`/documents/quotes/${quote.id}/1`, cookie);
    expect(page.status).toBe(200);
    const text = await pageText(page);
    for (const words of [`Quotation ${label}`, "Valid until", "$21,600.00", "5 days", "Net 30, delivered duty paid"])
      expect(text).toContain(words);
    expect(text).toContain("Tax is charged as for the delivery address");
    expect((await fetchPage(`/documents/quotes/${quote.id}/1`, strangerCookie)).status).toBe(404);
    expect((await fetchPage(`/documents/quotes/${quote.id}/9`, cookie)).status).toBe(404);

    // Its PDF, printed on the server: the number, the validity and the line total in its text.
    const pdf = await settle(
      pdfLoader(
        loaderArgs(getRequest(`/documents/quotes/${quote.id}/1/pdf`, { cookie }), { id: quote.id, version: "1" }),
      ),
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="quotation-${label}.pdf"`);
    const child = run("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"]);
    child.child.stdin!.end(Buffer.from(await pdf.arrayBuffer()));
    const printed = (await child).stdout.replace(/\s+/g, " ");
    expect(printed).toContain(`Quotation ${label}`);
    expect(printed).toContain(`Valid until ${formatDate(`${day(14)}T12:00:00Z`)}`);
    expect(printed).toContain("$21,600.00");

    // Accepted by API: the order at the quoted price, once.
    const body = { version: 1, phone: "+1 555 0100", deliveryAddress: DETROIT };
    const accepted = await call(acceptAction, api(token, `/quotes/${quote.id}/accept`, "POST", body), { id: quote.id });
    expect(accepted.status).toBe(201);
    const order = (await accepted.json()) as {
      id: string;
      lines: { quantity: number; unitPrice: { amount: number } }[];
    };
    expect(order.lines).toEqual([
      expect.objectContaining({ quantity: 2000, unitPrice: { amount: 1080, currency: "USD" } }),
    ]);
    expect(await Quote.findById(quote.id).lean()).toMatchObject({ status: "accepted" });
    const again = await call(acceptAction, api(token, `/quotes/${quote.id}/accept`, "POST", body), { id: quote.id });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
  });
});
