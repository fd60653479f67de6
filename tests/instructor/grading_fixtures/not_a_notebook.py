# A student pasted their answers into a script instead of submitting the notebook.
def global_batch_size(strategy, per_replica_batch):
    return per_replica_batch * strategy.num_replicas_in_sync
