"""nbval settings for every notebook folder: TensorFlow's stderr chatter is not compared."""


def pytest_collectstart(collector):
    if collector.fspath and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("stderr",)
