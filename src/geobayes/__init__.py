"""geobayes: geometric posterior approximations in JAX.

Importing the package switches JAX to float64 (``jax_enable_x64``): every computation of
the library is double precision (the papers' JAX code ran in float32; see
``docs/deviations.md``). JAX itself is not imported here: the pipeline's report, data and
download jobs never use it, and its import was a second of each of their starts
(``benchmarks/bench_job_imports.py``). If JAX is loaded already its configuration is
updated; otherwise ``JAX_ENABLE_X64``, which JAX reads when it is first imported, is set.
"""

import os
import sys

if "jax" in sys.modules:
    sys.modules["jax"].config.update("jax_enable_x64", True)
else:
    os.environ["JAX_ENABLE_X64"] = "1"

__version__ = "0.1.0"
