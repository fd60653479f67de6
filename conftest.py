"""nbval settings for every notebook folder: TensorFlow's stderr chatter is not compared."""

# Broken notebooks on purpose: the grader's test fixtures, not lessons to run.
collect_ignore = ["tests/instructor/grading_fixtures"]


def pytest_collectstart(collector):
    if collector.fspath and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("stderr",)
