#!/usr/bin/env bash
# Unpacks registry crates pagepath patches into replay/patched/<crate>-<version> (ignored by git)
# and applies pagepath's patches to them from replay/patches; replay/Cargo.toml's
# [patch.crates-io] builds from there. Run by scripts/install.sh; safe to run again: a copy made
# from the same crate and the same patches is left alone, so cargo does not rebuild it (and
# tquic's BoringSSL) for nothing.
#
# tquic 1.6.0: the public hook through which pagepath's multipath schedulers drive tquic
# (scheduler-hook, docs/multipath-schedulers.md), Chromium's ack decimation for the emulated
# browser's client (ack-decimation, docs/emulated-browser.md), one clock for all of tquic that a
# thread can set to virtual time or to another runtime's clock (virtual-clock), a fix for a
# path challenge timer that stayed expired once the path was validated (path-challenge-timer), and
# one for paths of more than 25 ms RTT that were never validated: a response to a challenge whose
# timer had fired was dropped and started the back-off again (stale-path-response).
#
# smoltcp 0.14.0, the simulator's TCP (docs/simulator.md), where it differs from Linux in ways a
# page load shows (linux-defaults): the initial congestion window and the retransmission timeout's
# floor settable, slow start grown by the bytes acknowledged, CUBIC counting every segment an ACK
# acknowledges, HyStart's delay and ACK-train tests on rounds of a window, Linux's loss recovery
# (one cut an episode, SACK's pipe with PRR, RACK for retransmissions and partial ACKs with its
# reorder timer, tail loss probes), a receiver that ACKs each segment in quick ACK mode as Linux's
# does, new data in whole segments, and the unsent bytes
# TCP_NOTSENT_LOWAT bounds; and what a multipath scheduler reads of a simulated MPTCP subflow
# (path-state): its congestion window, bytes in flight and smoothed RTT, with the share of Reno's
# growth a coupled controller (LIA, OLIA) gives it; and after a retransmission timeout, no fast
# recovery until what was outstanding when it fired is acknowledged (loss-state, Linux's CA_Loss);
# and a handshake as Linux's ends (handshake): a SYN or SYN-ACK sent again leaves the initial
# window unless sent again twice, and a handshake sent once is timed (tcp_init_transfer,
# tcp_synack_rtt_meas); and a receive ring that starts again at its front when it is empty and
# nothing is held out of order (rx-ring-front), so a long transfer writes cache-warm bytes.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${CARGO_HOME:-$HOME/.cargo}/registry/cache"

# patch_crate NAME VERSION SHA256 PATCH...: SHA256 is the registry's checksum of the .crate, as
# Cargo.lock had it before the patch replaced the registry source; patches apply in this order,
# each made on top of the ones before it.
patch_crate() {
  local name=$1 version=$2 checksum=$3
  shift 3
  local dest=replay/patched/$name-$version
  local stamp=$dest/.pagepath-patch
  local want
  want="crate $checksum patches $(sha256sum "$@" | cut -d' ' -f1 | tr '\n' ' ')"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi

  local crate
  crate=$(find "$cache" -maxdepth 2 -name "$name-$version.crate" 2>/dev/null | head -n 1 || true)
  if [ -z "$crate" ]; then
    # replay/ itself cannot fetch it: its [patch] points at the copy this function is about to make.
    echo "install: fetching $name $version from the registry"
    local tmp
    tmp=$(mktemp -d)
    mkdir "$tmp/src" && touch "$tmp/src/lib.rs"
    # replay/'s lock keeps the crate's dependencies at the versions the build will use.
    cp replay/Cargo.lock "$tmp/"
    printf '[package]\nname = "fetch-%s"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' "$name" "$name" "$version" >"$tmp/Cargo.toml"
    cargo fetch --quiet --manifest-path "$tmp/Cargo.toml"
    rm -rf "$tmp"
    crate=$(find "$cache" -maxdepth 2 -name "$name-$version.crate" 2>/dev/null | head -n 1 || true)
    [ -n "$crate" ] || { echo "patch-crates: cargo fetch did not leave $name-$version.crate in $cache" >&2; exit 1; }
  fi
  local got
  got=$(sha256sum "$crate" | cut -d' ' -f1)
  if [ "$got" != "$checksum" ]; then
    echo "patch-crates: $crate has sha256 $got, not the $checksum the registry published" >&2
    exit 1
  fi

  echo "install: patching $name $version ($*)"
  local work=$dest.new
  rm -rf "$work" && mkdir -p "$work"
  # tar keeps the archive's mtimes, so BoringSSL's sources look unchanged to its incremental build.
  tar -xzf "$crate" -C "$work" --strip-components=1
  local patch
  for patch in "$@"; do
    if ! patch --quiet --batch --forward -p1 -d "$work" <"$patch"; then
      rm -rf "$work"
      echo "patch-crates: $patch does not apply to $name $version with the patches before it (see docs/multipath-schedulers.md, updating the patch)" >&2
      exit 1
    fi
  done
  if [ "$name" = tquic ]; then
    # Virtual time holds only if tquic reads no clock but its own: a read left behind would mix in
    # real time unnoticed.
    if grep -rn "Instant::now()" "$work/src" | grep -v "^$work/src/clock.rs:"; then
      rm -rf "$work"
      echo "patch-crates: tquic $version reads Instant::now() outside src/clock.rs (above); the virtual-clock patch misses them" >&2
      exit 1
    fi
  fi
  echo "$want" >"$work/.pagepath-patch"
  rm -rf "$dest" && mv "$work" "$dest"
}

patch_crate tquic 1.6.0 366872745b1cd33b6d28f6c54acfdbb4ddd4094f2d6003664e7cde82218bd347 \
  replay/patches/tquic-1.6.0-scheduler-hook.patch replay/patches/tquic-1.6.0-ack-decimation.patch \
  replay/patches/tquic-1.6.0-virtual-clock.patch replay/patches/tquic-1.6.0-path-challenge-timer.patch \
  replay/patches/tquic-1.6.0-stale-path-response.patch
patch_crate smoltcp 0.14.0 b6f8b28ad56c6e35524a37dd492af5d1a47e31e1a4d175cd12f89c075f01980f \
  replay/patches/smoltcp-0.14.0-linux-defaults.patch replay/patches/smoltcp-0.14.0-path-state.patch \
  replay/patches/smoltcp-0.14.0-loss-state.patch replay/patches/smoltcp-0.14.0-handshake.patch \
  replay/patches/smoltcp-0.14.0-window-update.patch replay/patches/smoltcp-0.14.0-rx-ring-front.patch
