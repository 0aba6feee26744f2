import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { PartGrid } from "~/components/part-card";
import { Section, SocialLink, Spinner, StarRating } from "~/components/storefront";
import { company } from "~/content/company";
import { listPartCards } from "~/models/part-listing.server";
import { getUser } from "~/services/guards.server";
import { priceCards } from "~/services/pricing.server";
import { shownCurrency } from "~/services/display-currency.server";
import { getNewestReviews } from "~/models/review.server";
import { publicPageHeaders, publicPageHeadersFunction } from "~/services/cache.server";
import { truncate } from "~/domain/format";

const HOME_PART_COUNT = 6;
const HOME_REVIEW_COUNT = 3;
const REVIEW_TEXT_LENGTH = 150;

/**
 * How long the page waits for the reviews before streaming them. They usually arrive with the
 * parts and are then rendered inline (readable without JavaScript); only when the database is
 * slow does the page go out first, with a spinner where the reviews will stream in.
 */
const REVIEWS_WAIT_MS = 150;

export async function loader({ request }: LoaderFunctionArgs) {
  const reviews = getNewestReviews(HOME_REVIEW_COUNT).then((list) =>
    list.map(({ id, userName, img, rating, description, verifiedBuyer }) => ({
      id,
      userName,
      img,
      rating,
      verifiedBuyer,
      description: truncate(description, REVIEW_TEXT_LENGTH),
    })),
  );
  // Should the parts fail first (the database gone), the page answers 503 and never reads this: noted, not left unhandled.
  reviews.catch(() => undefined);
  const { parts: listed } = await listPartCards({ perPage: HOME_PART_COUNT, withTotal: false });
  // A signed-in customer sees their own price (a page with a session cookie is never shared).
  const user = await getUser(request);
  const parts = await priceCards(user, listed, await shownCurrency(request, user));
  // Arrived in time: the list itself, rendered in the page's first HTML (single fetch would
  // otherwise stream even a settled promise after the shell, which only JavaScript can show).
  const reviewsNowOrLater = await settledWithin(reviews, REVIEWS_WAIT_MS);
  return data({ parts, reviews: reviewsNowOrLater }, { headers: publicPageHeaders(request) });
}

export const headers = publicPageHeadersFunction;

/** Sent without the framework's JavaScript: see useHydrate in root.tsx (the 90 KB budget). */
export const handle = { hydrate: false };

/** The promise's value if it comes within `ms`, else the promise itself (also when it fails). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | Promise<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(resolve, ms, "late");
  });
  const first = await Promise.race([
    promise.then(
      (value) => ({ value }),
      () => "late" as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  return first === "late" ? promise : first.value;
}

export default function Home() {
  const { parts, reviews } = useLoaderData<typeof loader>();
  return (
    <>
      <section
        aria-labelledby="hero-heading"
        className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white"
        data-section="hero"
      >
        <div className="mx-auto max-w-7xl px-4 py-16 sm:py-24">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-300">Direct from the manufacturer</p>
          <h1 id="hero-heading" className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
            Buy car parts online and pick them up in store in 30 minutes
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-100">
            Free standard shipping on orders over $35. Bulk prices on brakes, filters, ignition, cooling and lighting
            parts for workshops and fleets.
          </p>
          <Link
            to="/parts"
            className="mt-8 inline-flex items-center rounded bg-amber-400 px-6 py-3 text-lg font-semibold text-slate-900 hover:bg-amber-300"
          >
            Shop Now
          </Link>
        </div>
      </section>

      <Section
        id="parts"
        title="Available Car Parts"
        intro="The newest parts in our catalogue, in stock and ready to order in bulk."
      >
        {parts.length ? (
          <PartGrid parts={parts} label="Newest parts" />
        ) : (
          <p className="text-center text-slate-700">No parts are listed yet. Please check back soon.</p>
        )}
        <p className="mt-8 text-center">
          <Link to="/parts" className="font-medium text-brand-700 underline hover:text-brand-900">
            See all parts
          </Link>
        </p>
      </Section>

      <Section
        id="summary"
        title="Business Summary"
        intro="Trusted by workshops and fleets across the country."
        className="bg-slate-50"
      >
        <dl className="grid grid-cols-2 gap-6 lg:grid-cols-4">
          {[
            ["300+", "Customers"],
            ["31K+", "Annual revenue"],
            ["31M+", "Reviews"],
            ["10,000+", "Parts"],
          ].map(([figure, label]) => (
            <div key={label} className="flex flex-col-reverse rounded-lg bg-white p-6 text-center shadow-sm">
              <dt className="mt-1 text-slate-700">{label}</dt>
              <dd className="text-4xl font-extrabold text-brand-800">{figure}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section id="reviews" title="Customer Reviews" intro="What our customers say about us.">
        <Suspense fallback={<ReviewsLoading />}>
          <Await
            resolve={reviews}
            errorElement={<p className="text-center text-slate-700">Reviews could not be loaded right now.</p>}
          >
            {(list) =>
              list.length ? (
                <ul aria-label="Newest reviews" className="grid gap-6 md:grid-cols-3">
                  {list.map((review) => (
                    <li key={review.id}>
                      <article className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
                        <div className="flex items-center gap-4">
                          <img
                            src={review.img}
                            alt=""
                            width={48}
                            height={48}
                            loading="lazy"
                            decoding="async"
                            className="h-12 w-12 rounded-full bg-slate-200 object-cover"
                          />
                          <div>
                            <h3 className="font-semibold text-slate-900">{review.userName}</h3>
                            {review.verifiedBuyer ? <p className="text-xs text-green-800">Verified buyer</p> : null}
                          </div>
                        </div>
                        <div className="mt-3">
                          <StarRating rating={review.rating} />
                        </div>
                        <p className="mt-3 text-slate-700" data-testid="review-text">
                          {review.description}
                        </p>
                      </article>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-center text-slate-700">No reviews yet.</p>
              )
            }
          </Await>
        </Suspense>
      </Section>

      <Section
        id="contact"
        title="Contact Us"
        intro="Visit the warehouse, write to us or give us a call."
        className="bg-slate-50"
      >
        <div className="grid gap-8 lg:grid-cols-2">
          <div className="relative overflow-hidden rounded-lg border border-slate-200 bg-slate-100">
            {/* Shows through until the map has loaded, and stays if it never does (offline, blocked). */}
            <p className="absolute inset-0 flex items-center justify-center p-6 text-center text-slate-700">
              Map: {company.address.street}, {company.address.city}, {company.address.region}
            </p>
            <iframe
              title={`Map showing ${company.name} at ${company.address.street}, ${company.address.city}`}
              src={company.map.embed}
              loading="lazy"
              width={600}
              height={360}
              referrerPolicy="no-referrer"
              // Scripts without the map's own origin: a frame given both could lift its own sandbox.
              sandbox="allow-scripts allow-popups"
              className="relative block h-80 w-full"
            />
          </div>
          <div className="space-y-6">
            <div>
              <h3 className="text-lg font-semibold">Location</h3>
              <address className="mt-1 not-italic text-slate-700">
                {company.name}
                <br />
                {company.address.street}
                <br />
                {company.address.city}, {company.address.region} {company.address.postalCode}, {company.address.country}
              </address>
              <a
                href={company.map.link}
                rel="noopener noreferrer"
                target="_blank"
                className="inline-flex min-h-11 items-center text-brand-700 underline hover:text-brand-900"
              >
                Open the map on OpenStreetMap<span className="sr-only"> (opens in a new tab)</span>
              </a>
              <p className="mt-1 text-sm text-slate-700">Open {company.hours}.</p>
            </div>
            <div>
              <h3 className="text-lg font-semibold">Email</h3>
              <a href={`mailto:${company.email}`} className="text-brand-700 underline hover:text-brand-900">
                {company.email}
              </a>
            </div>
            <div>
              <h3 className="text-lg font-semibold">Phone</h3>
              <a href={company.phone.href} className="text-brand-700 underline hover:text-brand-900">
                {company.phone.display}
              </a>
            </div>
            <div>
              <h3 className="text-lg font-semibold">Follow us</h3>
              <ul className="mt-2 flex flex-wrap gap-3" aria-label="Social media">
                {company.social.map((item) => (
                  <li key={item.network}>
                    <SocialLink network={item.network} url={item.url} company="PartsWorks" />
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </Section>

      <Section id="brands" title="Available Brands" intro="We make and stock parts for these brands.">
        <ul aria-label="Brands" className="flex flex-wrap items-center justify-center gap-6">
          {company.brands.map((brand) => (
            <li key={brand.name}>
              <img
                src={brand.logo}
                alt={`${brand.name} logo`}
                width={200}
                height={80}
                loading="lazy"
                decoding="async"
              />
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

function ReviewsLoading() {
  return (
    <>
      <Spinner label="Loading reviews" />
      <noscript>
        <p className="text-center text-slate-700">
          The reviews are taking a moment.{" "}
          <a href="/" className="underline">
            Reload the page
          </a>{" "}
          to see them.
        </p>
      </noscript>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "PartsWorks — car parts direct from the manufacturer" },
  {
    name: "description",
    content:
      "Buy car parts online in bulk, direct from the manufacturer, and pick them up in store in 30 minutes. Free standard shipping on orders over $35.",
  },
];
