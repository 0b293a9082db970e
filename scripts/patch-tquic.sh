#!/usr/bin/env bash
# Unpacks the registry's tquic 1.6.0 into replay/patched/tquic-1.6.0 (ignored by git) and applies
# pagepath's patches to it from replay/patches: the public hook through which pagepath's
# multipath schedulers drive tquic (scheduler-hook, docs/multipath-schedulers.md), Chromium's
# ack decimation for the emulated browser's client (ack-decimation, docs/emulated-browser.md), and
# one clock for all of tquic that a thread can set to virtual time (virtual-clock), and a fix for
# a path challenge timer that stayed expired once the path was validated (path-challenge-timer).
# replay/Cargo.toml's [patch.crates-io] builds from there. Run by scripts/install.sh; safe to run
# again: a copy made from the same crate and the same patches is left alone, so cargo does not
# rebuild tquic (and its BoringSSL) for nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=1.6.0
# in this order: each was made on top of the ones before it
PATCHES=(replay/patches/tquic-$VERSION-scheduler-hook.patch replay/patches/tquic-$VERSION-ack-decimation.patch
  replay/patches/tquic-$VERSION-virtual-clock.patch replay/patches/tquic-$VERSION-path-challenge-timer.patch)
DEST=replay/patched/tquic-$VERSION
STAMP=$DEST/.pagepath-patch

# the registry's sha256 of tquic-1.6.0.crate, as Cargo.lock had it before the patch replaced the
# registry source: the copy is patched from exactly those bytes.
CHECKSUM=366872745b1cd33b6d28f6c54acfdbb4ddd4094f2d6003664e7cde82218bd347
want="crate $CHECKSUM patches $(sha256sum "${PATCHES[@]}" | cut -d' ' -f1 | tr '\n' ' ')"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then exit 0; fi

cache="${CARGO_HOME:-$HOME/.cargo}/registry/cache"
find_crate() { find "$cache" -maxdepth 2 -name "tquic-$VERSION.crate" 2>/dev/null | head -n 1 || true; }
crate=$(find_crate)
if [ -z "$crate" ]; then
  # replay/ itself cannot fetch it: its [patch] points at the copy this script is about to make.
  echo "install: fetching tquic $VERSION from the registry"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir "$tmp/src" && touch "$tmp/src/lib.rs"
  # replay/'s lock keeps tquic's dependencies at the versions the build will use.
  cp replay/Cargo.lock "$tmp/"
  printf '[package]\nname = "fetch-tquic"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\ntquic = "=%s"\n' "$VERSION" >"$tmp/Cargo.toml"
  cargo fetch --quiet --manifest-path "$tmp/Cargo.toml"
  crate=$(find_crate)
  [ -n "$crate" ] || { echo "patch-tquic: cargo fetch did not leave tquic-$VERSION.crate in $cache" >&2; exit 1; }
fi
got=$(sha256sum "$crate" | cut -d' ' -f1)
if [ "$got" != "$CHECKSUM" ]; then
  echo "patch-tquic: $crate has sha256 $got, not the $CHECKSUM the registry published" >&2
  exit 1
fi

echo "install: patching tquic $VERSION (${PATCHES[*]})"
work="$DEST.new"
rm -rf "$work" && mkdir -p "$work"
# tar keeps the archive's mtimes, so BoringSSL's sources look unchanged to its incremental build.
tar -xzf "$crate" -C "$work" --strip-components=1
for patch in "${PATCHES[@]}"; do
  if ! patch --quiet --batch --forward -p1 -d "$work" <"$patch"; then
    rm -rf "$work"
    echo "patch-tquic: $patch does not apply to tquic $VERSION with the patches before it (see docs/multipath-schedulers.md, updating the patch)" >&2
    exit 1
  fi
done
# Virtual time holds only if tquic reads no clock but its own: a read left behind would mix in
# real time unnoticed.
if grep -rn "Instant::now()" "$work/src" | grep -v "^$work/src/clock.rs:"; then
  rm -rf "$work"
  echo "patch-tquic: tquic $VERSION reads Instant::now() outside src/clock.rs (above); the virtual-clock patch misses them" >&2
  exit 1
fi
echo "$want" >"$work/.pagepath-patch"
rm -rf "$DEST" && mv "$work" "$DEST"
