"""A fast check that the internet is there, so TFDS never starts a download it cannot finish.

Offline, ``tfds.load(..., download=True)`` retries for about 200 seconds before failing.
"""

import socket
import ssl
import threading

# TFDS keeps its prepared datasets here; if a TLS handshake with it succeeds, downloads work.
PROBE_HOST = "storage.googleapis.com"
PROBE_TIMEOUT = 2.0  # seconds


def available(host=None, port=443, timeout=PROBE_TIMEOUT):
    """Return True when a TLS handshake with ``host`` (default ``PROBE_HOST``) succeeds.

    The whole check, name lookup included, takes at most ``timeout`` seconds. A handshake
    with a verified certificate, not just an open TCP port, shows the internet is really there
    (some sandboxes accept every connection).
    """
    host = host or PROBE_HOST
    reached = []

    def probe():
        try:
            with socket.create_connection((host, port), timeout=timeout) as connection:
                with ssl.create_default_context().wrap_socket(connection, server_hostname=host):
                    reached.append(True)
        except OSError:  # includes DNS failures, timeouts and certificate errors
            pass

    # A daemon thread bounds the name lookup too, which socket timeouts do not cover.
    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout)
    return bool(reached)
