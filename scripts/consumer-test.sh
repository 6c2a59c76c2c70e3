#!/usr/bin/env bash
# The publishing check: what a user gets from the published artifacts.
#  1. deploys the published modules (with -Ppublish: sources and Javadoc jars, so a Javadoc error fails here) into a
#     file repository under target/consumer-test/repo; nothing of ours goes to the local Maven repository (~/.m2),
#     which other builds share;
#  2. checks the BOM lists exactly the deployed modules, and every published POM carries the metadata a central
#     repository requires (name, description, url, licenses, developers, scm);
#  3. builds the consumer project mcp-it/src/consumer (BOM import, release 21) offline against that repository, with
#     a local repository of its own under target/ and ~/.m2 as a read-only tail for third-party artifacts
#     (maven.repo.local.tail, Maven 3.9+); checks its dependency tree (one Jackson version, no YAML through the schema
#     validator); runs it on the class path and on the module path (it talks to the reference server over stdio and
#     the modern fixture over HTTP);
#     then every ```java block of README.md and docs/*.md compiled as a user's code (below), and the README's own
#     Maven snippet and Quickstart, built with the oldest Maven the README names;
#  4. rebuilds the published modules from a copy of the sources in another directory and compares every jar byte for
#     byte with step 1's (reproducible builds; LOOM_SKIP_REPRO=1 skips this step).
# Run it after the main build (scripts/test.sh does); it needs the network only for Maven plugins not yet in ~/.m2.
#
# The documentation's samples (step 3): scripts/DocSamples.java extracts every ```java block of README.md and
# docs/*.md into target/consumer-test/doc-samples (nothing of a sample is kept anywhere but in its Markdown file), a
# Maven project with one module per set of dependencies, built offline against the deployed artifacts like the
# consumer above; a block that does not compile fails the run with FILE:LINE of the Markdown and javac's message.
# The convention for the blocks, written where the docs are read ("Contributing" in docs/architecture.md too):
#  - A block that declares a type (a class, record, interface or enum at the start of a line, or starts with an
#    annotation or a package) is a compilation unit: compiled as it stands, with its own imports.
#  - Any other block is a fragment: statements, run as the body of
#      public class Sample { static void sample(GIVEN) throws Exception { ... } }
#    with its own leading import lines, plus `import dev.loommcp.*;`, every package its modules export, and
#    java.io, java.net, java.nio.file, java.time, java.util, java.util.concurrent and java.util.function (`.*`).
#  - Its dependencies: mcp-core, the module of each dev.loommcp package it imports, and what its marker names.
#  - An HTML comment on the line before the fence (invisible on GitHub) says the rest, options separated by spaces:
#      <!-- sample: deps=mcp-hosts,mcp-auth given="McpClient client; String summarize(CallToolResult r)" -->
#    deps= published modules or groupId:artifactId[:version] (JUnit's version comes from junit-bom, junit.version),
#    or groupId:artifactId:version:import for a BOM to import (Spring Boot's, for the versions of a Spring sample);
#    given= what a fragment uses without declaring it, separated by `;`: variables become the parameters of sample(),
#    methods (`Type name(params)`) stubs next to it; imports= more imports for a fragment (a single-type import wins
#    over the `.*` ones when two packages have the same simple name).
#      <!-- sample: skip (the reason) -->
#    leaves a block out (pseudo-code, output); the reason is required.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/env.sh"
loom_pick_jdk
loom_node_packages "$ROOT"
cd "$ROOT"

WORK="$ROOT/target/consumer-test"
REPO="$WORK/repo"                      # the deployed artifacts (a remote repository's layout)
CONSUMER_M2="$WORK/m2"                 # the consumer's local repository (our snapshots land here, not in ~/.m2)
USER_REPO="${LOOM_USER_REPO:-$HOME/.m2/repository}"
PUBLISH_M2="$ROOT/target/publish-m2"  # the local repository of the deploy and the rebuild (plugins, our metadata)
CONSUMER_SRC="$WORK/consumer"          # a copy of mcp-it/src/consumer: the build writes nothing into the sources
VERSION=$(sed -n '0,/<version>/s/.*<version>\(.*\)<\/version>.*/\1/p' pom.xml | head -1)
deployed_jar() { # $1 = artifactId, $2 = "" | -sources | -javadoc: the deployed file (a snapshot has a time stamp)
  ls "$REPO/dev/loommcp/$1/$VERSION/" 2>/dev/null | grep -E "^$1-.*[0-9]$2\.jar\$" | sed "s|^|$REPO/dev/loommcp/$1/$VERSION/|" | tail -1
}
publish_mvn() { ./mvnw -B -ntp -Dmaven.repo.local="$PUBLISH_M2" -Dmaven.repo.local.tail="$USER_REPO" "$@"; }
fail() { echo "consumer-test: FAILED: $*" >&2; exit 1; }
step() { echo "consumer-test: $* ($(( SECONDS ))s)" >&2; }

rm -rf "$WORK"
mkdir -p "$WORK"
touch "$WORK/started"

# 1. deploy. maven.install.skip keeps our jars out of any local repository, and the deploy's own local repository is
# one under target/ (the snapshot metadata it keeps goes there), chained to ~/.m2 read-only: third-party artifacts come
# from ~/.m2, plugins missing there are downloaded into target/publish-m2 (kept across runs; the only network use).
# The modules that are not published skip deploy.
step "deploying the published modules to $REPO"
publish_mvn -q -Ppublish deploy -Dmaven.test.skip=true -Dmaven.install.skip=true \
  -DaltDeploymentRepository="loommcp-staging::file://$REPO" \
  -pl '!mcp-it,!mcp-core-tests,!mcp-bench,!mcp-cli' >"$WORK/deploy.log" 2>&1 || { tail -50 "$WORK/deploy.log" >&2; fail "deploy (log: $WORK/deploy.log)"; }

# 2. what was deployed: the BOM names exactly the deployed jar modules; each has its sources and Javadoc jar
deployed=$(cd "$REPO/dev/loommcp" && ls | sort)
[[ -n "$deployed" ]] || fail "nothing deployed"
for unpublished in mcp-it mcp-core-tests mcp-bench mcp-cli mcp-it-servers; do
  grep -qx "$unpublished" <<<"$deployed" && fail "$unpublished was deployed; it is not published"
done
bom="$REPO/dev/loommcp/mcp-bom/$VERSION"
bom_pom=$(ls "$bom"/mcp-bom-*.pom | head -1)
# the artifactIds in its dependencyManagement, leaving out comments (the entries of modules still to come)
in_bom=$(perl -0777 -pe 's/<!--.*?-->//gs' "$bom_pom" | sed -n '/<dependencyManagement>/,/<\/dependencyManagement>/s/.*<artifactId>\(.*\)<\/artifactId>.*/\1/p' | sort)
libs=$(grep -vx -e loom-mcp-parent -e mcp-bom <<<"$deployed")
[[ "$in_bom" == "$libs" ]] || fail "mcp-bom lists [$(echo $in_bom)] but the deployed modules are [$(echo $libs)]: add the new module to mcp-bom/pom.xml"
for a in $libs; do
  for kind in "" -sources -javadoc; do
    [[ -n "$(deployed_jar "$a" "$kind")" ]] || fail "$a has no ${kind:-main} jar"
  done
done
# the metadata of each deployed POM, with inheritance applied (help:effective-pom would need another plugin; the
# parent POM carries it, so a module POM must name its parent loom-mcp-parent, or carry it itself like the BOM)
for a in $deployed; do
  pom=$(ls "$REPO/dev/loommcp/$a/$VERSION/"*.pom | head -1)
  for tag in name description; do grep -q "<$tag>" "$pom" || fail "$a: the POM has no <$tag>"; done
  if ! grep -q '<artifactId>loom-mcp-parent</artifactId>' "$pom" || [[ "$a" == loom-mcp-parent ]]; then
    for tag in url licenses developers scm; do grep -Eq "<$tag[ >]" "$pom" || fail "$a: the POM has no <$tag>"; done
  fi
done
step "deployed: $(echo $deployed)"

# 3. the consumer, offline: our artifacts from $REPO (a file repository is allowed offline), the rest from ~/.m2
consumer_mvn() {
  (cd "$CONSUMER_SRC" && "$ROOT/mvnw" -B -ntp -o -Daether.offline.protocols=file \
    -Dmaven.repo.local="$CONSUMER_M2" -Dmaven.repo.local.tail="$USER_REPO" \
    -Dloommcp.version="$VERSION" -Dloommcp.repository="file://$REPO" "$@")
}
step "building the consumer project (class path and module path)"
cp -R "$ROOT/mcp-it/src/consumer" "$CONSUMER_SRC"
consumer_mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt \
  dependency:list -DoutputFile=target/dependencies.txt -DincludeScope=runtime -DoutputAbsoluteArtifactFilename=false \
  >"$WORK/consumer-build.log" 2>&1 || {
    tail -50 "$WORK/consumer-build.log" >&2
    # offline, a YAML artifact the loom-mcp build never needed is not in ~/.m2: the tree check below in other words
    grep -q 'jackson-dataformat-yaml' "$WORK/consumer-build.log" \
      && fail "the consumer gets jackson-dataformat-yaml through the schema validator (log: $WORK/consumer-build.log)"
    fail "consumer build (log: $WORK/consumer-build.log)"; }
# our snapshots came from the deployed repository (not from an older install in ~/.m2), and nothing of ours was
# written to ~/.m2
for mode in classpath modulepath; do
  ours=$(tr ':' '\n' <"$CONSUMER_SRC/$mode/target/classpath.txt" | grep '/dev/loommcp/' || true)
  [[ -n "$ours" ]] || fail "no loom-mcp jar on the consumer's $mode"
  stray=$(grep -v "^$CONSUMER_M2/" <<<"$ours" || true)
  [[ -z "$stray" ]] || fail "the consumer's $mode has loom-mcp jars that were not deployed by this run: $stray"
done
if [[ -d "$USER_REPO/dev/loommcp" ]]; then
  polluted=$(find "$USER_REPO/dev/loommcp" -newer "$WORK/started" \( -name '*.jar' -o -name '*.pom' \
    -o -name '*loommcp-staging*' \) -print)
  [[ -z "$polluted" ]] || fail "written to $USER_REPO during this run: $polluted"
fi

# the dependency tree a user gets: one Jackson 3 version, no YAML through the schema validator (Jackson's YAML
# module, SnakeYAML 1.x/2.x); the one YAML parser allowed is mcp-skills' own (snakeyaml-engine, for the skills'
# frontmatter), and only when mcp-skills is there
deps="$CONSUMER_SRC/classpath/target/dependencies.txt"
cp "$deps" "$WORK/consumer-dependencies.txt"
if grep -Eq 'jackson-dataformat-yaml|org\.yaml:snakeyaml' "$deps"; then
  fail "the consumer gets YAML through the schema validator: $(grep -E 'yaml' "$deps" | tr -s ' ')"
fi
if grep -q 'org\.snakeyaml:snakeyaml-engine' "$deps" && ! grep -q 'dev\.loommcp:mcp-skills:' "$deps"; then
  fail "the consumer gets snakeyaml-engine without mcp-skills: $(grep -E 'yaml' "$deps" | tr -s ' ')"
fi
jackson_versions=$(grep -Eo 'tools\.jackson[^:]*:[^:]+:jar:[^: ]+' "$deps" | awk -F: '{print $4}' | sort -u)
[[ $(wc -l <<<"$jackson_versions") -eq 1 ]] || fail "the consumer gets more than one Jackson 3 version: $(echo $jackson_versions) ($(grep -Eo 'tools\.jackson[^ ]*' "$deps" | tr '\n' ' '))"
step "consumer dependencies: $(grep -Eo '[a-z0-9.-]+:[a-z0-9.-]+:jar:[^: ]+' "$deps" | grep -v '^dev\.loommcp' | sed 's/:jar:/:/' | tr '\n' ' ')"

JAVA="$JAVA_HOME/bin/java"
NODE_DIR="$ROOT/test-servers"
step "running the consumer on the class path"
cp_out=$("$JAVA" -cp "$CONSUMER_SRC/classpath/target/classes:$(cat "$CONSUMER_SRC/classpath/target/classpath.txt")" \
  dev.example.consumer.ConsumerMain classpath "$NODE_DIR" 2>"$WORK/classpath.err") \
  || { cat "$WORK/classpath.err" >&2; fail "the consumer on the class path"; }
[[ "$(tail -1 <<<"$cp_out")" == "consumer OK (classpath)" ]] || fail "class path run said: $cp_out"
step "running the consumer on the module path"
mp_out=$("$JAVA" -p "$CONSUMER_SRC/modulepath/target/classes:$(cat "$CONSUMER_SRC/modulepath/target/classpath.txt")" \
  -m dev.example.consumer/dev.example.consumer.ConsumerMain modulepath "$NODE_DIR" 2>"$WORK/modulepath.err") \
  || { cat "$WORK/modulepath.err" >&2; fail "the consumer on the module path"; }
[[ "$(tail -1 <<<"$mp_out")" == "consumer OK (modulepath)" ]] || fail "module path run said: $mp_out"

# the documentation's java blocks, as a user's code (the convention is at the top of this script)
step "compiling the java blocks of README.md and docs/*.md against the deployed modules"
SAMPLES="$WORK/doc-samples"
JUNIT_VERSION=$(sed -n 's|.*<junit.version>\(.*\)</junit.version>.*|\1|p' pom.xml | head -1)
"$JAVA_HOME/bin/java" "$ROOT/scripts/DocSamples.java" extract "$ROOT" "$SAMPLES" "$JUNIT_VERSION" $deployed \
  >"$WORK/doc-samples.txt" || fail "the documentation's sample markers (above)"
(cd "$SAMPLES" && "$ROOT/mvnw" -B -ntp -o -fae -Daether.offline.protocols=file \
  -Dmaven.repo.local="$CONSUMER_M2" -Dmaven.repo.local.tail="$USER_REPO" \
  -Dloommcp.version="$VERSION" -Dloommcp.repository="file://$REPO" compile) >"$WORK/doc-samples.log" 2>&1 || {
    "$JAVA_HOME/bin/java" "$ROOT/scripts/DocSamples.java" report "$SAMPLES" "$WORK/doc-samples.log" \
      || fail "a java block of the documentation does not compile (above; log: $WORK/doc-samples.log)"
    tail -40 "$WORK/doc-samples.log" >&2; fail "building the documentation's samples (log: $WORK/doc-samples.log)"; }
step "documentation samples: $(tr '\n' ';' <"$WORK/doc-samples.txt" | sed 's/;$//; s/;/; /g')"

# 3c (Spring, issue 31). The Spring examples as a user builds them (Spring Boot's parent, Spring AI's BOM, our BOM),
# against the deployed artifacts, with their tests, which start the apps against the pinned reference server and the
# tasks fixture over stdio: examples/spring-boot-chat (the ChatClient app and its variants, about 25 s) and
# examples/spring-ai-comparison (the same app on Spring AI's own MCP client starter and on ours, measured in one run:
# the table of docs/frameworks.md, written to its target/comparison.md and shown here; about 55 s, most of it Spring
# AI's request timeouts). Each one's resolved Jackson 3 is Boot's (shown, one version).
# Their own local repository is kept across runs like target/publish-m2: Spring Boot's parent and starters that the
# loom-mcp build never needed are downloaded there on the first run (the only network use); ~/.m2 is read-only.
EXAMPLES_M2="$ROOT/target/examples-m2"
for example in spring-boot-chat spring-ai-comparison; do
  step "examples/$example: build and run its tests against the deployed modules"
  EXAMPLE_DIR="$WORK/$example"
  cp -R "$ROOT/examples/$example" "$EXAMPLE_DIR"
  rm -rf "$EXAMPLE_DIR/target"
  example_mvn() {
    (cd "$EXAMPLE_DIR" && "$ROOT/mvnw" -B -ntp \
      -Dmaven.repo.local="$EXAMPLES_M2" -Dmaven.repo.local.tail="$USER_REPO" \
      -Dloommcp.version="$VERSION" -Dloommcp.repository="file://$REPO" -Dloommcp.node.dir="$ROOT/test-servers" "$@")
  }
  example_mvn verify >"$WORK/$example.log" 2>&1 || {
    tail -60 "$WORK/$example.log" >&2; fail "examples/$example (log: $WORK/$example.log)"; }
  example_mvn -q dependency:tree -Dincludes='tools.jackson.core' -DoutputFile=target/jackson-tree.txt \
    >>"$WORK/$example.log" 2>&1 || fail "examples/$example: dependency:tree (log: $WORK/$example.log)"
  example_jackson=$(grep -Eo 'tools\.jackson\.core:[a-z-]+:jar:[^: ]+' "$EXAMPLE_DIR/target/jackson-tree.txt" | awk -F: '{print $4}' | sort -u)
  [[ $(wc -l <<<"$example_jackson") -eq 1 ]] || fail "examples/$example resolves more than one Jackson 3 version: $(echo $example_jackson)"
  step "examples/$example: $(grep -o 'Tests run: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' "$WORK/$example.log" | tail -1); Jackson 3 $example_jackson (Spring Boot's)"
  [[ -f "$EXAMPLE_DIR/target/comparison.md" ]] && cat "$EXAMPLE_DIR/target/comparison.md" >&2
done

# 3b. the README as a new user copies it: its Maven snippet (section "Depending on loom-mcp") made into a project
# with the Quickstart class, built with the oldest Maven the README names (whose default compiler plugin ignores
# maven.compiler.release unless the snippet names a newer one). Nothing is kept in a second copy: both come out of
# README.md here. Maven 3.8 has no maven.repo.local.tail, so it gets a local repository of its own in the user's cache
# (our artifacts are removed from it after the build); it and the Maven distribution are fetched once (network).
OLDEST_MAVEN=3.8.8
step "the README's Maven snippet and Quickstart, built with Maven $OLDEST_MAVEN"
readme_block() { # $1 = heading that starts the section, $2 = fence language: the first such block in that section
  awk -v h="$1" -v lang="$2" '$0 == h { in_section = 1; next }
    in_section && /^## / { exit }
    in_section && !inside && $0 == "```" lang { inside = 1; next }
    inside && $0 == "```" { exit }
    inside { print }' "$ROOT/README.md"
}
README_USER="$WORK/readme-user"
mkdir -p "$README_USER/src/main/java"
snippet=$(readme_block "## Depending on loom-mcp" xml)
[[ -n "$snippet" ]] || fail "README.md has no xml block under '## Depending on loom-mcp'"
readme_block "## Quickstart (Java)" java >"$README_USER/src/main/java/Quickstart.java"
[[ -s "$README_USER/src/main/java/Quickstart.java" ]] || fail "README.md has no java block under '## Quickstart (Java)'"
cat >"$README_USER/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.example</groupId>
  <artifactId>readme-user</artifactId>
  <version>1.0</version>
  <repositories>
    <repository>
      <id>loommcp-staging</id>
      <url>file://$REPO</url>
      <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
    </repository>
  </repositories>
$snippet
</project>
POM
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/loom-mcp"
OLD_MAVEN="$CACHE/apache-maven-$OLDEST_MAVEN"
OLD_MAVEN_REPO="$CACHE/maven-$OLDEST_MAVEN-repository"
mkdir -p "$CACHE"
if [[ ! -x "$OLD_MAVEN/bin/mvn" ]]; then
  ./mvnw -B -q -f mcp-bom/pom.xml dependency:copy -Dartifact="org.apache.maven:apache-maven:$OLDEST_MAVEN:tar.gz:bin" \
    -DoutputDirectory="$WORK" >"$WORK/maven-fetch.log" 2>&1 \
    || { tail -20 "$WORK/maven-fetch.log" >&2; fail "fetching Maven $OLDEST_MAVEN (log: $WORK/maven-fetch.log)"; }
  tar -C "$CACHE" -xzf "$WORK/apache-maven-$OLDEST_MAVEN-bin.tar.gz"
fi
rm -rf "$OLD_MAVEN_REPO/dev/loommcp"
(cd "$README_USER" && MAVEN_OPTS="--enable-native-access=ALL-UNNAMED" "$OLD_MAVEN/bin/mvn" -B -ntp \
  -Dmaven.repo.local="$OLD_MAVEN_REPO" compile) >"$WORK/readme-user.log" 2>&1 \
  || { rm -rf "$OLD_MAVEN_REPO/dev/loommcp"; tail -40 "$WORK/readme-user.log" >&2
       fail "the README's snippet does not build with Maven $OLDEST_MAVEN (log: $WORK/readme-user.log)"; }
rm -rf "$OLD_MAVEN_REPO/dev/loommcp"
[[ -f "$README_USER/target/classes/Quickstart.class" ]] || fail "the README's Quickstart was not compiled"
# the class file is Java 21's (major 65): the release setting took effect
major=$(od -An -j6 -N2 -tu1 "$README_USER/target/classes/Quickstart.class" | awk '{ print $1 * 256 + $2 }')
[[ "$major" == 65 ]] || fail "the README's snippet compiled Quickstart for class file version $major, not Java 21's 65"

# 4. reproducible: the same sources built elsewhere give the same bytes
if [[ "${LOOM_SKIP_REPRO:-0}" != 1 ]]; then
  step "rebuilding the published modules from a copy of the sources (reproducibility)"
  COPY="$WORK/rebuild"
  mkdir -p "$COPY"
  tar -C "$ROOT" --exclude=./test-servers --exclude=./.git --exclude='*/target' --exclude=./target -cf - . | tar -C "$COPY" -xf -
  (cd "$COPY" && publish_mvn -q -o -Ppublish package -Dmaven.test.skip=true -pl '!mcp-it,!mcp-core-tests,!mcp-bench,!mcp-cli') \
    >"$WORK/rebuild.log" 2>&1 || { tail -50 "$WORK/rebuild.log" >&2; fail "rebuild (log: $WORK/rebuild.log)"; }
  compared=0
  for a in $libs; do
    for kind in "" -sources -javadoc; do
      ours=$(deployed_jar "$a" "$kind")
      again="$COPY/$a/target/$a-$VERSION$kind.jar"
      [[ -f "$again" ]] || fail "the rebuild has no $again"
      cmp -s "$ours" "$again" || fail "$a$kind.jar differs between two builds of the same sources ($ours vs $again)"
      compared=$((compared + 1))
    done
  done
  step "$compared jars identical across two builds"
fi
step "passed"
echo "consumer-test: passed (class path and module path; $(echo $libs | wc -w) modules + BOM deployed to target/)"
