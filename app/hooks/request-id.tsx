import { createContext, useContext } from "react";

/**
 * The id of the request that rendered the document (X-Request-Id, in the server's log). The error
 * page shows it so a customer can quote it. In the browser it is the one the server-rendered error
 * page carried; after client-side navigation there is none to show.
 */
const RequestIdContext = createContext<string | null>(null);

export const RequestIdProvider = RequestIdContext.Provider;
export const useRequestId = () => useContext(RequestIdContext);

/** Read by entry.client before hydrating, so the hydrated error page shows the same id. */
export const REQUEST_ID_ATTRIBUTE = "data-request-id";
