/** The Webhooks screen's forms (server and browser); the URL's finer rules are the service's (webhooks.server.ts). */
import { z } from "zod";

export const WEBHOOKS_PATH = "/dashboard/webhooks";

export const addEndpointSchema = z.object({
  intent: z.literal("add"),
  url: z
    .string({ required_error: "Enter the URL of your endpoint" })
    .trim()
    .max(500, "Use a URL of at most 500 characters")
    .url("Enter a full URL, such as https://erp.example.com/partsworks"),
});

export const webhookActionSchema = z.discriminatedUnion(
  "intent",
  [
    addEndpointSchema,
    z.object({ intent: z.literal("remove"), endpointId: z.string().regex(/^[a-f0-9]{24}$/i, "No such endpoint") }),
    z.object({ intent: z.literal("redeliver"), deliveryId: z.string().min(1).max(200) }),
  ],
  { errorMap: () => ({ message: "Choose add, remove or redeliver" }) },
);
