/** The API keys screen's forms (create, revoke), shared by the server and the browser. */
import { z } from "zod";
import { API_SCOPES } from "~/domain/api-scopes";
import { plainText } from "~/domain/plain-text";

export const createApiKeySchema = z.object({
  intent: z.literal("create"),
  name: plainText(
    z
      .string({ required_error: "Name the key (for example, the system that uses it)" })
      .trim()
      .min(1, "Name the key (for example, the system that uses it)")
      .max(60, "A name is at most 60 characters"),
    "A key's name",
  ),
  scopes: z
    .array(z.enum(API_SCOPES, { errorMap: () => ({ message: "Choose what the key may do" }) }), {
      required_error: "Choose at least one thing the key may do",
    })
    .min(1, "Choose at least one thing the key may do"),
});

export const revokeApiKeySchema = z.object({
  intent: z.literal("revoke"),
  keyId: z.string({ required_error: "Choose a key" }).regex(/^[a-f0-9]{24}$/i, "Choose a key"),
});

export const apiKeyActionSchema = z.discriminatedUnion("intent", [createApiKeySchema, revokeApiKeySchema], {
  errorMap: () => ({ message: "Choose create or revoke" }),
});
