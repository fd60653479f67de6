"""Tests for tfdist_edu.hardware.report: the report's summary line and its tables."""

from tfdist_edu import hardware


def make_report(**changes):
    fields = dict(
        platform="local", python="3.11.7", tensorflow="2.21.0", keras="3.15.1", tpu=None,
        gpus=[], cpu_cores=2, logical_devices=["/device:CPU:0", "/device:CPU:1"],
        simulated=True, runtime_started=True,
    )
    return hardware.HardwareReport(**{**fields, **changes})


def test_summary_labels_simulated_cpus():
    expected = "2 CPU cores, 2 logical CPU devices (simulated), no GPU, no TPU"
    assert make_report().summary() == expected


def test_summary_labels_split_gpu_and_tpu():
    gpu = hardware.GPUInfo("NVIDIA T4", "7.5", memory_limits_mb=[1024, 1024])
    report = make_report(
        gpus=[gpu], tpu="8 TPU cores",
        logical_devices=["/device:CPU:0", "/device:GPU:0", "/device:GPU:1"],
    )
    assert report.summary() == (
        "2 CPU cores, 1 logical CPU device, 1 GPU (NVIDIA T4) as 2 logical GPUs (simulated), "
        "TPU: 8 TPU cores"
    )
    assert str(gpu) == (
        "NVIDIA T4, compute capability 7.5, split into 2 logical GPUs of 1024 MB, 1024 MB"
    )


def test_report_renders_as_text_and_escaped_html_tables():
    report = make_report(notes=["a <note>"])
    text = str(report).splitlines()
    assert text[0].split() == ["Platform", "local"]
    assert "Logical devices" in text[7] and text[7].endswith("(simulated)")
    assert text[-1].split(None, 1) == ["Note", "a <note>"]
    page = report._repr_html_()
    assert page.startswith("<table>") and page.count("<tr>") == len(text)
    assert "a &lt;note&gt;" in page and report.summary() in page
