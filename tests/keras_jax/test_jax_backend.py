"""tfdist_edu.keras_jax.backend: a machine without JAX gets one line before any work, and the
flags a lesson sets before JAX starts give it the devices asked for."""

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from tfdist_edu import keras_jax

HAS_JAX = importlib.util.find_spec("jax") is not None


def _python(code, env=None):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **(env or {})})


def test_without_jax_the_lesson_stops_in_one_line_that_says_how_to_install_it_before_any_work():
    # sys.modules["jax"] = None makes this interpreter behave as one without JAX installed.
    proc = _python("""
        import sys
        sys.modules["jax"] = None
        from tfdist_edu import keras_jax
        try:
            keras_jax.require_jax()
        except keras_jax.JaxMissingError as error:
            print(str(error))
        print("keras imported:", "keras" in sys.modules, "| jax imported:", sys.modules["jax"] is not None)
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    message, state = proc.stdout.strip().splitlines()
    assert "pip install 'jax[cpu]'" in message and "\n" not in message and "restart" in message
    assert state == "keras imported: False | jax imported: False", "nothing started before the message"


def test_with_jax_installed_require_jax_lets_the_lesson_go_on():
    if not HAS_JAX:
        pytest.skip("JAX is not installed here (pip install -e '.[jax]')")
    assert keras_jax.require_jax() is None


def test_the_device_flags_replace_earlier_ones_give_one_thread_per_device_and_keep_other_flags():
    flags = ("--xla_cpu_enable_fast_math=false --xla_force_host_platform_device_count=8 "
             "--xla_cpu_multi_thread_eigen=true")
    assert keras_jax.cpu_devices_flag(4, flags).startswith(
        "--xla_cpu_enable_fast_math=false --xla_force_host_platform_device_count=4 "
        "--xla_cpu_multi_thread_eigen=false")
    assert keras_jax.cpu_devices_flag(2, "").startswith(
        "--xla_force_host_platform_device_count=2 --xla_cpu_multi_thread_eigen=false")
    twice = keras_jax.cpu_devices_flag(2, keras_jax.cpu_devices_flag(2, ""))
    assert twice == keras_jax.cpu_devices_flag(2, ""), "applying it again changes nothing"
    for bad in (0, -1, 2.0, True, "4"):
        with pytest.raises(ValueError, match="positive integer"):
            keras_jax.cpu_devices_flag(bad, "")


def test_the_cpu_client_gets_two_threads_per_simulated_device_and_never_fewer_than_the_cores():
    assert keras_jax.cpu_client_threads(2, cores=2) == "4"
    assert keras_jax.cpu_client_threads(4, cores=2) == "8"
    assert keras_jax.cpu_client_threads(2, cores=16) == "16", "a machine with many cores keeps its default"
    assert int(keras_jax.cpu_client_threads(1)) >= 2
    for bad in (0, -1, 2.0, True, "4"):
        with pytest.raises(ValueError, match="positive integer"):
            keras_jax.cpu_client_threads(bad)


@pytest.mark.skipif(not HAS_JAX, reason="JAX is not installed here (pip install -e '.[jax]')")
def test_flags_set_before_jax_starts_give_keras_on_jax_with_that_many_cpu_devices():
    proc = _python("""
        import os
        from tfdist_edu import keras_jax
        os.environ["KERAS_BACKEND"] = "jax"
        os.environ["XLA_FLAGS"] = keras_jax.cpu_devices_flag(3)
        backend, devices, cpus = keras_jax.check_started(cpu_devices=3)
        print(backend, len(cpus))
    """, env={"JAX_PLATFORMS": "cpu"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["jax", "3"]


@pytest.mark.skipif(not HAS_JAX, reason="JAX is not installed here (pip install -e '.[jax]')")
def test_hundreds_of_queued_all_reduce_steps_over_two_devices_finish_with_the_lessons_threads():
    # What fit does: queue steps without waiting for them. With jaxlib 0.10.2 and PJRT_NPROC=2
    # (the default on 2 cores) this deadlocked at once: an all-reduce waited for its second
    # device until XLA's timeout (here past the 300 s this test waits).
    proc = _python("""
        import os
        from tfdist_edu import keras_jax
        os.environ["XLA_FLAGS"] = keras_jax.cpu_devices_flag(2)
        os.environ["PJRT_NPROC"] = keras_jax.cpu_client_threads(2)
        import jax, jax.numpy as jnp
        from jax.sharding import NamedSharding, PartitionSpec as P
        mesh = jax.sharding.Mesh(jax.devices(), ("batch",))
        x = jax.device_put(jnp.ones((128, 256)), NamedSharding(mesh, P("batch")))
        w = jax.device_put(jnp.full((256, 256), 1e-3), NamedSharding(mesh, P()))
        step = jax.jit(lambda w, x: (w - 1e-3 * jnp.mean(jnp.tanh(x @ w), axis=0)[None, :], w.sum()))
        losses = []
        for _ in range(400):
            w, loss = step(w, x)
            losses.append(loss)
        jax.block_until_ready(losses)
        print(len(jax.devices()), len(losses))
    """, env={"JAX_PLATFORMS": "cpu", "XLA_FLAGS": ""})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["2", "400"]


@pytest.mark.skipif(not HAS_JAX, reason="JAX is not installed here (pip install -e '.[jax]')")
def test_a_kernel_whose_jax_started_with_other_devices_is_told_to_restart():
    proc = _python("""
        import os
        os.environ["KERAS_BACKEND"] = "jax"
        import jax
        jax.devices()  # JAX starts with the default single CPU device
        from tfdist_edu import keras_jax
        os.environ["XLA_FLAGS"] = keras_jax.cpu_devices_flag(4)  # too late
        try:
            keras_jax.check_started(cpu_devices=4)
        except keras_jax.BackendError as error:
            print(error)
    """, env={"JAX_PLATFORMS": "cpu", "XLA_FLAGS": ""})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "JAX has 1 CPU device(s), not 4" in proc.stdout and "Restart the kernel" in proc.stdout


@pytest.mark.skipif(not HAS_JAX, reason="JAX is not installed here (pip install -e '.[jax]')")
def test_keras_imported_before_the_backend_was_chosen_is_told_to_restart():
    proc = _python("""
        import os
        os.environ.pop("KERAS_BACKEND", None)
        import keras  # the default backend, TensorFlow here
        from tfdist_edu import keras_jax
        os.environ["KERAS_BACKEND"] = "jax"
        try:
            keras_jax.check_started(cpu_devices=1)
        except keras_jax.BackendError as error:
            print(error)
    """, env={"JAX_PLATFORMS": "cpu"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Keras runs on tensorflow, not JAX" in proc.stdout
