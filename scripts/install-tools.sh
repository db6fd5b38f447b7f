#!/usr/bin/env bash
# Debian packages of the external programs some benchmarks run (issue 20): GNU Octave
# (embodiedact), ngspice (analogverifier), RISC-V and AArch64 cross compilers with qemu-user
# (qm_libbench). Installs only what is missing; needs root (CI) or sudo.
set -euo pipefail
pkgs=()
command -v octave-cli >/dev/null 2>&1 || pkgs+=(octave)
command -v ngspice >/dev/null 2>&1 || pkgs+=(ngspice)
command -v qemu-riscv64 >/dev/null 2>&1 || pkgs+=(qemu-user)
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || pkgs+=(gcc-riscv64-linux-gnu libc6-dev-riscv64-cross)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
if [ ${#pkgs[@]} -eq 0 ]; then exit 0; fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
