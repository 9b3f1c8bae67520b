"""Running many claims: loading claim files by path, one session (alpha accounting, exit policy, order),
executors (xdist through the pytest plugin, Dask), staging, experiments and seed replication."""
