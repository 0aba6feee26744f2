import { Form, Link, useNavigate } from "@remix-run/react";
import { useState, type ChangeEvent, type ReactNode } from "react";
import { findMake, findModel, modelYears, VEHICLE_MAKES, vehicleLabel, type Vehicle } from "~/content/vehicles";
import { CATEGORY_LABELS, isCategory } from "~/domain/catalogue";
import { formatQuantity } from "~/format";
import { partsHref, type PartsState } from "~/domain/parts-url";
import { Button } from "./forms";

const selectClass =
  "block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900 disabled:bg-slate-100 disabled:text-slate-500";
const labelClass = "mb-1 block text-sm font-medium text-slate-800";
const linkClass = "text-brand-700 underline hover:text-brand-900";

const categoryLabel = (value: string) => (isCategory(value) ? CATEGORY_LABELS[value] : value);

/**
 * Make, then model, then year. Without JavaScript these are plain selects in a GET form: each
 * "Find parts" press brings the next select's choices. With JavaScript each choice loads the list at
 * once, the selects after it cleared (`data-refine` names them): through the router on a hydrated
 * page, through app/browser/static-page.ts on a page sent without the framework; both build the
 * address the same way (refinedHref). The text, sort and other filters ride along as hidden fields.
 */
export function VehiclePicker({ state }: { state: PartsState }) {
  const navigate = useNavigate();
  const [picked, setPicked] = usePicked(state);
  const make = findMake(picked.make);
  const model = findModel(make, picked.model);

  function refine(event: ChangeEvent<HTMLSelectElement>) {
    const select = event.currentTarget;
    if (!select.form) return;
    const cleared = (select.getAttribute("data-refine") ?? "").split(" ");
    const href = refinedHref(select.form, cleared);
    setPicked((current) => {
      const next = { ...current, [select.name]: select.value };
      for (const name of cleared) if (name in next) next[name as keyof Picked] = "";
      return next;
    });
    navigate(href, { preventScrollReset: true });
  }

  return (
    <Form
      method="get"
      action="/parts"
      aria-label="Shop by vehicle"
      className="rounded-lg border border-brand-200 bg-brand-50 p-4"
    >
      {/* In the order of the page's own links (parts-url.ts), so the address reads the same. */}
      {state.q ? <input type="hidden" name="q" value={state.q} /> : null}
      {state.category ? <input type="hidden" name="category" value={state.category} /> : null}
      {state.brand ? <input type="hidden" name="brand" value={state.brand} /> : null}
      {state.inStock ? <input type="hidden" name="stock" value="in" /> : null}
      <fieldset>
        <legend className="text-lg font-semibold text-slate-900">Shop by vehicle</legend>
        <p className="text-sm text-slate-700">Pick your make, model and year to see only the parts that fit.</p>
        {/* A row on a tablet; a column in the desktop's sidebar and on a phone. */}
        <div className="mt-3 grid gap-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end lg:grid-cols-1">
          <VehicleSelect
            name="make"
            label="Make"
            value={make?.name}
            refine="model year"
            onChange={refine}
            placeholder="Any make"
            options={VEHICLE_MAKES.map((option) => option.name)}
          />
          <VehicleSelect
            name="model"
            label="Model"
            value={model?.name}
            refine="year"
            onChange={refine}
            placeholder={make ? "Any model" : "Choose a make first"}
            options={make?.models.map((option) => option.name)}
          />
          <VehicleSelect
            name="year"
            label="Year"
            value={model ? picked.year : undefined}
            refine=""
            onChange={refine}
            placeholder={model ? "Any year" : "Choose a model first"}
            options={model ? modelYears(model).map(String) : undefined}
          />
          <Button type="submit">Find parts</Button>
        </div>
      </fieldset>
      {state.sort !== "newest" ? <input type="hidden" name="sort" value={state.sort} /> : null}
    </Form>
  );
}

/**
 * The address a choice in the picker loads: the form's fields without the empty ones and without
 * the selects the choice clears. app/browser/static-page.ts builds it the same way.
 */
export function refinedHref(form: HTMLFormElement, cleared: string[]) {
  const params = new URLSearchParams();
  new FormData(form).forEach((value, name) => {
    if (typeof value === "string" && value && !cleared.includes(name)) params.append(name, value);
  });
  const search = params.toString();
  return `${new URL(form.action).pathname}${search ? `?${search}` : ""}`;
}

type Picked = { make: string; model: string; year: string };

/**
 * The choices the selects show: the address's, or the one just made while its list loads (so the
 * next select offers its options at once). The picker is not remounted on a new address, so the
 * select that changed keeps the focus.
 */
function usePicked(state: PartsState) {
  const fromAddress: Picked = { make: state.make ?? "", model: state.model ?? "", year: state.year?.toString() ?? "" };
  const key = `${fromAddress.make}\n${fromAddress.model}\n${fromAddress.year}`;
  const [picked, setPicked] = useState(fromAddress);
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    // A new address (a choice loaded, the back button, a link): show what it says.
    setShownKey(key);
    setPicked(fromAddress);
  }
  return [picked, setPicked] as const;
}

/** One step of the picker; disabled until the step before it has a choice (no options yet). */
function VehicleSelect({
  name,
  label,
  value,
  refine,
  onChange,
  placeholder,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  /** The selects after this one, cleared when this one changes. */
  refine: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  placeholder: string;
  options: string[] | undefined;
}) {
  return (
    <div>
      <label htmlFor={`vehicle-${name}`} className={labelClass}>
        {label}
      </label>
      <select
        id={`vehicle-${name}`}
        name={name}
        value={value ?? ""}
        onChange={onChange}
        data-refine={refine}
        disabled={!options}
        className={selectClass}
      >
        <option value="">{placeholder}</option>
        {options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

/** How many filters are in force (a category, a brand, in stock only, a vehicle). */
export function activeFilterCount(state: PartsState) {
  return [state.category, state.brand, state.inStock, state.make].filter(Boolean).length;
}

/**
 * The vehicle picker and the filter lists. On a phone or tablet they fold behind one "Filters"
 * control (a <details>, so it opens without JavaScript) and the parts come first; on a desktop the
 * summary hides and the content shows as a sidebar (the `filters-panel` rule in tailwind.css; a
 * browser without ::details-content keeps the control there too).
 */
export function FiltersPanel({ state, children }: { state: PartsState; children: ReactNode }) {
  const active = activeFilterCount(state);
  return (
    <details
      className="filters-panel group rounded-lg border border-slate-300 bg-white lg:border-0"
      data-testid="filters-panel"
    >
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-4 py-2 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
        <span>Filters{active ? ` (${active} active)` : ""}</span>
        <span aria-hidden="true" className="text-slate-600 transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="space-y-6 border-t border-slate-200 p-4 lg:border-0 lg:p-0">{children}</div>
    </details>
  );
}

/** The visitor's remembered vehicle: a link to its parts, and a way to forget it. */
export function RememberedVehicle({ state, remembered }: { state: PartsState; remembered: Vehicle | null }) {
  if (!remembered) return null;
  const label = vehicleLabel(remembered);
  const showing = state.make === remembered.make && state.model === remembered.model && state.year === remembered.year;
  return (
    <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2 text-slate-800" data-testid="remembered-vehicle">
      <p>
        Your vehicle: <strong>{label}</strong>
      </p>
      {showing ? null : (
        <Link
          to={partsHref(state, { make: remembered.make, model: remembered.model, year: remembered.year })}
          className={linkClass}
        >
          Show parts that fit your {label}
        </Link>
      )}
      <Form method="post" action="/parts?index">
        <input type="hidden" name="intent" value="forget-vehicle" />
        <button type="submit" className={`${linkClass} bg-transparent`}>
          Forget this vehicle
        </button>
      </Form>
    </div>
  );
}

type Facets = {
  categories: { value: string; count: number }[];
  brands: { value: string; count: number }[];
  inStock: number;
};

// Below lg the lists wrap as chips, so a phone reaches the results without scrolling past every filter.
const facetListClass = "flex flex-wrap gap-2 lg:block lg:space-y-0.5";

function FacetLink({ to, current, children }: { to: string; current: boolean; children: ReactNode }) {
  return (
    <Link
      to={to}
      aria-current={current ? "true" : undefined}
      preventScrollReset
      className={`flex min-h-11 items-center justify-between gap-2 rounded border border-slate-300 px-3 py-1 hover:bg-slate-100 lg:border-0 lg:px-2 ${current ? "bg-brand-50 font-semibold text-brand-900" : "text-slate-800"}`}
    >
      {children}
    </Link>
  );
}

/** Category, brand and stock filters as links, each with how many parts it would show. */
export function FacetLists({ state, facets }: { state: PartsState; facets: Facets }) {
  const categories = facets.categories.filter((facet) => facet.count > 0 || facet.value === state.category);
  const brands = facets.brands.filter((facet) => facet.count > 0 || facet.value === state.brand);
  return (
    <aside aria-label="Filters" className="space-y-6 text-sm">
      <nav aria-labelledby="facet-category">
        <h2 id="facet-category" className="mb-2 text-base font-semibold text-slate-900">
          Category
        </h2>
        <ul className={facetListClass}>
          <li>
            <FacetLink to={partsHref(state, { category: null })} current={!state.category}>
              All categories
            </FacetLink>
          </li>
          {categories.map((facet) => (
            <li key={facet.value}>
              <FacetLink to={partsHref(state, { category: facet.value })} current={facet.value === state.category}>
                <span>{categoryLabel(facet.value)}</span>{" "}
                <span className="text-slate-600">({formatQuantity(facet.count)})</span>
              </FacetLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-labelledby="facet-brand">
        <h2 id="facet-brand" className="mb-2 text-base font-semibold text-slate-900">
          Brand
        </h2>
        <ul className={facetListClass}>
          <li>
            <FacetLink to={partsHref(state, { brand: null })} current={!state.brand}>
              All brands
            </FacetLink>
          </li>
          {brands.map((facet) => (
            <li key={facet.value}>
              <FacetLink to={partsHref(state, { brand: facet.value })} current={facet.value === state.brand}>
                <span>{facet.value}</span> <span className="text-slate-600">({formatQuantity(facet.count)})</span>
              </FacetLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-labelledby="facet-stock">
        <h2 id="facet-stock" className="mb-2 text-base font-semibold text-slate-900">
          Availability
        </h2>
        <ul className={facetListClass}>
          <li>
            <FacetLink to={partsHref(state, { inStock: false })} current={!state.inStock}>
              Include out of stock
            </FacetLink>
          </li>
          <li>
            <FacetLink to={partsHref(state, { inStock: true })} current={state.inStock}>
              <span>In stock only</span> <span className="text-slate-600">({formatQuantity(facets.inStock)})</span>
            </FacetLink>
          </li>
        </ul>
      </nav>
    </aside>
  );
}

/** The filters in force, each with a link that removes it, and one that removes them all. */
export function ActiveFilters({ state }: { state: PartsState }) {
  const vehicle = state.make ? [state.year, state.make, state.model].filter(Boolean).join(" ") : null;
  const active = [
    state.category ? { label: categoryLabel(state.category), href: partsHref(state, { category: null }) } : null,
    state.brand ? { label: state.brand, href: partsHref(state, { brand: null }) } : null,
    state.inStock ? { label: "In stock only", href: partsHref(state, { inStock: false }) } : null,
    vehicle ? { label: `Fits ${vehicle}`, href: partsHref(state, { make: null, model: null, year: null }) } : null,
  ].filter((item): item is { label: string; href: string } => item !== null);
  if (active.length === 0) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 text-sm" data-testid="active-filters">
      <span className="text-slate-700">Filters:</span>
      <ul className="flex flex-wrap gap-2">
        {active.map((item) => (
          <li key={item.label}>
            <Link
              to={item.href}
              preventScrollReset
              className="inline-flex min-h-11 items-center gap-1 rounded-full border border-slate-300 bg-white px-3 py-1 text-slate-800 hover:bg-slate-100"
            >
              {item.label}
              <span aria-hidden="true">×</span>
              <span className="sr-only"> (remove this filter)</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to={partsHref(state, { category: null, brand: null, inStock: false, make: null, model: null, year: null })}
        className={`${linkClass} inline-flex min-h-11 items-center`}
      >
        Clear all filters
      </Link>
    </div>
  );
}
