#!/usr/bin/env bash
# Installs the local MongoDB-compatible server (mongo-java-server + H2) into .data/local-db.
# Idempotent: does nothing when the compiled launcher is newer than its sources; when only the
# launcher's sources changed, compiles it again against the jars already fetched.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${LOCAL_DB_HOME:-$root/.data/local-db}"
stamp="$out/classes/LocalMongo.class"
fresh=1
for source in "$here"/*.java "$here/pom.xml"; do
  [[ -f "$stamp" && "$stamp" -nt "$source" ]] || fresh=0
done
[[ $fresh == 1 ]] && exit 0
command -v javac >/dev/null || { echo "local-db: a JDK 17+ is required (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
mkdir -p "$out/lib" "$out/classes"
# The jars are fetched again only when pom.xml changed since they were (or none are there yet).
jars_stamp="$out/lib/.fetched"
ref="$jars_stamp"
[[ -f "$ref" ]] || ref="$stamp"
if ! compgen -G "$out/lib/mongo-java-server-h2-backend-*.jar" >/dev/null || [[ ! -f "$ref" || "$here/pom.xml" -nt "$ref" ]]; then
  command -v mvn >/dev/null || { echo "local-db: maven is required (apt-get install maven)" >&2; exit 1; }
  echo "local-db: fetching mongo-java-server from Maven Central…"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$out/lib" -DincludeScope=runtime
  touch "$jars_stamp"
fi
javac -d "$out/classes" -cp "$out/lib/*" "$here"/*.java
echo "local-db: installed in $out"
