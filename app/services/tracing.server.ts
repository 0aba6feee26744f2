import type * as OpenTelemetry from "@opentelemetry/api";
import { getEnv } from "./env.server";

/**
 * Spans of the shop's own work (a workflow's steps) beside those the server makes of requests,
 * loaders, actions and database commands (server/tracing.ts, docs/monitoring.md "Traces"). With
 * tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset) `inSpan` only calls `fn`.
 */

/** The API once looked up: null when tracing is off. */
let api: typeof OpenTelemetry | null | undefined;

async function tracingApi() {
  api ??= getEnv().OTEL_EXPORTER_OTLP_ENDPOINT ? await import("@opentelemetry/api") : null;
  return api;
}

/**
 * `fn` in a span named `name`, a child of the active one (the request's, or the step's workflow),
 * with `attributes`; ended when `fn` settles, and marked failed with the error when it throws.
 */
export async function inSpan<T>(name: string, attributes: OpenTelemetry.Attributes, fn: () => Promise<T>): Promise<T> {
  const otel = api === undefined ? await tracingApi() : api;
  if (!otel) return fn();
  return otel.trace.getTracer("partsworks-shop").startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: otel.SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : undefined,
      });
      throw error;
    } finally {
      span.end();
    }
  });
}
