"""`other_load`: how many cores other processes kept busy while a run worked, this process's
own tree left out."""


def test_the_runs_own_cpu_includes_its_own_work_and_its_childrens():
    import hashlib
    import subprocess
    import sys
    import time

    from tfdist_edu.other_load import _tree_s

    before, tic = _tree_s(), time.process_time()
    for _ in range(300_000):  # this process's own work
        hashlib.sha256(b"x").digest()
    # A busy child (as a notebook's kernel is to nbval) for about a second, then waited for.
    subprocess.run([sys.executable, "-c", "import time\nt=time.process_time()\n"
                    "while time.process_time()-t<1: pass"], check=True)
    assert _tree_s() - before >= 0.9 + 0.5 * (time.process_time() - tic)


def test_a_busy_process_outside_the_run_counts_as_others():
    import os
    import signal
    import subprocess
    import sys
    import time

    from tfdist_edu.other_load import OtherLoad

    # Started through a shell that exits at once: the spinner is orphaned, outside our tree.
    pid = int(subprocess.run(["sh", "-c", f"{sys.executable} -c 'while True: pass' >/dev/null 2>&1 & echo $!"],
                             capture_output=True, text=True, check=True).stdout)
    try:
        load = OtherLoad().start()
        time.sleep(1.5)
        assert load.cores() > 0.6
    finally:
        os.kill(pid, signal.SIGKILL)


def test_the_sampled_load_counts_live_descendants_as_ours_and_the_rest_as_others(monkeypatch):
    import os

    from tfdist_edu import other_load as others

    me, tick = os.getpid(), os.sysconf("SC_CLK_TCK")
    # Two looks: a sandboxed grandchild (in our tree) used 0.5 s, an unrelated process 0.3 s.
    looks = iter([{me: (1, 0), 9001: (me, 0), 9002: (9001, 0), 7: (1, 0)},
                  {me: (1, 0), 9001: (me, 0), 9002: (9001, tick // 2), 7: (1, 3 * tick // 10)}])
    busy = iter([100.0, 100.8])
    monkeypatch.setattr(others, "_snapshot", lambda: next(looks))
    monkeypatch.setattr(others, "_machine_busy_s", lambda: next(busy))
    load = others.SampledLoad()
    load.first_look()
    load.look()
    assert round(load.busy_s, 6) == 0.8 and round(load.mine_s, 6) == 0.5
