"""Is one arm faster than another? A verdict from paired repeats, decided as benchmark tools do.

Each pair is two timings taken back to back (``timing.alternate``, or one round of the tour), so
a stretch that slows the machine slows both, and their ratio keeps only the difference between
the arms. The verdict rests on a 95% confidence interval of the typical ratio, which narrows as
pairs are added (the spread of single pairs does not):

- the estimate is the Hodges-Lehmann median of the log ratios (the median of all pairwise
  averages), and the interval is the Wilcoxon signed-rank interval around it, what R's
  ``wilcox.test(conf.int=TRUE)`` gives: distribution-free, and a few wild pairs move it little;
- a noise threshold (5% unless said) as in criterion.rs: an interval wholly inside
  1/1.05x .. 1.05x reads "within 5%", a difference too small to matter here.

Four answers: faster, slower (the interval lies wholly above or below 1), within the threshold,
and undecided (the interval reaches 1 and beyond the threshold), with how many more pairs
would likely decide it. Google Benchmark's compare.py (U test), asv (U test and a factor) and
pyperf (t-test and ``--min-speed``) decide the same way: a test of the difference, then a size.
"""

import dataclasses
import math
import statistics

LEVEL = 0.95
THRESHOLD = 0.05
FASTER, SLOWER, WITHIN, UNDECIDED = "faster", "slower", "within", "undecided"
HOW_TO_READ = ("How to read a verdict: the 95% interval is the range of typical ratios these "
               "pairs leave plausible; it narrows as pairs are added. Faster or slower when it "
               "lies wholly above or below 1.00x, within the threshold when it lies inside it, "
               "undecided otherwise.")


def _exact_lower_tail(n):
    """P(T <= k) for Wilcoxon's signed-rank statistic T with n pairs, k = 0 .. n(n+1)/2."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for rank in range(1, n + 1):
        for total in range(len(counts) - 1, rank - 1, -1):
            counts[total] += counts[total - rank]
    tail, running = [], 0
    for count in counts:
        running += count
        tail.append(running / 2 ** n)
    return tail


def _rank_cut(n, level=LEVEL):
    """How many pairwise averages to drop at each end for a ``level`` interval; None when n
    pairs are too few to reach that level (fewer than 6 for 95%)."""
    alpha = (1 - level) / 2
    if n <= 50:
        tail = _exact_lower_tail(n)
        cut = sum(1 for p in tail if p <= alpha)  # T <= cut - 1 has probability <= alpha
    else:  # the normal approximation, as R uses above 50 pairs
        z = statistics.NormalDist().inv_cdf(1 - alpha)
        cut = math.floor(n * (n + 1) / 4 - z * math.sqrt(n * (n + 1) * (2 * n + 1) / 24))
    return cut if cut >= 1 else None


def interval(ratios, level=LEVEL):
    """(estimate, low, high) of the typical ratio: Hodges-Lehmann and the Wilcoxon interval,
    computed on the log ratios. With too few pairs for ``level``, low and high are None."""
    logs = [math.log(r) for r in ratios]
    walsh = sorted((a + b) / 2 for i, a in enumerate(logs) for b in logs[i:])
    estimate = math.exp(statistics.median(walsh))
    cut = _rank_cut(len(logs), level)
    if cut is None:
        return estimate, None, None
    return estimate, math.exp(walsh[cut - 1]), math.exp(walsh[len(walsh) - cut])


@dataclasses.dataclass(frozen=True)
class Paired:
    """``other``'s speed relative to ``baseline``'s from paired repeats (>1: ``other`` is faster).

    Each ratio is baseline seconds / other seconds of one pair measured back to back.
    ``median`` is the typical ratio and ``low``..``high`` its 95% interval.
    """

    what: str
    ratios: tuple
    threshold: float = THRESHOLD

    @property
    def median(self):
        return interval(self.ratios)[0] if self.ratios else float("nan")

    @property
    def low(self):
        return self._bounds()[0]

    @property
    def high(self):
        return self._bounds()[1]

    def _bounds(self):
        if not self.ratios:
            return float("nan"), float("nan")
        _, low, high = interval(self.ratios)
        if low is None:  # too few pairs for an interval: the whole range of the ratios
            return min(self.ratios), max(self.ratios)
        return low, high

    @property
    def decided(self):
        return len(self.ratios) >= 6

    @property
    def verdict(self):
        """FASTER, SLOWER, WITHIN (the threshold) or UNDECIDED."""
        if not self.decided:
            return UNDECIDED
        low, high = self._bounds()
        if 1 / (1 + self.threshold) <= low and high <= 1 + self.threshold:
            return WITHIN
        if low > 1:
            return FASTER
        if high < 1:
            return SLOWER
        return UNDECIDED

    @property
    def too_spread(self):
        """Undecided with an interval wider than the whole threshold band (1/1.05x-1.05x):
        these pairs could not have read "within" wherever the typical ratio lay. A narrower
        undecided interval is not noise: the difference sits close to the threshold."""
        if self.verdict != UNDECIDED:
            return False
        if not self.decided:
            return True
        low, high = self._bounds()
        return math.log(high / low) > 2 * math.log(1 + self.threshold)

    def pairs_to_decide(self):
        """Roughly how many pairs in all would likely decide an undecided comparison (the
        interval narrows as one over the square root of the pairs), or None when it is decided
        or far out of reach (over 1,000 pairs)."""
        if self.verdict != UNDECIDED:
            return None
        n = len(self.ratios)
        low, high = self._bounds()
        half = (math.log(high) - math.log(low)) / 2
        centre = abs(math.log(self.median))
        needs = []
        if centre > 0:  # narrow enough to leave 1 out
            needs.append(n * (half / centre) ** 2)
        room = math.log(1 + self.threshold) - centre
        if room > 0:  # narrow enough to fit inside the threshold
            needs.append(n * (half / room) ** 2)
        total = max(math.ceil(min(needs, default=math.inf)), 6, n + 1)
        return total if total <= 1000 else None

    @property
    def interval_text(self):
        if not self.decided:
            return (f"{self.median:.2f}x; {len(self.ratios)} pairs are too few for a 95% "
                    f"interval, which needs 6")
        return f"{self.median:.2f}x, 95% interval {self.low:.2f}x-{self.high:.2f}x, {len(self.ratios)} pairs"

    def sentence(self):
        """The verdict in words, without the "what: "."""
        change = abs(self.median - 1)
        if self.verdict == FASTER:
            return f"faster by {change:.0%} ({self.interval_text})."
        if self.verdict == SLOWER:
            return f"slower by {change:.0%} ({self.interval_text})."
        if self.verdict == WITHIN:
            return (f"within {self.threshold:.0%} ({self.interval_text}): no difference that "
                    f"matters at this threshold.")
        more = self.pairs_to_decide()
        hint = (f"about {more} pairs in all would likely decide it" if more
                else "the difference, if any, is too close to the threshold to decide")
        return f"undecided ({self.interval_text}); {hint}."

    def __str__(self):
        return f"{self.what}: {self.sentence()}"


def paired(baseline_seconds, other_seconds, what="other vs baseline", threshold=THRESHOLD):
    """Compare two lists of times measured in pairs (the i-th of each back to back)."""
    if len(baseline_seconds) != len(other_seconds):
        raise ValueError(f"paired times need equal counts, got {len(baseline_seconds)} "
                         f"and {len(other_seconds)}")
    if any(t <= 0 for t in (*baseline_seconds, *other_seconds)):
        raise ValueError("paired times must be positive seconds")
    return Paired(what, tuple(b / o for b, o in zip(baseline_seconds, other_seconds)), threshold)
