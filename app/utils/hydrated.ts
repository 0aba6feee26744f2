import { useEffect, useState } from "react";

/** False in the server-rendered HTML and until the browser has hydrated, then true. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
