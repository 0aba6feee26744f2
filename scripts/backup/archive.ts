import { createReadStream, createWriteStream, renameSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import mongoose from "mongoose";

/**
 * A backup file: gzip of one canonical Extended JSON value a line (types kept: dates, ObjectIds,
 * 32/64-bit integers, decimals). The first line says what it is, each collection's line (its
 * options and indexes) comes before its documents, and the last line counts what came before, so
 * a cut-off or altered file is refused before anything is restored.
 *
 *   {"backup": {"format": "partsworks-shop-backup", "version": 1, "database", "takenAt", "source"}}
 *   {"collection": {"name", "options", "indexes"}}
 *   {"doc": {…}}   one per document
 *   {"end": {"collections": n, "documents": n}}
 */
const { EJSON } = mongoose.mongo.BSON;
type Db = mongoose.mongo.Db;
type Document = mongoose.mongo.Document;

export const FORMAT = "partsworks-shop-backup";
export const VERSION = 1;

export type BackupHeader = { format: string; version: number; database: string; takenAt: Date; source: string };
export type CollectionEntry = { name: string; options: Document; indexes: Document[] };
export type Summary = { header: BackupHeader; collections: number; documents: number };

/** A file that is not a whole backup of this format: said in one line, nothing restored. */
export class BackupFileError extends Error {}

const line = (value: Document) => `${EJSON.stringify(value, { relaxed: false })}\n`;

/** The collections of `db` that a restore recreates: the system's own are left to the server. */
export async function collectionsOf(db: Db) {
  const listed = await db.listCollections({}, { nameOnly: false }).toArray();
  return listed
    .filter((entry) => !entry.name.startsWith("system.") && (entry.type ?? "collection") === "collection")
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Writes every collection of `db` with its indexes; the file appears only once it is whole.
 * `takenAt` is the instant the data is of, `source` where it was read.
 */
export async function writeBackup(db: Db, file: string, { takenAt, source }: { takenAt: Date; source: string }) {
  const counts = { collections: 0, documents: 0 };
  async function* lines() {
    yield line({
      backup: { format: FORMAT, version: VERSION, database: db.databaseName, takenAt, source },
    });
    for (const entry of await collectionsOf(db)) {
      const collection = db.collection(entry.name);
      const indexes = (await collection.listIndexes().toArray())
        .filter((index) => index.name !== "_id_")
        .map(({ v: _v, ns: _ns, ...index }) => index);
      yield line({ collection: { name: entry.name, options: "options" in entry ? entry.options : {}, indexes } });
      counts.collections++;
      for await (const doc of collection.find({}, { batchSize: 1000 })) {
        yield line({ doc });
        counts.documents++;
      }
    }
    yield line({ end: counts });
  }
  const partial = partialFile(file);
  try {
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial));
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return counts;
}

/** Where a backup is written until it is whole. */
export const partialFile = (file: string) => `${file}.partial`;

type Entry =
  | { kind: "collection"; collection: CollectionEntry }
  | { kind: "doc"; doc: Document }
  | { kind: "end"; end: { collections: number; documents: number } };

/** The file's lines, parsed and checked in order; any flaw is a BackupFileError naming its line. */
async function* entries(file: string): AsyncGenerator<Entry | { kind: "backup"; header: BackupHeader }> {
  const source = createReadStream(file);
  const input = createGunzip();
  // pipe() passes no errors on: a missing or unreadable file ends the reading with its own error.
  source.on("error", (error) => input.destroy(error));
  source.pipe(input);
  const reader = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  let ended = false;
  let inCollection = false;
  try {
    for await (const text of reader) {
      number++;
      let value: Document;
      try {
        value = EJSON.parse(text, { relaxed: false }) as Document;
      } catch {
        throw new BackupFileError(`line ${number} of ${file} is not Extended JSON: the file is damaged`);
      }
      const bad = (why: string) => new BackupFileError(`line ${number} of ${file} ${why}: not a whole backup`);
      if (number === 1 && (typeof value?.backup !== "object" || value.backup === null))
        throw new BackupFileError(`${file} is not a backup made by npm run backup`);
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad("is not an object");
      if (ended) throw bad("follows the end line");
      if (number === 1) {
        const header = value.backup as BackupHeader;
        if (header.format !== FORMAT) throw new BackupFileError(`${file} is not a backup made by npm run backup`);
        // Canonical Extended JSON reads numbers back as their BSON types (Int32 here).
        if (Number(header.version) !== VERSION)
          throw new BackupFileError(
            `${file} is a backup of format version ${header.version}; this shop reads ${VERSION}`,
          );
        if (!(header.takenAt instanceof Date) || typeof header.database !== "string") throw bad("is a damaged header");
        yield { kind: "backup", header };
      } else if (value.doc && typeof value.doc === "object") {
        if (!inCollection) throw bad("holds a document before any collection");
        yield { kind: "doc", doc: value.doc as Document };
      } else if (typeof value.collection?.name === "string" && Array.isArray(value.collection.indexes)) {
        inCollection = true;
        yield { kind: "collection", collection: value.collection as CollectionEntry };
      } else if (value.end) {
        ended = true;
        yield {
          kind: "end",
          end: { collections: Number(value.end.collections), documents: Number(value.end.documents) },
        };
      } else throw bad("is neither a collection, a document nor the end");
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupFileError(`${file} does not exist`);
    if (code === "EISDIR") throw new BackupFileError(`${file} is a folder, not a backup file`);
    if (code === "EACCES") throw new BackupFileError(`${file} cannot be read (no permission)`);
    if (code?.startsWith("Z_") || code === "ERR_STRING_TOO_LONG")
      throw new BackupFileError(`${file} is not a gzip file of npm run backup, or it is damaged (${code})`);
    throw error;
  } finally {
    source.destroy();
    input.destroy();
  }
  if (number === 0) throw new BackupFileError(`${file} is empty`);
  if (!ended) throw new BackupFileError(`${file} ends before its end line: the backup was cut off`);
}

/** Reads the whole file once and checks it, before a restore changes anything. */
export async function checkBackup(file: string): Promise<Summary> {
  let header: BackupHeader | undefined;
  const seen = { collections: 0, documents: 0 };
  for await (const entry of entries(file)) {
    if (entry.kind === "backup") header = entry.header;
    else if (entry.kind === "collection") seen.collections++;
    else if (entry.kind === "doc") seen.documents++;
    else if (entry.end.collections !== seen.collections || entry.end.documents !== seen.documents)
      throw new BackupFileError(
        `${file} counts ${entry.end.documents} documents in ${entry.end.collections} collections but holds ` +
          `${seen.documents} in ${seen.collections}: the file is damaged`,
      );
  }
  return { header: header!, ...seen };
}

/** Restores a checked file into `db`, which holds none of its collections: documents, then indexes. */
export async function restoreBackup(db: Db, file: string, batchSize = 1000) {
  let current: { entry: CollectionEntry; batch: Document[] } | undefined;
  const flush = async () => {
    if (current?.batch.length) await db.collection(current.entry.name).insertMany(current.batch, { ordered: true });
    if (current) current.batch = [];
  };
  const finish = async () => {
    await flush();
    if (current?.entry.indexes.length)
      await db
        .collection(current.entry.name)
        .createIndexes(current.entry.indexes as unknown as mongoose.mongo.IndexDescription[]);
  };
  for await (const entry of entries(file)) {
    if (entry.kind === "collection") {
      await finish();
      await db.createCollection(entry.collection.name, entry.collection.options);
      current = { entry: entry.collection, batch: [] };
    } else if (entry.kind === "doc") {
      current!.batch.push(entry.doc);
      if (current!.batch.length >= batchSize) await flush();
    } else if (entry.kind === "end") await finish();
  }
}
