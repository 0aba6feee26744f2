import { Part } from "~/models/part.server";
import { Review } from "~/models/review.server";
import { User, type Role } from "~/models/user.server";
import { hashPassword } from "./password.server";

/** The demo accounts; their logins are printed when the shop starts on the local database. */
export const DEMO_USERS: { email: string; password: string; name: string; role: Role }[] = [
  { email: "admin@partsworks.test", password: "admin-demo-123", name: "Avery Admin", role: "admin" },
  { email: "customer@partsworks.test", password: "customer-demo-123", name: "Casey Customer", role: "customer" },
];

const DEMO_PARTS = [
  ["PW-1001", "Ceramic Brake Pad Set", "Low-dust ceramic front pads with shims and wear sensors, for quiet stops from city traffic to towing.", 24, 4200],
  ["PW-1002", "Vented Brake Disc 300 mm", "High-carbon cast iron disc with curved cooling vanes and an anti-corrosion coating. Sold singly.", 39, 2600],
  ["PW-1003", "Oil Filter Cartridge", "Synthetic media cartridge that holds up to 15,000 km service intervals; O-rings included.", 7, 12000],
  ["PW-1004", "Cabin Air Filter with Carbon", "Activated-carbon cabin filter that traps pollen, dust and road odours before they reach the cabin.", 11, 8000],
  ["PW-1005", "Iridium Spark Plug", "Fine-wire iridium tip for a steady spark and 100,000 km life. Pre-gapped.", 9, 15000],
  ["PW-1006", "Front Shock Absorber", "Twin-tube gas shock with rebound control tuned for comfort under load.", 58, 1800],
  ["PW-1007", "Timing Belt Kit", "Belt, tensioner and idler pulleys from one production batch, so they wear in together.", 85, 1200],
  ["PW-1008", "Water Pump Assembly", "Cast aluminium housing, composite impeller and a sealed bearing; gasket included.", 64, 1500],
  ["PW-1009", "Alternator 150 A", "Remanufactured to OE specification with a new regulator and bearings. Tested at full load.", 189, 600],
  ["PW-1010", "Radiator Core, Aluminium", "Brazed aluminium core with plastic tanks and pressure-tested seams.", 142, 700],
  ["PW-1011", "Wiper Blade 600 mm", "Beam-type blade with a graphite-coated rubber edge for a streak-free sweep in all weather.", 12, 9000],
  ["PW-1012", "LED Headlight Bulb H7", "Plug-and-play H7 LED with a fanless heat sink, 6000 K white light and a sharp cut-off.", 19, 5000],
] as const;

const DEMO_REVIEWS = [
  ["Jordan Mechanic", 5, "We switched our whole fleet to the ceramic pads. Dust is down, the pedal feels consistent and the bulk price beats our old distributor by a mile."],
  ["Priya Garage Co.", 4, "Timing belt kits arrived complete and well packed. One tensioner box was dented but the part was fine. Pick-up in store was quicker than promised."],
  ["Miguel R.", 5, "Ordering 500 spark plugs took two minutes, the card payment went straight through and the order was ready for collection the same afternoon."],
  ["Hannah's Auto Repair", 3, "Good radiators at a fair price. I would like more stock of the larger cores, we had to wait a week for a restock."],
  ["Tom Becker", 4, "The LED bulbs are bright with a clean cut-off and no flicker on the cars we tested. Documentation could be better but support answered fast."],
  ["Lena Workshop", 5, "Oil filter cartridges fit perfectly, and the minimum order of 100 suits a busy workshop like ours. We will keep ordering every month."],
] as const;

/**
 * Adds whatever is missing of the demo data: idempotent, never touches what is there.
 * Returns the demo logins.
 */
export async function ensureDemoData() {
  for (const demo of DEMO_USERS) {
    const exists = await User.exists({ email: demo.email });
    if (!exists) {
      await User.create({
        email: demo.email,
        name: demo.name,
        role: demo.role,
        passwordHash: await hashPassword(demo.password),
      });
    }
  }

  const now = Date.now();
  for (const [index, [partNumber, name, description, dollars, stock]] of DEMO_PARTS.entries()) {
    const exists = await Part.exists({ partNumber });
    if (exists) continue;
    // Older parts first, so the catalogue has a stable "newest" order.
    const createdAt = new Date(now - (DEMO_PARTS.length - index) * 60_000);
    await Part.create({
      partNumber,
      name,
      description,
      img: `/images/parts/${partNumber.toLowerCase()}.svg`,
      priceCents: dollars * 100,
      minOrderQuantity: 100,
      availableQuantity: stock,
      createdAt,
      updatedAt: createdAt,
    });
  }

  if ((await Review.estimatedDocumentCount()) === 0) {
    for (const [index, [userName, rating, description]] of DEMO_REVIEWS.entries()) {
      const createdAt = new Date(now - (DEMO_REVIEWS.length - index) * 60_000);
      const slug = userName.toLowerCase().replace(/[^a-z]+/g, ".").replace(/^\.|\.$/g, "");
      await Review.create({
        userName,
        email: `${slug}@example.com`,
        rating,
        description,
        verifiedBuyer: index % 2 === 0,
        createdAt,
        updatedAt: createdAt,
      });
    }
  }

  return DEMO_USERS.map(({ email, password, role }) => ({ email, password, role }));
}
