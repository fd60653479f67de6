"""Lesson 7's claims about its own run: two workers agree bit for bit, with each other and with
one machine of two replicas; the auto-shard policies split as described; a killed worker is
recovered from the chief's checkpoint; the evaluator sees the last checkpoint."""

import ast
import re

import pytest

STEM = "07_multi_worker"


@pytest.fixture
def nb(lesson):
    return lesson(STEM)


def _per_worker(text):
    """What each engine printed in a %%px cell's output: {index: its lines}, from the blocks
    ipyparallel labels [stdout:0], [stdout:1]."""
    parts = re.split(r"\[stdout:(\d+)\] ?\n", text)
    return {int(index): block for index, block in zip(parts[1::2], parts[2::2])}


def _without_gpu(nb, cell_id):
    return "no GPU" in nb.text(cell_id)


def test_the_two_workers_print_the_same_loss_every_epoch_and_end_with_the_same_weights(nb):
    nb.says("l07-ctl-workers-after", "Each worker printed the same loss, epoch after epoch.")
    nb.says("l07-ctl-workers-after",
            "the fingerprints (hashes of every weight's bits) must be the same on both workers.")
    tasks = _per_worker(nb.text("engines-tf-config"))
    assert tasks == {0: "{'type': 'worker', 'index': 0}\n", 1: "{'type': 'worker', 'index': 1}\n"}, tasks
    joined = _per_worker(nb.text("engines-strategy"))
    assert joined == {i: f"worker {i}: 2 replicas in sync\n" for i in (0, 1)}, joined
    log = _per_worker(nb.text("engines-train"))
    losses = [[float(x) for x in re.findall(r"epoch \d+/\d+: loss ([\d.]+)", log[i])] for i in (0, 1)]
    assert losses[0] and losses[0] == losses[1], losses
    prints = dict(re.findall(r"(worker \d): loss per epoch .*, weights fingerprint (\w+)",
                             nb.text("l07-ctl-fingerprints")))
    assert len(prints) == 2 and prints["worker 0"] == prints["worker 1"], prints
    assert "the same weights on both workers: True" in nb.text("l07-ctl-fingerprints")


def test_each_worker_reads_its_own_half_of_every_global_batch_and_together_every_number_once(nb):
    nb.says("engines-shard-after", "Each worker keeps its own half of every global batch, and together "
                                   "they read each number once.")
    read = {i: ast.literal_eval(block.split(" reads ", 1)[1])
            for i, block in _per_worker(nb.text("engines-shard")).items()}
    assert sorted(read) == [0, 1] and len(read[0]) == len(read[1]) == 4, read
    for half0, half1 in zip(read[0], read[1]):
        assert len(half0) == len(half1) == 2 and not set(half0) & set(half1)
    assert sorted(n for i in (0, 1) for part in read[i] for n in part) == list(range(16))


def test_workers_seeded_differently_draw_their_own_numbers_but_hold_the_chiefs_kernel(nb):
    nb.says("mwms-broadcast-outro", "Outside the scope, each worker drew its own numbers; in the scope, "
                                    "both hold worker 0's kernel.")
    rows = re.findall(r"worker (\d), seed \d: drawn outside the scope (\[.*?\]), kernel created in the "
                      r"scope (\[.*?\])", nb.text("mwms-broadcast-run"))
    assert [r[0] for r in rows] == ["0", "1"], rows
    (_, drawn0, kernel0), (_, drawn1, kernel1) = rows
    assert drawn0 != drawn1 and kernel0 == kernel1


def test_two_workers_compute_every_step_and_every_weight_bit_as_one_machine_with_two_replicas(nb):
    nb.says("l07-vs-one-machine-after",
            "Every step's loss, and every bit of the final weights, is the same: two workers "
            "compute what one machine with two replicas computes.")
    text = nb.text("l07-vs-one-machine")
    initial = re.search(r"initial weights: (\w+) and (\w+)", text).groups()
    final = re.search(r"final weights: +(\w+) and (\w+)", text).groups()
    assert initial[0] == initial[1], f"the same initial weights (seed 0 on both sides): {initial}"
    if _without_gpu(nb, "l07-vs-one-machine"):  # on a CPU, with the same threads per op: bit for bit
        assert final[0] == final[1], f"identical final weights, bit for bit: {final}"
        assert "first step whose loss differs: None" in text
    per_epoch = re.findall(r"loss per epoch, .*?: *(\[.*?\])", text)
    assert len(per_epoch) == 2 and per_epoch[0] == per_epoch[1], per_epoch


def test_one_more_thread_per_op_agrees_at_step_1_and_then_drifts_by_less_than_10_percent(nb):
    nb.says("l07-threads-figure-after",
            "With the same threads per op, the one machine lies on zero at every step.")
    nb.says("l07-threads-figure-after",
            "With one more thread, the first step agrees to float rounding (the same examples, "
            "the same weights); the losses then drift apart, step by step, by less than 10% at "
            "any step")
    text = nb.text("l07-more-threads")
    initial = re.search(r"initial weights: (\w+) and (\w+)", text).groups()
    assert initial[0] == initial[1], initial
    step = re.search(r"first differing step (\w+) of steps 1 to (\d+)", text).groups()
    assert step[0] != "None", "with another thread count the runs drift apart: no step differed"
    step_1, last, largest = (float(x) for x in re.search(
        r"relative gap in the loss: step 1 (\S+), step \d+ \(the last\) (\S+), largest (\S+)", text).groups())
    assert step_1 < 1e-5, f"step 1 agrees to float rounding: relative gap {step_1}"
    assert largest < 0.10, f"the drift stays below 10% at every step: largest relative gap {largest}"
    alt = nb.text("mwms-step-losses-figure")
    assert re.search(r"1 machine x 2 replicas, \d+ thread\(s\) per op: identical at every step", alt), alt


def test_the_two_equally_good_runs_end_within_2_percent_of_each_other(nb):
    nb.says("l07-threads-figure-after",
            "Neither run is wrong; they are two equally good runs: their last epochs' losses "
            "differ by less than 2%.")
    rows = dict(re.findall(r"^(2 workers|1 machine, \d+ threads) +loss per epoch (\[.*\])$",
                           nb.text("l07-more-threads"), re.M))
    assert len(rows) == 2, rows
    workers, machine = (ast.literal_eval(rows[k])[-1] for k in sorted(rows, reverse=True))
    assert abs(workers - machine) / workers < 0.02, (workers, machine)


def test_each_auto_shard_policy_splits_the_numbers_as_the_lesson_describes(nb):
    seen = {}
    current = None
    for line in nb.text("l07-shard-policies").splitlines():
        match = re.match(r"^(\w+ \w+)?\s+worker (\d): (.*)$", line)
        if match:
            current = match.group(1) or current
            value = match.group(3)
            seen[(current, int(match.group(2)))] = ast.literal_eval(value) if value.startswith("[") else value
    w = {key: [seen[(key, 0)], seen[(key, 1)]] for key, _ in seen}
    nb.says("l07-shard-policies-after",
            "worker 0 read files 0 and 2, worker 1 files 1 and 3. Together they cover every "
            "example once. But the global batch of the first step is `[0, 1]` + `[4, 5]`")
    assert sorted(sum(w["files FILE"][0] + w["files FILE"][1], [])) == list(range(16))
    assert w["files FILE"][0][0] == [0, 1] and w["files FILE"][1][0] == [4, 5]
    nb.says("l07-shard-policies-after", "worker *i* gets the *i*-th half of every global batch")
    assert w["files DATA"] == w["memory DATA"] == [[[0, 1], [4, 5], [8, 9], [12, 13]],
                                                   [[2, 3], [6, 7], [10, 11], [14, 15]]]
    nb.says("l07-shard-policies-after",
            "Exactly the split `MirroredStrategy` makes between its two replicas.")
    assert "the same split: True" in nb.text("l07-shard-vs-mirrored")
    nb.says("l07-shard-policies-after",
            "both workers get the same examples, and twice as many steps")
    assert w["memory OFF"][0] == w["memory OFF"][1] and len(w["memory OFF"][0]) == 2 * len(w["memory DATA"][0])
    nb.says("l07-shard-policies-after",
            "**AUTO**: `FILE` for the files, `DATA` for the numbers in memory.")
    assert w["files AUTO"] == w["files FILE"] and w["memory AUTO"] == w["memory DATA"]
    nb.says("l07-shard-policies-after", "**memory FILE**: an error.")
    assert all(isinstance(v, str) for v in w["memory FILE"]), w["memory FILE"]


def test_every_communication_implementation_sums_1_and_2_to_3_and_times_like_the_ring(nb):
    nb.says("l07-comm-options-after",
            "All three give the same sum. On this CPU-only machine they are the same algorithm, the "
            "ring")
    nb.says("l07-comm-options-after", "each 95% interval reaches within 10% of 1.00x")
    text = nb.text("l07-comm-options")
    rows = {name: rest for name, rest in re.findall(r"^(RING|NCCL|AUTO)\s+(sum .*)$", text, re.M)}
    assert sorted(rows) == ["AUTO", "NCCL", "RING"], rows
    for name, rest in rows.items():
        assert rest.startswith("sum of 1 and 2 = 3..3,"), (name, rest)
        assert "(median of 30 blocks of 5)" in rest, (name, rest)
    for name in ("NCCL", "AUTO"):
        found = nb.paired("l07-comm-options", f"{name} vs RING, time per all-reduce", end="")
        # "reaches within 10% of 1.00x": the interval overlaps 1/1.10x-1.10x. Not the verdict
        # "within 5%", nor the typical ratio: identical calls read "slower by 8%" (0.92x,
        # 0.85x-0.98x) in CI, "faster by 5%" (1.05x, 1.01x-1.13x) in the stored run, and a second
        # copy of the RING call "faster by 9%" (1.09x, 1.01x-1.19x): 3 of 36 such comparisons.
        assert float(found["low"]) <= 1.10 and float(found["high"]) >= 1 / 1.10, found.group(0)
        expected = nb.interval_verdict(found["low"], found["high"])
        assert expected is None or found["verdict"] == expected, found.group(0)
    if _without_gpu(nb, "l07-comm-options"):
        nb.says("l07-comm-options-after", "A call that asks for NCCL runs the ring without a word")
        assert "TensorFlow warned: nothing about NCCL" in text, text


def test_keras_3_fit_fails_on_two_workers_converting_per_replica_values(nb):
    nb.says("l07-fit-tf-keras-md",
            "With several workers it fails today: Keras 3 receives the per-replica values of a "
            "multi-worker dataset and cannot convert them")
    text = nb.text("l07-keras3-fit")
    assert "Model.fit on 2 workers: fails with ValueError" in text and "PerReplica" in text, text


def test_tf_keras_fit_runs_on_both_workers_with_the_same_log_and_the_same_weights(nb):
    nb.says("l07-fit-workers-after", "Both workers printed the same `fit` log.")
    log = nb.text("l07-fit-workers")
    assert log.count("tf.keras comes from the tf_keras package") == 2
    epochs = {i: re.findall(rf"^\[worker {i}\] \d+/\d+ - .*?(loss: [\d.]+ - accuracy: [\d.]+)", log, re.M)
              for i in (0, 1)}
    assert epochs[0] and epochs[0] == epochs[1], epochs
    nb.says("l07-fit-workers-after", "Again, the workers agree:")
    sums = re.findall(r"worker \d: loss per epoch (\[.*?\]), sum of all weights (\S+)",
                      nb.text("l07-fit-agree"))
    assert len(sums) == 2 and sums[0] == sums[1], sums


def _epoch_losses(text):
    """{epoch: loss} of what one worker printed ("epoch 2/5: loss 0.6751")."""
    return {int(e): float(l) for e, l in re.findall(r"epoch (\d+)/\d+: loss ([\d.]+)", text)}


def test_a_killed_worker_fails_its_peer_and_two_new_workers_resume_from_the_checkpoint_of_epoch_1(nb):
    without = _epoch_losses(_per_worker(nb.text("engines-train"))[0])
    first = _per_worker(nb.text("l07-fault-first-epoch"))
    assert first[0] == first[1] == f"starting at epoch 0\nepoch 1/1: loss {without[1]:.4f}\n", first
    nb.says("l07-fault-kill-intro", "As soon as worker 1 says where it starts, kill it with SIGKILL")
    killed = nb.text("l07-fault-kill")
    assert "killed worker 1 once it had printed: starting at epoch 1\n" in killed, killed
    nb.says("l07-fault-after", "Worker 0 failed with `UnavailableError` in its next all-reduce")
    nb.says("l07-fault-after", "ipyparallel reports that worker 1 died (`EngineError`).")
    assert re.search(r"^UnavailableError: Collective ops is aborted by: ", killed, re.M), killed
    assert re.search(r"^EngineError: Engine \d+ died$", killed, re.M), killed
    nb.says("l07-fault-after", "The new workers listen on new ports")
    before, after = (re.findall(r"localhost:(\d+)", nb.text(c)) for c in ("engines-start", "l07-fault-restart"))
    assert len(before) == len(after) == 2 and not set(before) & set(after), (before, after)
    resumed = _per_worker(nb.text("l07-fault-resume"))
    nb.says("l07-fault-resume-after",
            "Both workers started at epoch 1 and trained only the epochs that were missing.")
    assert resumed[0] == resumed[1] and resumed[0].startswith("starting at epoch 1\n"), resumed
    again = _epoch_losses(resumed[0])
    assert sorted(again) == sorted(without)[1:], (again, without)
    nb.says("l07-fault-resume-after", "up to the checkpoint the two runs are one")
    nb.says("l07-fault-figure-after", "The curves part right after the restart")
    nb.says("l07-fault-figure-after",
            "so the restarted epoch 2 trains on the batches epoch 1 saw, while the other run's epoch 2 "
            "reads new ones.")
    assert again[2] != without[2], (again, without)
    alt = nb.text("l07-fault-figure")
    steps = int(re.search(r"the checkpoint of step (\d+)", alt).group(1))
    assert f"Loss of each of {steps * len(without)} training steps without a failure, and of steps " \
           f"{steps + 1} to {steps * len(without)} after a restart" in alt, alt


def test_under_fit_backup_and_restore_resumes_both_workers_at_epoch_1_and_runs_only_the_missing_epochs(nb):
    nb.says("fit-ft-outro", "the cluster started twice, worker 1 was killed after epoch 1, and after the "
                            "restart `fit` began at epoch 1, not 0, on both workers, and ran only the "
                            "missing epochs.")
    record = nb.text("fit-ft-run")
    assert "2 workers, 2 start(s)" in record and "killed: worker 1 SIGKILLed after epoch 1" in record
    began = re.findall(r"worker \d: after the restart fit began at epoch (\d+) and ran (\d+) epochs",
                       nb.text("fit-ft-read"))
    assert "--epochs\", 3," in nb.cell("fit-ft-run").source
    assert began == [("1", "2")] * 2, began


def _timeline(nb):
    text = nb.text("l07-eval-timeline")
    finished = {int(e): float(t) for t, e in re.findall(r"^ *([\d.-]+) s  the workers finished epoch (\d+)$",
                                                        text, re.M)}
    evaluated = [(int(e), float(a)) for e, a in
                 re.findall(r"the evaluator: epoch (\d+), test accuracy ([\d.]+)", text)]
    summary = re.search(r"an epoch took ([\d.]+)-([\d.]+) s, an evaluation ([\d.]+)-([\d.]+) s: the evaluator "
                        r"evaluated epochs (\[.*?\]) of 1-(\d+), skipped (.*)$", text, re.M)
    assert summary, text
    return finished, evaluated, summary


def test_the_evaluator_sees_each_checkpoint_at_most_once_in_order_and_always_the_last_one(nb):
    nb.says("l07-eval-timeline-after",
            "It always sees the last one: it stops only after evaluating it.")
    finished, evaluated, summary = _timeline(nb)
    epochs = int(summary.group(6))
    seen = [e for e, _ in evaluated]
    assert sorted(finished) == list(range(1, epochs + 1)), finished
    assert seen == sorted(set(seen)) and seen[-1] == epochs, seen
    assert ast.literal_eval(summary.group(5)) == seen
    skipped = [e for e in range(1, epochs + 1) if e not in seen]
    assert summary.group(7) == (str(skipped) if skipped else "none"), summary.group(0)


def test_the_evaluator_skips_epochs_only_when_an_epoch_is_shorter_than_an_evaluation_and_a_look(nb):
    nb.says("l07-eval-timeline-after",
            "Each time it looks (about once a second, and only between evaluations), it takes "
            "the newest checkpoint.")
    nb.says("l07-eval-timeline-after",
            "when an epoch takes less time than an evaluation, it skips epochs.")
    _, _, summary = _timeline(nb)
    shortest_epoch, longest_evaluation = float(summary.group(1)), float(summary.group(4))
    if summary.group(7) != "none":
        assert shortest_epoch < longest_evaluation + 1.0, summary.group(0)


def test_the_last_checkpoint_the_evaluator_saw_scores_higher_than_the_first(nb):
    nb.says("l07-eval-timeline-after",
            "The last checkpoint it evaluated scores higher than the first one it found, since "
            "training went on meanwhile.")
    _, evaluated, _ = _timeline(nb)
    assert len(evaluated) >= 2, f"the evaluator saw only {evaluated}: nothing to compare"
    assert evaluated[-1][1] > evaluated[0][1], evaluated


def test_the_recorded_slurm_run_resumed_at_epoch_1_on_both_workers_with_the_same_weights(nb):
    recorded = nb.cell("slurm-recorded-run").source
    quoted = " ".join(line.lstrip("> ") for line in recorded.splitlines() if line.startswith(">"))
    assert ("Worker 1 was killed with SIGKILL after epoch 1; the job requeued itself and resumed at "
            "epoch 1 from the chief's checkpoint, and both workers ended with the same weights.") in quoted
    assert "srun: error: node2: task 1: Killed" in recorded and "requeueing" in recorded
    assert recorded.count("starting at epoch 1") == 2
    results = re.findall(r'--- result-\d\.json: .*"initial_epoch": (\d+).*"final_weights": "(\w+)"', recorded)
    assert len(results) == 2 and results[0] == results[1] and results[0][0] == "1", results
