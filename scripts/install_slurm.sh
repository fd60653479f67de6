#!/usr/bin/env bash
# Install a real Slurm (Debian's slurm-wlm) and munge for the `slurm` tests; idempotent.
# Does nothing when the daemons and client commands are already there. Needs root (or sudo)
# and a Debian/Ubuntu apt; the services are not enabled: the test fixture starts its own.
set -euo pipefail

needed=(slurmctld slurmd munged sbatch srun scontrol)
missing=()
for cmd in "${needed[@]}"; do
    command -v "$cmd" >/dev/null || missing+=("$cmd")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "slurm already installed: $(slurmd -V)"
    exit 0
fi

if ! command -v apt-get >/dev/null; then
    echo "install_slurm.sh: no apt-get; install Slurm (slurmctld, slurmd, clients) and munge" \
         "with your system's package manager (missing: ${missing[*]})" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install_slurm.sh: needs root or sudo" >&2; exit 1; }
    SUDO="sudo"
fi

# policy-rc.d 101 keeps dpkg from starting the system's munge/slurm services during install:
# the fixture runs its own daemons with its own config, and a system slurmd would hold the ports.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod +x "$policy"
    created_policy=1
fi
trap 'if [ "$created_policy" = 1 ]; then $SUDO rm -f "$policy"; fi' EXIT

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge iproute2 procps
echo "installed: $(slurmd -V), $(munged -V | head -1)"
