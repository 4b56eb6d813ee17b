"""geobayes: geometric posterior approximations in JAX.

Importing the package switches JAX to float64 (``jax_enable_x64``): every computation of
the library is double precision (the papers' JAX code ran in float32; see
``docs/deviations.md``).
"""

import jax

jax.config.update("jax_enable_x64", True)

__version__ = "0.1.0"
