"""Lesson 3's claims about its results, checked on the normal-mode run that printed them."""

import math
import re

STEM = "03_mirrored_custom_loop"


def _replicas(run):
    return int(run.number("l03-global-batch", r"(\d+) replicas x"))


def test_summed_compute_average_loss_is_the_one_device_mean_and_reduce_mean_is_replicas_times_it(lesson):
    run = lesson(STEM)
    run.says("l03-average-vs-mean-after",
             "The summed `compute_average_loss` is the single-device mean. The "
             "per-replica `reduce_mean` is the mean times the number of replicas")
    right = run.number("l03-average-vs-mean", r"sum over replicas: compute_average_loss ([0-9.]+)")
    wrong = run.number("l03-average-vs-mean", r"sum over replicas: .*reduce_mean ([0-9.]+)")
    one_device = run.number("l03-average-vs-mean", r"one device, mean of all \d+ losses: ([0-9.]+)")
    assert abs(right - one_device) < 1e-6
    assert abs(wrong - _replicas(run) * one_device) < 1e-6


def test_on_a_real_batch_compute_average_loss_gives_the_one_device_gradients_and_reduce_mean_replicas_times(lesson):
    run = lesson(STEM)
    run.says("l03-average-vs-mean-after", "The same holds for a real model on a real batch.")
    right = run.number("l03-scaling-ratios",
                       r"compute_average_loss: gradient norm / single device = ([0-9.]+)")
    wrong = run.number("l03-scaling-ratios", r"reduce_mean: gradient norm / single device = ([0-9.]+)")
    assert abs(right - 1) < 1e-3 and abs(wrong - _replicas(run)) < 1e-3, (right, wrong)


def test_scale_regularization_loss_gives_the_one_device_gradients_and_an_unscaled_penalty_does_not(lesson):
    run = lesson(STEM)
    run.says("l03-regularisation-md", "After the sum, it would count once per replica. "
                                      "`tf.nn.scale_regularization_loss` divides it by the number of replicas.")
    scaled = run.number("l03-regularisation-ratios",
                        r"scale_regularization_loss: gradient norm / single device = ([0-9.]+)")
    unscaled = run.number("l03-regularisation-ratios",
                          r"unscaled penalty: gradient norm / single device = ([0-9.]+)")
    assert abs(scaled - 1) < 1e-3, scaled
    assert unscaled > 1.05, f"the large penalty should make the unscaled case visible: {unscaled}"


def test_an_activity_penalty_is_right_only_when_scaled_as_the_first_cell_measured(lesson):
    run = lesson(STEM)
    run.says("l03-penalties-after",
             "A penalty on activations you scale only when it is a per-example mean, "
             "which the first cell measured")
    is_mean = "-> a mean over the examples" in run.text("l03-activity-penalty-kind")
    right = re.search(r"right on Keras \S+: (.+?) \(gradient norm ratio ([0-9.]+)\); wrong: (.+?) "
                      r"\(ratio ([0-9.]+)\)", run.text("l03-activity-ratios"))
    assert right, run.text("l03-activity-ratios")
    assert right[1] == ("scale_regularization_loss" if is_mean else "added as is")
    assert abs(float(right[2]) - 1) < 1e-3 and abs(float(right[4]) - 1) > 1e-2, right.group(0)


def test_the_default_keras_reduction_is_right_summed_over_replicas_and_divided_by_them_in_the_scope(lesson):
    run = lesson(STEM)
    run.says("l03-keras-default-after",
             "the loss called in the scope, outside `strategy.run`, is the true loss "
             "divided by the number of replicas.")
    summed = run.number("l03-keras-default-ratio", r"sum over replicas / one-device loss = ([0-9.]+)")
    in_scope = run.number("l03-keras-default-ratio",
                          r"called in strategy.scope\(\) / one-device loss = ([0-9.]+)")
    assert abs(summed - 1) < 1e-3 and abs(in_scope * _replicas(run) - 1) < 1e-3, (summed, in_scope)


def test_the_three_denominators_agree_on_full_batches_and_only_actual_is_the_short_batchs_mean(lesson):
    run = lesson(STEM)
    run.says("l03-denominators-after",
             "On full batches the three agree. On the short batch they differ")
    rows = re.findall(r"split \[([\d, ]+)\]\s+fixed ([0-9.]+)\s+default ([0-9.]+)\s+actual ([0-9.]+)"
                      r"\s+\(true mean ([0-9.]+)\)", run.text("l03-three-denominators"))
    assert len(rows) >= 2, run.text("l03-three-denominators")
    for split, *values in rows:
        fixed, default, actual, mean = map(float, values)
        sizes = [int(s) for s in split.split(",")]
        assert abs(actual - mean) < 1e-6
        if len(set(sizes)) == 1:
            assert fixed == default == actual == mean
        else:
            assert abs(default - mean) > 1e-3 and abs(fixed - mean) > 1e-3


def test_summing_pixel_losses_grows_with_the_image_and_averaging_per_example_first_does_not(lesson):
    run = lesson(STEM)
    run.says("l03-denominators-after",
             "`compute_average_loss` sums *everything* and divides by the batch, so the "
             "loss grows with the image size. Average over the pixels of each example "
             "first, then scale as usual.")
    naive = run.number("l03-per-pixel-loss", r"summed pixels / one-device mean = ([0-9.]+)")
    height, width = (int(v) for v in re.search(r"the (\d+)x(\d+) pixels",
                                               run.text("l03-per-pixel-loss")).groups())
    right = run.number("l03-per-pixel-loss", r"averaged per example / one-device mean = ([0-9.]+)")
    assert abs(naive - height * width) < 1e-3 and abs(right - 1) < 1e-3


def test_a_mean_of_scaled_losses_reports_the_loss_divided_by_the_replicas_and_the_figure_agrees(lesson):
    run = lesson(STEM)
    run.says("l03-metric-pitfall-after",
             "so it reports the true mean divided by the number of replicas: half of it "
             "on two replicas.")
    loss = run.number("l03-metric-pitfall", r"training loss, strategy.reduce\(SUM\): ([0-9.]+)")
    of_scaled = run.number("l03-metric-pitfall", r"Mean metric fed the scaled losses:\s+([0-9.]+)")
    of_examples = run.number("l03-metric-pitfall", r"Mean metric fed per-example losses:\s+([0-9.]+)")
    assert abs(of_scaled * _replicas(run) - loss) < 1e-6 and abs(of_examples - loss) < 1e-6
    run.says("l03-metric-pitfall-after",
             "`loss_scaling.metric_pitfall` computes the same numbers for the figure")
    figure = run.text("l03-metric-pitfall-figure")
    assert f"training loss {loss:g}" in figure and f"scaled losses reports {of_scaled:g}" in figure, figure


def test_only_the_plain_tf_function_traces_again_for_the_short_batch(lesson):
    run = lesson(STEM)
    run.says("l34-trace-after", "The plain function traced once for the full batches and once more "
                                "for the short one. The signature with a `None` batch traced once. "
                                "`drop_remainder=True` traced once too")
    text = run.text("l34-trace-code")
    assert re.search(r"plain tf.function: global batches \[[\d, ]+\] -> traced 2x", text), text
    assert re.search(r"input_signature from element_spec: .* -> traced 1x", text), text
    assert re.search(r"drop_remainder=True: .* -> traced 1x", text), text


def test_the_training_step_traces_a_second_time_for_the_short_last_batch(lesson):
    run = lesson(STEM)
    run.says("l34-trace-md", "so a step traces a second time at the end of the first epoch")
    text = run.text("l34-train-traces")
    traced = int(run.number("l34-train-traces", r"traced (\d+)x"))
    assert traced == (2 if "a short one of" in text else 1), text


def test_a_short_last_batch_makes_the_mean_step_loss_a_little_lower_than_the_loss_metric(lesson):
    run = lesson(STEM)
    run.says("l03-train-epochs-after",
             "A short last batch returns a smaller step loss (the fixed denominator), "
             "so then the mean step loss comes out a little lower.")
    epochs = re.findall(r"mean step loss ([0-9.]+), loss ([0-9.]+)", run.text("l03-train-epochs"))
    assert epochs and "a short one of" in run.text("l34-train-traces")
    for step_loss, metric in ((float(a), float(b)) for a, b in epochs):
        assert step_loss < metric and metric - step_loss < 0.01 * metric, (step_loss, metric)


def test_reduce_and_gather_count_the_same_correct_predictions(lesson):
    run = lesson(STEM)
    run.says("l03-train-epochs-after",
             "`strategy.gather(value, axis=0)` concatenates them along an axis")
    match = re.search(r"correct per replica \[([\d, ]+)\], total (\d+) of (\d+)\n"
                      r"gather: predictions of shape \((\d+),\), (\d+) correct",
                      run.text("l03-reduce-gather"))
    assert match, run.text("l03-reduce-gather")
    per_replica = [int(v) for v in match[1].split(",")]
    assert sum(per_replica) == int(match[2]) == int(match[5]) and int(match[3]) == int(match[4])


def test_the_graph_evaluation_loop_runs_every_test_batch(lesson):
    run = lesson(STEM)
    run.says("l03-optional-eval-md", "This evaluation loop runs in one graph until the data ends.")
    batches = run.number("l03-optional-eval", r"(\d+) test batches")
    num_test = int(run.number("l03-imports-data", r"/ (\d+) test"))
    global_batch = int(run.number("l03-global-batch", r"global batch of (\d+)"))
    assert batches == math.ceil(num_test / global_batch)


def test_a_checkpoint_restores_the_step_count_and_the_predictions_with_and_without_a_strategy(lesson):
    run = lesson(STEM)
    run.says("l03-restore-scope-md",
             "The step counter comes back with the optimizer, and the predictions match "
             "the trained model.")
    saved = run.number("l03-checkpoint-save", r"after (\d+) steps")
    restored = run.number("l03-restore-scope", r"optimizer step (\d+)")
    trained = run.number("l03-restore-scope", r"the trained one's: (\d+)")
    assert saved == restored == trained
    assert run.number("l03-restore-scope", r"largest difference in the predictions ([0-9.e+-]+)") < 1e-5
    run.says("l03-restore-plain-md", "The model built outside any scope has ordinary variables.")
    assert "restored model: ResourceVariable" in run.text("l03-restore-plain-vars")
    assert run.number("l03-restore-plain", r"largest difference in the predictions ([0-9.e+-]+)") < 1e-5
    assert "/tmp" not in run.text("l03-checkpoint-save")


def test_your_loop_and_the_reference_loop_report_the_same_first_epoch_loss(lesson):
    run = lesson(STEM)
    run.says("l03-reference-loop-md",
             "If your loop follows the rules, the two report the same loss.")
    ours = run.number("l03-reference-loop", r"your loop:\s+loss ([0-9.]+)")
    theirs = run.number("l03-reference-loop", r"training.CustomLoop: loss ([0-9.]+)")
    assert abs(ours - theirs) <= 1e-3 * theirs, (ours, theirs)


def test_the_loss_scale_lifts_small_float16_gradients_and_overflows_a_large_one(lesson):
    run = lesson(STEM)
    run.says("l34-mixed-how", "Without the scale, 1e-8 becomes 0 and 1e-6 keeps only a few bits. "
                              "With it, both come back.")
    found = re.findall(r"^\s*(\S+) in float16: (\S+)\s+scaled by 2\^15 in float16, unscaled in "
                       r"float32:\s+(\S+)$", run.text("l34-float16"), re.M)
    rows = {value: (half, back) for value, half, back in found}
    assert float(rows["1e-08"][0]) == 0 and abs(float(rows["1e-08"][1]) - 1e-8) < 1e-2 * 1e-8
    assert abs(float(rows["1e-06"][1]) - 1e-6) < 1e-3 * 1e-6 < abs(float(rows["1e-06"][0]) - 1e-6)
    run.says("l34-mixed-how", "a large gradient times the scale overflows to inf (the first row)")
    assert rows["10"][1] == "inf"


def test_a_mixed_precision_step_on_the_replicas_matches_one_device_up_to_float16_rounding(lesson):
    run = lesson(STEM)
    run.says("l03-mixed-step-md",
             "If the loss scale and the global-batch division are right, both move the "
             "weights the same way, up to float16 rounding.")
    replicas_loss = run.number("l03-mixed-step", r"loss: ([0-9.]+) on \d+ replicas")
    one_device_loss = run.number("l03-mixed-step", r"([0-9.]+) on one device")
    moved = run.number("l03-mixed-step", r"largest weight change in the step: ([0-9.e+-]+);")
    apart = run.number("l03-mixed-step", r"largest difference from one device: ([0-9.e+-]+)")
    assert abs(replicas_loss - one_device_loss) < 1e-2 and apart < 0.01 * moved, (moved, apart)
    assert "global policy after the cell: float32" in run.text("l03-mixed-policy")
    run.says("l03-mixed-step-after", "The scale stays put while gradients are finite")
    initial = run.number("l03-mixed-policy", r"initial loss scale ([0-9.]+)")
    assert run.number("l03-mixed-step", r"loss scale now ([0-9.]+)") == initial
