"""Lesson 8's claims about its own run: the notebook as the chief of a cluster on engines, which
trains, runs every scheduled step, survives a killed worker and takes it back; the partitioner cuts the large variables; CentralStorageStrategy
keeps one copy, and what Keras reports under it (training and validation) against a plain model."""

import ast
import math
import re

import pytest

STEM = "08_parameter_server"


@pytest.fixture
def nb(lesson):
    return lesson(STEM)


def _accuracies(text):
    return ast.literal_eval(re.search(r"test accuracy after each round: (\[.*?\])", text).group(1))


def test_every_scheduled_step_ran_once_and_the_split_is_printed_against_an_even_one(nb):
    nb.says("l08-async-run-after", "Every scheduled step ran once.")
    nb.says("l08-async-run-after", "an even split (half of the steps each) comes only by chance")
    text = nb.text("l08-steps-per-worker")
    ran, done, scheduled, even = re.search(
        r"steps each worker ran: (\{.*?\}); (\d+) of the (\d+) scheduled \(an even split would be (\d+) each\)",
        text).groups()
    ran = ast.literal_eval(ran)
    assert sorted(ran) == ["worker 0", "worker 1"] and sum(ran.values()) == int(done) == int(scheduled), text
    assert int(even) * 2 == int(scheduled)


def test_the_loss_fell_and_the_last_rounds_test_accuracy_beats_the_first(nb):
    nb.says("l08-async-run-after",
            "The loss fell, and the test accuracy after the last round is higher than after the "
            "first")
    text = nb.text("l08-steps-per-worker")
    first, last = (float(x) for x in re.search(
        r"mean loss of the first 10 steps ([\d.]+), of the last 10 steps ([\d.]+)", text).groups())
    assert last < first, (first, last)
    accuracy = _accuracies(text)
    assert accuracy[-1] > accuracy[0], accuracy


def test_without_a_partitioner_the_variables_are_dealt_out_in_turn_and_one_server_holds_every_kernel(nb):
    nb.says("l08-async-run-after",
            "Without a partitioner, each variable lives whole on one parameter server, and the "
            "variables are dealt out to the servers in turn, in the order the model created "
            "them: kernel, bias, kernel, bias.")
    nb.says("l08-async-run-after",
            "With two servers, one of them got every kernel, and with them nearly all the values")
    rows = re.findall(r"^ps (\d) holds (\d+) variables, ([\d,]+) values: (.*)$",
                      nb.text("l08-placement"), re.M)
    assert [r[0] for r in rows] == ["0", "1"], rows
    server = _by_place_in_model({v: ps for ps, _, _, held in rows for v in held.split(", ")})
    order = list(_by_place_in_model(_placement(nb)))  # the model's variables in the order they were created
    assert sorted(server) == sorted(order), (server, order)
    assert all(server[a] != server[b] for a, b in zip(order, order[1:])), [server[v] for v in order]
    values = {ps: int(v.replace(",", "")) for ps, _, v, _ in rows}
    kernels = {server[v] for v in order if v[-1] == "kernel"}
    assert len(kernels) == 1, kernels
    assert values[kernels.pop()] > 0.99 * sum(values.values()), values


def test_the_notebook_is_the_chief_of_two_workers_and_two_ps_on_engines(nb):
    text = nb.text("l08-cluster")
    tasks = re.findall(r"^  (chief|worker|ps) (\d) +localhost:\d+", text, re.M)
    assert tasks == [("chief", "0"), ("worker", "0"), ("worker", "1"), ("ps", "0"), ("ps", "1")], text
    assert len(re.findall(r"grpc://localhost:\d+", text)) == 4, text
    assert "coordinator: 2 workers, 2 ps" in nb.text("l08-run")
    # Connected to the cluster, TensorFlow lists every task's devices: the kernel reports its own two.
    for cell_id in ("l08-steps-per-worker", "l08-central-metrics"):
        assert re.search(r"\b2 logical (CPU|GPU) devices", nb.text(cell_id)), nb.text(cell_id)


def _by_place_in_model(by_name):
    """``by_name`` keyed by each variable's place in its model instead of its name: each run in
    the kernel builds a new model, and Keras numbers the layers of every new one on (conv2d,
    conv2d_1 in the first; conv2d_4, conv2d_5 in the third), so ("conv2d", 0, "kernel") is the
    first convolution's kernel in any run."""
    def layer(name):
        base, _, n = name.rpartition("_")
        return (base, int(n)) if n.isdigit() else (name, 0)

    layers = {v.split("/")[-2] for v in by_name}
    rank = {l: sorted((x for x in layers if layer(x)[0] == layer(l)[0]), key=lambda x: layer(x)[1]).index(l)
            for l in layers}
    return {(layer(v.split("/")[-2])[0], rank[v.split("/")[-2]], v.split("/")[-1]): value
            for v, value in by_name.items()}


def test_the_coordinator_logged_the_killed_worker_and_ran_every_step_on_the_other(nb):
    nb.says("l08-worker-dies-md",
            "The first step sent to worker 1 fails, and the coordinator sends it again to worker 0.")
    nb.says("l08-worker-dies-after", "The coordinator noticed the dead worker: it logged the failure")
    nb.says("l08-worker-dies-after", "every scheduled step ran, on worker 0 alone.")
    logged = nb.text("l08-kill")
    failures = re.findall(r"the coordinator logged, [\d.]+ s into the round: Worker /job:worker/replica:0/task:1 "
                          r"failed with UnavailableError", logged)
    assert failures, logged
    w0, w1, ran, scheduled = (int(x) for x in re.search(
        r"after the kill: worker 0 ran (\d+) steps, worker 1 ran (\d+); (\d+) of the (\d+) scheduled ran",
        nb.text("l08-kill")).groups())
    assert w1 == 0 and w0 == ran == scheduled > 0, (w0, w1, ran, scheduled)


def test_a_worker_restarted_at_its_address_runs_steps_again(nb):
    nb.says("l08-worker-back-after",
            "Worker 1 is back: a worker that returns at the same address rejoins the training, and "
            "nothing else in the cluster restarted.")
    restart = nb.text("l08-restart")
    assert re.search(r"worker 1 is now engine \d+, process \d+", restart), restart
    assert re.findall(r"grpc://(localhost:\d+)", restart) == re.findall(
        r"^  worker 1 +(localhost:\d+)", nb.text("l08-cluster"), re.M), restart
    rounds = [(int(w0), int(w1)) for w0, w1 in re.findall(
        r"round \d+: worker 0 ran (\d+) steps, worker 1 ran (\d+)", nb.text("l08-worker-back"))]
    assert rounds and rounds[-1][1] > 0 and all(w1 == 0 for _, w1 in rounds[:-1]), rounds


def test_the_partitioner_keeps_1024_numbers_whole_and_cuts_one_more_into_two(nb):
    nb.says("ps-partitioner-read", "Up to `SHARD_BYTES` (1024 numbers), a variable stays whole. One number "
                                   "more, and it is cut into `max_shards` = 2 shards")
    shards = dict(re.findall(r"^(\[[\d, ]+\])\s+\d+ bytes: (\d+) shard", nb.text("ps-partitioner"), re.M))
    assert shards["[1024]"] == "1" and shards["[1025]"] == "2", shards


def test_keras_3_fails_on_a_sharded_variable_before_any_step(nb):
    nb.says("l08-sharded-keras3-after", "With Keras 3 it fails at the first step: no step ran.")
    nb.says("l08-sharded-keras3-after",
            "the gradient tape cannot take the gradient of the Keras variable as a whole (it has "
            "no single `handle`)")
    text = nb.text("l08-sharded-keras3")
    assert re.search(r"^0 steps ran; .*'ShardedVariable' object has no attribute 'handle'", text, re.M), text
    assert "partitioned: True" in text, "the same cluster, a strategy with a partitioner"


def _placement(nb):
    rows = re.findall(r"^(\S+)\s+(\d+) shard\(s\): (.*)$", nb.text("l08-shards"), re.M)
    placed = {}
    for variable, count, where in rows:
        parts = [(ast.literal_eval(shape), int(ps)) for shape, ps in re.findall(r"(\[[\d, ]+\]) on ps (\d)", where)]
        assert len(parts) == int(count), (variable, where)
        placed[variable] = parts
    return placed


def test_the_large_kernels_are_cut_in_two_along_their_first_axis_one_shard_per_server(nb):
    nb.says("l08-shards-after",
            "The large kernels are cut in two along their first axis, one shard per parameter "
            "server. Variables of at most `SHARD_BYTES` stay whole")
    shard_bytes = int(re.search(r"SHARD_BYTES = (\d+)", nb.cell("ps-partitioner").source).group(1))
    placed = _placement(nb)
    cut = {v: parts for v, parts in placed.items() if len(parts) > 1}
    assert cut and all(v.endswith("kernel") for v in cut), placed
    for variable, parts in placed.items():
        shapes = [shape for shape, _ in parts]
        whole = [sum(s[0] for s in shapes)] + shapes[0][1:]
        size = 4 * math.prod(whole)  # float32
        if len(parts) > 1:
            assert len(parts) == 2 and sorted(ps for _, ps in parts) == [0, 1], (variable, parts)
            assert all(s[1:] == shapes[0][1:] for s in shapes) and size > shard_bytes, (variable, parts)
        else:
            assert size <= shard_bytes, (variable, parts)


def test_training_the_shards_works_the_last_rounds_accuracy_beats_the_first(nb):
    nb.says("l08-shards-after",
            "Training the shards works: the test accuracy after the last round is higher than "
            "after the first, as in the run without partitioning.")
    accuracy = _accuracies(nb.text("l08-shards"))
    assert accuracy[-1] > accuracy[0], accuracy


def test_mirrored_keeps_a_copy_per_replica_and_central_storage_one_copy(nb):
    nb.says("l08-central-vars-after",
            "Both have 2 replicas. The mirrored variable has a copy per replica; the central one "
            "has one copy.")
    text = nb.text("l08-central-vars")
    mirrored = re.search(r"MirroredStrategy +(\d) replicas; variable type (\w+), stored on (\[.*?\])", text)
    central = re.search(r"CentralStorageStrategy +(\d) replicas; variable type (\w+), stored on (\[.*?\])", text)
    assert mirrored.group(1) == central.group(1) == "2"
    assert len(ast.literal_eval(mirrored.group(3))) == 2 and len(ast.literal_eval(central.group(3))) == 1


def _central(nb):
    text = nb.text("l08-central-metrics")
    number = {name: float(re.search(pattern, text).group(1)) for name, pattern in {
        "reported": r"test accuracy that fit reported under CentralStorageStrategy: ([\d.]+)",
        "checked": r"the same weights, evaluated with no strategy: +([\d.]+)",
        "weighted": r"the plain model's accuracy with test batch k weighing 1/2\^k: +([\d.]+)",
        "counted": r"test examples the validation's accuracy metric counted: ([\d.e+]+)",
        "examples": r"counted: \S+, for (\d+) examples",
        "batches": r"examples in (\d+) batches"}.items()}
    return text, number


def test_central_storage_training_metrics_read_nan_once_the_doubled_sums_overflow(nb):
    nb.says("l08-central-metrics-after",
            "Under `CentralStorageStrategy`, every metric that Keras 3.15 reports is wrong, the "
            "validation's too")
    nb.says("l08-central-metrics-after",
            "they become `inf`, and inf / inf is the `nan` that `fit` printed.")
    text, _ = _central(nb)
    assert "training loss and accuracy that fit reported in its last epoch: nan nan" in text, text


def test_the_validation_counted_more_than_1e25_examples_for_the_10000_in_79_batches(nb):
    nb.says("l08-central-metrics-after",
            "the validation's accuracy metric counted not 10,000 test examples but more than "
            "10<sup>25</sup>, as printed above.")
    nb.says("l08-central-metrics-after", "The validation's 79 batches stay finite")
    _, n = _central(nb)
    assert n["examples"] == 10_000 and n["batches"] == 79, n
    assert n["counted"] > 1e25, n


def test_fits_validation_accuracy_is_the_plain_models_with_batch_k_weighing_half_to_the_k(nb):
    nb.says("l08-central-metrics-after",
            "Weight the plain model's batches the same way and you get the number `fit` "
            "reported; count every test example once and you get the true test accuracy")
    _, n = _central(nb)
    assert abs(n["reported"] - n["weighted"]) <= 0.0015, n  # equal to the 3 decimals printed
    off = re.search(r"evaluated with no strategy: +[\d.]+ \(off by ([+-][\d.]+)\)",
                    nb.text("l08-central-metrics"))
    assert abs(float(off.group(1)) - (n["reported"] - n["checked"])) <= 0.0015, off.group(0)


def test_the_weights_trained_under_central_storage_classify_more_than_85_percent_correctly(nb):
    nb.says("l08-central-metrics-after",
            "The training itself is right: the same weights, evaluated with no strategy, "
            "classify more than 85% of the test images correctly.")
    _, n = _central(nb)
    assert n["checked"] > 0.85, n
