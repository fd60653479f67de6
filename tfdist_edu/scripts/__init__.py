"""Scripts the package runs as separate processes (see tfdist_edu.cluster, parameter_server)."""
