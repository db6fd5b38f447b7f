#!/usr/bin/env bash
# Debian packages of the external programs some benchmarks run (issue 20): GNU Octave
# (embodiedact), ngspice (analogverifier), the native and RISC-V/AArch64 cross compilers with
# qemu-user (qm_libbench). Installs only what is missing, as root (CI) or through sudo.
# `--check` installs nothing: it lists what is missing and exits 1 if anything is.
# Without root, sudo or apt-get it says why and exits 1; `make report` then goes on and the
# cells that need a missing program are stored as `tool_missing` (issue 27).
set -euo pipefail
pkgs=()
command -v octave-cli >/dev/null 2>&1 || pkgs+=(octave)
command -v ngspice >/dev/null 2>&1 || pkgs+=(ngspice)
{ command -v qemu-riscv64 && command -v qemu-aarch64; } >/dev/null 2>&1 || pkgs+=(qemu-user)
command -v gcc >/dev/null 2>&1 || pkgs+=(gcc libc6-dev)
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || pkgs+=(gcc-riscv64-linux-gnu libc6-dev-riscv64-cross)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
if [ ${#pkgs[@]} -eq 0 ]; then
  echo "install-tools: every external program is installed"
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "install-tools: missing Debian packages: ${pkgs[*]}"
  exit 1
fi
fail() {
  echo "install-tools: cannot install ${pkgs[*]}: $*" >&2
  echo "install-tools: the cells that need them will be stored as tool_missing" >&2
  exit 1
}
command -v apt-get >/dev/null 2>&1 || fail "apt-get not found (not a Debian or Ubuntu system); install Octave, ngspice, gcc, the riscv64/aarch64 linux-gnu cross compilers and qemu-user by hand"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "not root and sudo is not installed; run this script as root"
  if ! sudo -n true 2>/dev/null && ! [ -t 0 ]; then
    fail "not root, and sudo needs a password but there is no terminal to ask for it; run 'sudo ./scripts/install-tools.sh'"
  fi
  SUDO=(sudo)
fi
echo "install-tools: installing ${pkgs[*]}${SUDO:+ (with sudo)}"
"${SUDO[@]}" apt-get update -qq || fail "apt-get update failed"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" \
  || fail "apt-get install failed"
