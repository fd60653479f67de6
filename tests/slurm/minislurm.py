"""A real Slurm on this machine: munged, slurmctld and two compute nodes, for the `slurm` tests.

Every daemon is the packaged one (Debian's slurm-wlm, installed by scripts/install_slurm.sh).
Each compute node is a slurmd in its own network namespace with its own address, joined to the
controller's namespace by a bridge, so Slurm and TensorFlow see two hosts: both nodes' tasks can
listen on the same port, and node names resolve to different addresses (each node gets its own
/etc/hosts, bind-mounted in a private mount namespace; the real /etc is never written).
Nothing runs in this machine's own network namespace except munged, which listens on a socket
file (and, for the engines' test, what this machine runs as a login node). Needs root. ``stop()`` kills everything and reports anything that survived.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psutil

NODES = ("node1", "node2")
SUBNET = "10.231.17"  # exists only inside this cluster's own namespaces
CONTROLLER_IP = f"{SUBNET}.254"
LOGIN_IP = f"{SUBNET}.253"  # this machine, once joined as a login node
REQUIRED_COMMANDS = ("munged", "slurmctld", "slurmd", "sbatch", "srun", "scontrol", "sinfo",
                     "nsenter", "unshare", "ip")
INSTALL_HINT = "run scripts/install_slurm.sh (as root) to install Debian's slurm-wlm and munge"


class SlurmUnavailable(RuntimeError):
    """This machine cannot host the test cluster; the message says why and what to do."""


class MiniSlurm:
    """The cluster's files live in ``root``; ``tag`` keeps its namespaces apart from others'."""

    def __init__(self, root, tag):
        self.root = Path(root)
        self.tag = tag
        self.ctl_ns = f"tfsl{tag}-ctl"
        self.node_ns = {node: f"tfsl{tag}-{node}" for node in NODES}
        self.conf = self.root / "slurm.conf"
        self.shared = self.root / "shared"  # what real clusters mount on every node (NFS)
        self.procs = {}
        self.namespaces = []  # the ones this cluster created, and so will delete

    # ---- start-up

    def start(self, timeout_s=60):
        check_prerequisites()
        self.shared.mkdir(parents=True, exist_ok=True)
        self._make_namespaces()
        self._start_munged()
        self._write_config()
        controller = ["slurmctld", "-D", "-f", str(self.conf)]
        self._spawn("slurmctld", self._in_ns(self.ctl_ns, controller))
        for i, node in enumerate(NODES, start=1):
            self._start_slurmd(node, f"{SUBNET}.{i}")
        self._wait_nodes_idle(timeout_s)

    def _make_namespaces(self):
        """A bridge in the controller's namespace; a veth pair to it from each node's."""
        run = _checked
        existing = subprocess.run(["ip", "netns", "list"], check=False, capture_output=True,
                                  text=True).stdout.split()
        for ns in [self.ctl_ns, *self.node_ns.values()]:
            if ns in existing:
                raise SlurmUnavailable(f"network namespace {ns} exists already (left by an earlier "
                                       f"run?): remove it with `ip netns del {ns}`")
            run(["ip", "netns", "add", ns])
            self.namespaces.append(ns)
            run(["ip", "-n", ns, "link", "set", "lo", "up"])
        run(["ip", "-n", self.ctl_ns, "link", "add", "br0", "type", "bridge"])
        run(["ip", "-n", self.ctl_ns, "addr", "add", f"{CONTROLLER_IP}/24", "dev", "br0"])
        run(["ip", "-n", self.ctl_ns, "link", "set", "br0", "up"])
        for i, (node, ns) in enumerate(self.node_ns.items(), start=1):
            inner, outer = f"sl{self.tag}n{i}", f"sl{self.tag}b{i}"
            run(["ip", "link", "add", inner, "netns", ns, "type", "veth",
                 "peer", "name", outer, "netns", self.ctl_ns])
            run(["ip", "-n", self.ctl_ns, "link", "set", outer, "master", "br0", "up"])
            run(["ip", "-n", ns, "addr", "add", f"{SUBNET}.{i}/24", "dev", inner])
            run(["ip", "-n", ns, "link", "set", inner, "up"])

    def _start_munged(self):
        """munged with a fresh key; its socket directory must be world-searchable."""
        keydir, rundir = self.root / "munge-key", self.root / "munge-run"
        keydir.mkdir(mode=0o700)
        rundir.mkdir(mode=0o755)
        key = keydir / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.munge_socket = rundir / "munge.socket"
        self._spawn("munged", ["munged", "-F", f"--socket={self.munge_socket}",
                               f"--key-file={key}", f"--log-file={keydir / 'munged.log'}",
                               f"--pid-file={rundir / 'munged.pid'}",
                               f"--seed-file={keydir / 'munged.seed'}"])
        _wait_for(lambda: self.munge_socket.exists(), 10, lambda: self._died("munged"))

    def _write_config(self):
        host = socket.gethostname().split(".")[0]  # slurmctld must run on the host it is told
        nodes = "\n".join(f"NodeName={node} NodeAddr={SUBNET}.{i} CPUs={os.cpu_count()} "
                          "State=UNKNOWN" for i, node in enumerate(NODES, start=1))
        (self.root / "spool").mkdir()
        self.conf.write_text(CONFIG_TEMPLATE.format(
            host=host, ip=CONTROLLER_IP, root=self.root, socket=self.munge_socket, nodes=nodes,
            node_list=f"node[1-{len(NODES)}]"))

    def _start_slurmd(self, node, address):
        (self.root / "spool" / node).mkdir()
        hosts = self.root / f"hosts-{node}"
        names = [f"{SUBNET}.{i} {n}" for i, n in enumerate(NODES, start=1)]
        hosts.write_text(Path("/etc/hosts").read_text() + "\n".join(names) + "\n")
        # nsenter keeps /sys/fs/cgroup visible (slurmd 22.05 needs it even with proctrack/linuxproc,
        # and `ip netns exec` remounts /sys without it); unshare gives this node its own /etc/hosts.
        script = f"mount --bind {hosts} /etc/hosts && exec slurmd -D -N {node} -f {self.conf}"
        self._spawn(node, ["nsenter", f"--net=/run/netns/{self.node_ns[node]}",
                           "unshare", "--mount", "--propagation", "private", "sh", "-c", script])

    def _wait_nodes_idle(self, timeout_s):
        def idle():
            self._check_alive()
            out = self.client(["sinfo", "-h", "-N", "-o", "%N %T"], check=False).stdout
            return sorted(out.split()) == sorted(w for n in NODES for w in (n, "idle"))
        _wait_for(idle, timeout_s, lambda: "nodes not idle: " + self.client(
            ["sinfo", "-N"], check=False).stdout + self.log_tail())

    def join_as_login_node(self):
        """Link this machine's own network namespace to the cluster's bridge, as a login node
        is: its processes (a notebook, ipyparallel's controller, sbatch) then reach the nodes and
        the nodes reach them. Return this machine's address on that network. The link goes with
        the controller's namespace in ``stop()``."""
        inner, outer = f"sl{self.tag}h", f"sl{self.tag}hb"
        _checked(["ip", "link", "add", inner, "type", "veth", "peer", "name", outer,
                  "netns", self.ctl_ns])
        _checked(["ip", "-n", self.ctl_ns, "link", "set", outer, "master", "br0", "up"])
        _checked(["ip", "addr", "add", f"{LOGIN_IP}/24", "dev", inner])
        _checked(["ip", "link", "set", inner, "up"])
        return LOGIN_IP

    # ---- processes

    def _in_ns(self, ns, argv):
        return ["nsenter", f"--net=/run/netns/{ns}", *argv]

    def _spawn(self, name, argv):
        with open(self.root / f"{name}.out", "wb") as log:  # the child keeps its own copy
            self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                                stdin=subprocess.DEVNULL, cwd=self.root,
                                                env={**os.environ, "SLURM_CONF": str(self.conf)})

    def _check_alive(self):
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise SlurmUnavailable(self._died(name))

    def _died(self, name):
        code = self.procs[name].poll()
        state = "is still starting" if code is None else f"exited with code {code}"
        return f"{name} did not come up ({state}); its output:\n" + self.log_tail(name)

    def log_tail(self, name=None, lines=15):
        """The last ``lines`` of one daemon's output, or of every daemon's."""
        names = [name] if name else list(self.procs)
        tails = []
        for n in names:
            text = (self.root / f"{n}.out").read_text(errors="replace").splitlines()
            tails.append(f"--- {n}\n" + "\n".join(text[-lines:]))
        return "\n".join(tails)

    # ---- clients

    def client(self, argv, env=None, cwd=None, check=True):
        """Run a Slurm command (sbatch, squeue, ...) from the controller's network."""
        env = {**(env or os.environ), "SLURM_CONF": str(self.conf)}
        done = subprocess.run(self._in_ns(self.ctl_ns, argv), check=False, capture_output=True,
                              text=True, env=env, cwd=cwd, timeout=60)
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip()}")
        return done

    def sbatch(self, script, args=(), options=(), env=None, cwd=None):
        """Submit ``script`` with extra sbatch ``options``; return the job id."""
        out = self.client(["sbatch", "--parsable", *options, str(script), *args], env=env,
                          cwd=cwd).stdout
        return int(out.strip().split(";")[0])

    def job(self, job_id):
        """``scontrol show job`` as a dict (JobState, Restarts, NodeList, ...)."""
        out = self.client(["scontrol", "show", "job", "-o", str(job_id)]).stdout
        return dict(re.findall(r"(\w+)=(\S*)", out))

    def wait_job(self, job_id, timeout_s, on_tick=None):
        """Wait until the job has ended for good; return its final record."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            record = self.job(job_id)
            if record["JobState"] in FINAL_STATES:
                return record
            if on_tick:
                on_tick(record)
            time.sleep(1)
        self.client(["scancel", "--signal=KILL", str(job_id)], check=False)
        raise TimeoutError(f"job {job_id} still {record['JobState']} after {timeout_s} s\n"
                           + self.log_tail())

    def node_pids(self):
        """Every process in the cluster's namespaces: daemons, job steps, workers."""
        pids = []
        for ns in self.namespaces:
            out = subprocess.run(["ip", "netns", "pids", ns], check=False, capture_output=True,
                                 text=True)
            pids += [int(p) for p in out.stdout.split()]
        return pids

    # ---- teardown

    def stop(self):
        """Kill every process of the cluster, delete its namespaces; return what survived."""
        deadline = time.monotonic() + 20
        while (pids := self.node_pids()) and time.monotonic() < deadline:
            for pid in pids:  # SIGKILL: multi-worker TensorFlow processes ignore SIGTERM
                _kill(pid)
            time.sleep(0.2)
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
        survivors = self.survivors()
        for ns in self.namespaces:
            subprocess.run(["ip", "netns", "del", ns], check=False, capture_output=True)
        self.namespaces = []
        return survivors

    def survivors(self):
        """Live processes that belong to this cluster: in its namespaces or naming its files."""
        found = {p for p in self.node_pids() if psutil.pid_exists(p)}
        for proc in psutil.process_iter(["pid", "cmdline", "status"]):
            cmdline = " ".join(proc.info["cmdline"] or [])
            if str(self.root) in cmdline and proc.info["status"] != psutil.STATUS_ZOMBIE:
                found.add(proc.info["pid"])
        return sorted(found)


FINAL_STATES = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                "BOOT_FAIL", "DEADLINE", "PREEMPTED"}

# No systemd or cgroups needed: linuxproc tracks a job's processes by parentage, task/none binds
# nothing. cred_expire=10: a requeued job may start again 10 s later (default 120 s).
CONFIG_TEMPLATE = """\
ClusterName=tfdist
SlurmctldHost={host}({ip})
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket},cred_expire=10
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool/%n
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/spool/%n/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/spool/%n/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
KillWait=5
MinJobAge=600
{nodes}
PartitionName=debug Nodes={node_list} Default=YES MaxTime=INFINITE State=UP
"""


def check_prerequisites():
    """Raise SlurmUnavailable saying what is missing: root, the packages, or a tool."""
    if os.geteuid() != 0:
        raise SlurmUnavailable("the Slurm test cluster needs root (network namespaces, daemons)")
    missing = [cmd for cmd in REQUIRED_COMMANDS if shutil.which(cmd) is None]
    if missing:
        raise SlurmUnavailable(f"Slurm is not installed here (missing: {', '.join(missing)}): "
                               + INSTALL_HINT)


def install_if_missing(install_script):
    """Run the project's install step when Slurm's commands are missing; raise if still missing.

    Root is checked first: without it neither the install nor the cluster can work.
    """
    try:
        check_prerequisites()
        return
    except SlurmUnavailable:
        if os.geteuid() != 0:
            raise
    done = subprocess.run(["bash", str(install_script)], check=False, capture_output=True,
                          text=True, timeout=900)
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip().splitlines()[-15:]
        raise SlurmUnavailable(f"{install_script} failed (exit {done.returncode}):\n"
                               + "\n".join(output))
    check_prerequisites()


def make_root():
    """A fresh directory for one cluster; world-searchable because munged insists on it."""
    root = Path(tempfile.mkdtemp(prefix="tfdist-slurm-"))
    root.chmod(0o755)
    return root


def _checked(argv):
    done = subprocess.run(argv, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise SlurmUnavailable(f"`{' '.join(argv)}` failed: {done.stderr.strip()}")


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _wait_for(condition, timeout_s, explain):
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise SlurmUnavailable(explain())
        time.sleep(0.3)
