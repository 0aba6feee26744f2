import { useEffect, useRef, useState, type ReactNode } from "react";

export type Column = { label: ReactNode; align?: "left" | "right" };

/**
 * The shop's tables (orders, products, users): a caption for screen readers, a header row from
 * `columns`, and the rows (each a <tr>) as children.
 *
 * Responsive pattern (the `data-table` rules in app/styles/tailwind.css): from `md` up it is a
 * plain table; below `md` every row becomes a stacked card, so a 360 px phone reaches every column
 * and every action without scrolling sideways:
 * - the row header (`<th scope="row">`) is the card's title, across the card;
 * - every other cell names itself with `data-label` (usually its column's label), shown above
 *   its value; cells sit two to a line, and a cell that needs the card's width (a form, a long
 *   email) adds `max-md:col-span-2`;
 * - long words (emails, ids) wrap instead of widening the page;
 * - the `footer` rows (a total) become a line under the cards, label and value apart.
 * A short table of a few narrow columns that fits a phone as it is (figures by day) passes
 * `stack={false}` and stays a table.
 *
 * A table wider than its place scrolls sideways inside its box; while it does, the box is a named
 * region in the Tab order, so a keyboard can reach it and scroll it with the arrow keys (WCAG 2.1.1).
 * The server cannot measure, so the box starts in the Tab order (without JavaScript it stays there);
 * once the page runs, it leaves the Tab order while everything fits.
 */
export function DataTable({
  caption,
  columns,
  children,
  className = "mt-2",
  footer,
  testId,
  stack = true,
}: {
  caption: string;
  columns: Column[];
  children: ReactNode;
  className?: string;
  /** The <tfoot> rows, such as a total. */
  footer?: ReactNode;
  /** The table's data-testid. */
  testId?: string;
  /** Rows become cards below `md` (the default). */
  stack?: boolean;
}) {
  const scrolls = useScrollsSideways();
  return (
    <div
      ref={scrolls.ref}
      className={`${className} ${stack ? "data-table md:overflow-x-auto" : "overflow-x-auto"} focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700`}
      {...(scrolls.now ? { role: "region", "aria-label": caption, tabIndex: 0 } : {})}
    >
      <table
        className={`min-w-full text-left text-sm ${stack ? "md:divide-y md:divide-slate-200" : "divide-y divide-slate-200"}`}
        data-testid={testId}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-100 text-slate-800">
          <tr>
            {columns.map((column, index) => (
              <th
                key={index}
                scope="col"
                className={`px-3 py-2 font-semibold ${column.align === "right" ? "text-right" : ""}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={stack ? "md:divide-y md:divide-slate-200" : "divide-y divide-slate-200"}>{children}</tbody>
        {footer ? <tfoot>{footer}</tfoot> : null}
      </table>
    </div>
  );
}

/**
 * Whether the box is narrower than what it holds (so it scrolls sideways), kept up to date as either
 * resizes; true until measured.
 */
function useScrollsSideways() {
  const ref = useRef<HTMLDivElement>(null);
  const [now, setNow] = useState(true);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () => setNow(box.scrollWidth > box.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { ref, now };
}
