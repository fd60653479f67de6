"""Tests for tfdist_edu.supervisor: what a student sees of a child process's output."""




from tfdist_edu import supervisor


def test_log_filter_hides_tensorflow_start_up_noise_but_keeps_errors_and_prints():
    assert supervisor.is_log_noise(
        "I0000 00:00:1795315692.067195   11182 cudart_stub.cc:31] Could not find cuda"
    )
    assert supervisor.is_log_noise(
        "E0000 00:00:17.2   11 cuda_platform.cc:52] failed call to cuInit: INTERNAL"
    )
    assert supervisor.is_log_noise(
        "WARNING: All log messages before absl::InitializeLog() is called are written"
    )
    assert not supervisor.is_log_noise(
        "E0000 00:00:17.2   11 grpc_server_lib.cc:618] UNKNOWN: Could not start gRPC server"
    )
    assert not supervisor.is_log_noise("epoch 1/3: loss 1.49")
