import type { ReactNode } from "react";

export type Column = { label: ReactNode; align?: "left" | "right" };

/**
 * The dashboard's tables: a scrolling frame, a caption for screen readers, a header row from
 * `columns`, and the rows (each a <tr>) as children.
 */
export function DataTable({
  caption,
  columns,
  children,
  className = "mt-2",
}: {
  caption: string;
  columns: Column[];
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`${className} overflow-x-auto`}>
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
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
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}
