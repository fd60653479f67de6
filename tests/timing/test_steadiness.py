"""The steadiness probe: windows of equal length, and a reading that names which probe slowed."""
from tfdist_edu import steadiness


def test_a_short_probe_times_both_computations_in_one_second_windows():
    cache, memory = steadiness.probe(2)
    assert cache.name == "cache-resident probe" and memory.name == "memory-bound probe"
    assert len(cache.window_work) == len(memory.window_work) == 2
    assert min(cache.window_work) > 0 and min(memory.window_work) > 0


def test_a_window_over_10_percent_slower_than_the_median_counts_as_slow():
    probe = steadiness.Probe("memory-bound probe", [100, 100, 100, 90, 80])
    assert [round(s, 2) for s in probe.slowdowns] == [1.0, 1.0, 1.0, 1.11, 1.25]
    assert probe.slow_windows == 2 and not probe.steady


def test_the_sentence_blames_memory_only_when_the_cache_probe_stayed_steady():
    steady = steadiness.Probe("cache-resident probe", [10] * 4)
    slowed = steadiness.Probe("memory-bound probe", [10, 7, 10, 10])
    assert "Only the memory-bound probe slowed" in steadiness.sentence([steady, slowed])
    assert "the processor itself was taken away" in steadiness.sentence([slowed, slowed])
    assert "Both ran steadily" in steadiness.sentence([steady, steady])


def test_the_memory_rate_is_a_positive_rate_in_gigabytes_per_second():
    assert 0.1 < steadiness.Work().memory_rate(0.1) < 1000
