import { ServerResponse, type IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type { Attributes, Span } from "@opentelemetry/api";
import type { ServerBuild } from "@remix-run/node";

/**
 * Traces over OTLP (docs/monitoring.md, "Traces"), only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
 * spans of each HTTP request, Express layer, Remix loader and action, and MongoDB command, sent by
 * the OpenTelemetry SDK. Nothing here imports OpenTelemetry until startTracing is called, so with
 * tracing off neither the SDK nor an instrumentation is loaded (prom-client loads the API itself).
 *
 * startTracing must run before the build is imported: the instrumentations patch the MongoDB driver
 * as mongoose first requires it.
 */

/** The server's own probes: answered every few seconds, never traced. */
const UNTRACED = new Set(["/healthz", "/livez", "/metrics"]);

export async function startTracing({ serviceName }: { serviceName: string }) {
  const [
    api,
    { NodeSDK },
    { HttpInstrumentation },
    { ExpressInstrumentation, ExpressLayerType },
    { MongoDBInstrumentation },
  ] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-express"),
    import("@opentelemetry/instrumentation-mongodb"),
  ]);
  /** Names each request's span after what it reached (the metrics' route label), once it is known. */
  let routeLabel: ((url: string) => string) | undefined;
  const sdk = new NodeSDK({
    serviceName,
    // Traces only: the metrics are Prometheus' (/metrics) and the logs are the JSON lines on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? "").split("?")[0]),
        // No query string (url.query): as in the logs, it may carry reset and unsubscribe tokens. What
        // this hook returns overrides the attributes taken from the request; an undefined one is left out.
        startIncomingSpanHook: () => ({ "url.query": undefined }),
        // A request's span is named after what it reached: `GET routes/parts.$id`, not `GET *`.
        applyCustomAttributesOnSpan(span, req, res) {
          if (!(res instanceof ServerResponse) || !routeLabel) return;
          const label = routeLabel((req as IncomingMessage).url ?? "/");
          span.updateName(`${req.method} ${label}`);
          span.setAttribute("http.route", label);
        },
      }),
      // The request handlers' layers, not the middlewares' (a dozen a request, each well under a
      // millisecond: their time shows as the gap before the handler's span).
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Commands as the driver sends them, their values left out (db.query.text shows `?` for each).
      new MongoDBInstrumentation(),
    ],
  });
  sdk.start();
  // server.ts's own imports (node:http, express) were loaded before it could call this, as ESM
  // imports are: requiring them once more through the hooks just set patches those same modules.
  const require = createRequire(import.meta.url);
  require("node:http");
  require("express");

  const tracer = api.trace.getTracer("partsworks-shop");

  /** fn in a span of its own (a child of the active one), ended when fn settles. */
  function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T> | T): Promise<T> {
    return tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        const result = await fn();
        noteAnswer(span, result);
        return result;
      } catch (error) {
        // Remix answers redirects and 404s with a thrown Response: a failure only from 500 up.
        if (!noteAnswer(span, error)) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({
            code: api.SpanStatusCode.ERROR,
            message: error instanceof Error ? error.message : undefined,
          });
        }
        throw error;
      } finally {
        span.end();
      }
    });
  }

  function noteAnswer(span: Span, value: unknown) {
    if (!isResponse(value)) return false;
    span.setAttribute("http.response.status_code", value.status);
    if (value.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    return true;
  }

  return {
    /** The build with a span around each route's loader and action, named `<route id> loader|action`. */
    withRouteSpans(build: ServerBuild): ServerBuild {
      const routes: ServerBuild["routes"] = {};
      for (const [id, route] of Object.entries(build.routes)) {
        const { loader, action } = route.module;
        const span = (handler: "loader" | "action") => ({ "remix.route.id": id, "remix.handler": handler });
        routes[id] = {
          ...route,
          module: {
            ...route.module,
            ...(loader ? { loader: (args) => inSpan(`${id} loader`, span("loader"), () => loader(args)) } : {}),
            ...(action ? { action: (args) => inSpan(`${id} action`, span("action"), () => action(args)) } : {}),
          },
        };
      }
      return { ...build, routes };
    },
    /** Names request spans by `label(url)` (the Remix route id, or the server path). */
    labelRequests(label: (url: string) => string) {
      routeLabel = label;
    },
    /** The active span's ids, for each log line (pino's mixin). */
    traceIds(): { trace_id?: string; span_id?: string } {
      const context = api.trace.getSpan(api.context.active())?.spanContext();
      if (!context || !api.isSpanContextValid(context)) return {};
      return { trace_id: context.traceId, span_id: context.spanId };
    },
    /** Sends the spans still waiting (at shutdown), for `withinMs` at most: a collector away keeps no one waiting. */
    async shutdown(withinMs: number) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
      await Promise.race([sdk.shutdown().catch(() => {}), late]);
      clearTimeout(timer);
    },
  };
}

/** A Response of any realm (Remix's or undici's), as Remix itself tells one. */
function isResponse(value: unknown): value is Response {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Response).status === "number" &&
    typeof (value as Response).headers === "object" &&
    typeof (value as Response).statusText === "string"
  );
}
