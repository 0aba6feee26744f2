import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { REQUEST_ID_ATTRIBUTE, RequestIdProvider } from "~/hooks/request-id";

const requestId = document.querySelector(`[${REQUEST_ID_ATTRIBUTE}]`)?.getAttribute(REQUEST_ID_ATTRIBUTE) ?? null;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RequestIdProvider value={requestId}>
        <RemixBrowser />
      </RequestIdProvider>
    </StrictMode>,
  );
});
