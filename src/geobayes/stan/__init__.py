"""Stan references: the library's models as one Stan program, and the installations that run it.

* :mod:`geobayes.stan.export` — a posterior as the data of ``embedding_model.stan`` (the same
  embedding x family x Gaussian prior decomposition as :mod:`geobayes.models`).
* :mod:`geobayes.stan.interfaces` — CmdStanPy where CmdStan is installed, else PyStan 3.
* :mod:`geobayes.stan.worker_client` — one build, sampling run or log-density evaluation in a
  process without JAX (:mod:`geobayes.stan.stan_worker`).
* :func:`geobayes.samplers.stan_nuts.run_stan_nuts` — the NUTS reference (Yu et al. 2024, Sec. 5).
"""
