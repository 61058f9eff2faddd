#!/usr/bin/env bash
# Builds the root filesystem under kvtier's container image, from what this machine has: a Java runtime cut from
# the JDK that builds kvtier (jlink) and the shared libraries it loads, so the image needs no base image from a
# registry. cli/pom.xml's "image" profile runs this, then Jib puts the result and the CLI into an OCI tarball.
#   deploy/image/runtime.sh OUT_DIR      (JAVA_HOME: a JDK 25; the launcher sets it)
set -euo pipefail

out="${1:?usage: runtime.sh OUT_DIR}"
jdk="${JAVA_HOME:?JAVA_HOME must name a JDK 25}"
# What the CLI and its libraries need (jdeps --print-module-deps over the runtime classpath), plus the compiler and
# management implementations Chronicle loads by name; ImageTarballCheck runs a journaled seed in the image's files.
modules="java.base,java.compiler,java.desktop,java.management,java.naming,java.sql,jdk.compiler,jdk.management"
modules="$modules,jdk.unsupported,jdk.zipfs"

rm -rf "$out"
mkdir -p "$out/opt" "$out/tmp" "$out/work" "$out/etc"
"$jdk/bin/jlink" --add-modules "$modules" --output "$out/opt/java" --strip-debug --no-man-pages \
  --no-header-files --compress=zip-6

# Every shared library the runtime's executables and libraries load from the system (as ldd resolves them on this
# machine), at the same path, and the dynamic loader. AWT's X11 toolkit (and its splash screen) and the sound library
# are not scanned, so their libraries stay out whether or not this machine has them: kvtier runs headless.
libs="$(find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' -o -name jspawnhelper \) \
    ! -name libawt_xawt.so ! -name libjawt.so ! -name libsplashscreen.so ! -name libjsound.so -print0 \
  | xargs -0 ldd 2>/dev/null \
  | awk -v own="$out/" '$2 == "=>" && $3 ~ /^\// && index($3, own) != 1 { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' \
  | sort -u)"
for lib in $libs; do
  mkdir -p "$out$(dirname "$lib")"
  cp -L "$lib" "$out$lib"
done

# Names for uid 0 and for the unprivileged user a cluster may run the container as.
printf 'root:x:0:0:root:/work:/sbin/nologin\nkvtier:x:65532:65532:kvtier:/work:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nkvtier:x:65532:\n' > "$out/etc/group"
echo "runtime.sh: $(du -sh "$out" | cut -f1) in $out ($(echo "$libs" | wc -w) shared libraries)"
