/** The lists page's table of lists, and what it says before there is any. */
import { Link } from "@remix-run/react";
import { DataTable, type Column } from "~/components/ui/data-table";
import { listPath } from "~/forms/saved-list-forms";
import { formatDate } from "~/format";

export type ListRowView = {
  id: string;
  name: string;
  lineCount: number;
  ownerName: string;
  mine: boolean;
  shared: boolean;
  updatedAt: string;
};

const COLUMNS: Column[] = [
  { label: "List" },
  { label: "Lines", align: "right" },
  { label: "Owner" },
  { label: "Shared" },
  { label: "Updated" },
];

export function SavedListsTable({ lists }: { lists: ListRowView[] }) {
  if (lists.length === 0) {
    return (
      <div
        className="mt-4 rounded border border-dashed border-slate-400 bg-white p-4 text-slate-800"
        data-testid="no-lists"
      >
        <p className="font-medium">You have no saved lists yet.</p>
        <p className="mt-1">
          A list keeps parts and quantities you buy again and again, such as a monthly restock: fill your cart from it
          in one step, or share it so everyone in your company can. Make one below, upload a CSV file, or save your
          cart, an order or a part to a list from its page.
        </p>
      </div>
    );
  }
  return (
    <DataTable caption="Your lists and your company's shared lists" columns={COLUMNS} className="mt-4" testId="lists">
      {lists.map((list) => (
        <tr key={list.id} data-testid={`list-${list.name}`}>
          <th scope="row" className="px-3 py-2 font-medium">
            <Link to={listPath(list.id)} className="text-brand-700 underline hover:text-brand-800">
              {list.name}
            </Link>
          </th>
          <td className="px-3 py-2 text-right" data-label="Lines">
            {list.lineCount}
          </td>
          <td className="px-3 py-2" data-label="Owner">
            {list.mine ? "You" : list.ownerName}
          </td>
          <td className="px-3 py-2" data-label="Shared">
            {list.shared ? "With your company" : "Only you"}
          </td>
          <td className="px-3 py-2" data-label="Updated">
            {formatDate(list.updatedAt)}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
