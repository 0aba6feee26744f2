import { createContext, useContext } from "react";

/** The per-request CSP nonce, for the inline scripts Remix renders. */
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
