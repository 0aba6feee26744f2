/**
 * The vehicles the catalogue knows: makes, their models and the years each model was built.
 * Fitment rows of parts, the vehicle picker on /parts and the admin's fitment validation all read
 * this one list. Shared by server and browser (it is small).
 */
export type VehicleModel = { name: string; from: number; to: number; engines: string[] };
export type VehicleMake = { name: string; models: VehicleModel[] };

const m = (name: string, from: number, to: number, engines: string[] = []): VehicleModel => ({
  name,
  from,
  to,
  engines,
});

export const VEHICLE_MAKES: VehicleMake[] = [
  {
    name: "Alfa Romeo",
    models: [m("Giulia", 2016, 2025, ["2.0 Turbo", "2.2 JTD"]), m("Stelvio", 2017, 2025, ["2.0 Turbo"])],
  },
  {
    name: "Audi",
    models: [
      m("A3", 2003, 2025, ["1.4 TFSI", "2.0 TDI"]),
      m("A4", 2001, 2025, ["2.0 TFSI", "2.0 TDI"]),
      m("Q5", 2008, 2025, ["2.0 TFSI", "3.0 TDI"]),
    ],
  },
  {
    name: "BMW",
    models: [
      m("1 Series", 2004, 2025, ["118i", "120d"]),
      m("3 Series", 1998, 2025, ["320i", "320d", "330e"]),
      m("X3", 2003, 2025, ["xDrive20d", "xDrive30i"]),
    ],
  },
  {
    name: "Chevrolet",
    models: [m("Cruze", 2008, 2019, ["1.4 Turbo", "1.8"]), m("Silverado", 1999, 2025, ["5.3 V8", "6.2 V8"])],
  },
  {
    name: "Citroën",
    models: [m("C3", 2002, 2025, ["1.2 PureTech"]), m("C4", 2004, 2025, ["1.2 PureTech", "1.5 BlueHDi"])],
  },
  {
    name: "Dacia",
    models: [m("Duster", 2010, 2025, ["1.0 TCe", "1.5 dCi"]), m("Sandero", 2008, 2025, ["1.0 SCe", "0.9 TCe"])],
  },
  {
    name: "Fiat",
    models: [m("500", 2007, 2025, ["1.2", "0.9 TwinAir"]), m("Panda", 2003, 2025, ["1.2", "1.0 Hybrid"])],
  },
  {
    name: "Ford",
    models: [
      m("F-150", 2004, 2025, ["3.5 EcoBoost", "5.0 V8"]),
      m("Fiesta", 2002, 2023, ["1.0 EcoBoost", "1.25"]),
      m("Focus", 2004, 2025, ["1.0 EcoBoost", "1.6 TDCi", "2.0"]),
    ],
  },
  {
    name: "Honda",
    models: [
      m("Civic", 2001, 2025, ["1.5 VTEC Turbo", "2.2 i-DTEC"]),
      m("CR-V", 2002, 2025, ["2.0 i-VTEC", "1.5 Turbo"]),
    ],
  },
  {
    name: "Hyundai",
    models: [m("i30", 2007, 2025, ["1.4 T-GDi", "1.6 CRDi"]), m("Tucson", 2004, 2025, ["1.6 T-GDi", "2.0 CRDi"])],
  },
  {
    name: "Kia",
    models: [m("Ceed", 2006, 2025, ["1.4 T-GDi", "1.6 CRDi"]), m("Sportage", 2004, 2025, ["1.6 T-GDi", "2.0 CRDi"])],
  },
  {
    name: "Mazda",
    models: [m("CX-5", 2012, 2025, ["2.0 Skyactiv-G", "2.2 Skyactiv-D"]), m("Mazda3", 2003, 2025, ["2.0 Skyactiv-G"])],
  },
  {
    name: "Mercedes-Benz",
    models: [
      m("C-Class", 2000, 2025, ["C200", "C220d"]),
      m("E-Class", 2002, 2025, ["E220d", "E300"]),
      m("Sprinter", 2006, 2025, ["2.1 CDI", "3.0 V6 CDI"]),
    ],
  },
  {
    name: "Nissan",
    models: [m("Qashqai", 2007, 2025, ["1.3 DIG-T", "1.5 dCi"]), m("Micra", 2003, 2025, ["1.0 IG-T"])],
  },
  { name: "Opel", models: [m("Astra", 2004, 2025, ["1.2 Turbo", "1.6 CDTI"]), m("Corsa", 2006, 2025, ["1.2", "1.4"])] },
  {
    name: "Peugeot",
    models: [
      m("208", 2012, 2025, ["1.2 PureTech", "1.5 BlueHDi"]),
      m("308", 2007, 2025, ["1.2 PureTech", "1.6 BlueHDi"]),
    ],
  },
  {
    name: "Renault",
    models: [m("Clio", 2005, 2025, ["0.9 TCe", "1.5 dCi"]), m("Mégane", 2002, 2025, ["1.3 TCe", "1.5 dCi"])],
  },
  {
    name: "Škoda",
    models: [
      m("Fabia", 2007, 2025, ["1.0 TSI", "1.2 TSI"]),
      m("Octavia", 2004, 2025, ["1.4 TSI", "1.5 TSI", "2.0 TDI"]),
    ],
  },
  { name: "Subaru", models: [m("Impreza", 2000, 2025, ["2.0i"]), m("Outback", 2003, 2025, ["2.5i"])] },
  { name: "Tesla", models: [m("Model 3", 2017, 2025), m("Model Y", 2020, 2025)] },
  {
    name: "Toyota",
    models: [
      m("Camry", 2001, 2025, ["2.5 Hybrid"]),
      m("Corolla", 2001, 2025, ["1.8 Hybrid", "1.6 VVT-i"]),
      m("Hilux", 2005, 2025, ["2.4 D-4D", "2.8 D-4D"]),
      m("RAV4", 2000, 2025, ["2.5 Hybrid", "2.0 VVT-i"]),
    ],
  },
  {
    name: "Volkswagen",
    models: [
      m("Golf", 1997, 2025, ["1.0 TSI", "1.4 TSI", "1.6 TDI", "2.0 TDI", "2.0 GTI"]),
      m("Passat", 1996, 2025, ["1.4 TSI", "2.0 TDI"]),
      m("Polo", 2001, 2025, ["1.0 MPI", "1.2 TSI"]),
      m("Tiguan", 2007, 2025, ["1.4 TSI", "2.0 TDI"]),
      m("Transporter", 2003, 2025, ["2.0 TDI"]),
    ],
  },
  { name: "Volvo", models: [m("V60", 2010, 2025, ["D4", "T5"]), m("XC60", 2008, 2025, ["D4", "B5"])] },
];

/** The oldest and newest model year anyone can pick or enter. */
export const FIRST_MODEL_YEAR = 1950;
export const LAST_MODEL_YEAR = 2030;

export function findMake(name: string | null | undefined) {
  if (!name) return undefined;
  const wanted = name.trim().toLowerCase();
  return VEHICLE_MAKES.find((make) => make.name.toLowerCase() === wanted);
}

export function findModel(make: VehicleMake | undefined, name: string | null | undefined) {
  if (!make || !name) return undefined;
  const wanted = name.trim().toLowerCase();
  return make.models.find((model) => model.name.toLowerCase() === wanted);
}

/** The years of a model, newest first (what the picker offers). */
export function modelYears(model: VehicleModel) {
  return Array.from({ length: model.to - model.from + 1 }, (_, index) => model.to - index);
}

export type Vehicle = { make: string; model: string; year: number };

export function vehicleLabel(vehicle: Vehicle) {
  return `${vehicle.year} ${vehicle.make} ${vehicle.model}`;
}
