# Helpers of workflow/rules/wrapped_gaussian.smk (included by common.smk): Hartmann et al. (2026),
# the closed-form wrapped Gaussian experiments. Functions only (no rules).

GLM = EXPERIMENTS["glm"]


HARTMANN_TIMED = [p for e in WG_TIMING["experiments"] for p in experiment_posteriors(e)]


def hartmann_data_file(wildcards):
    """Raw registered file of a prepared Hartmann data set."""
    return f"data/raw/{EXPERIMENTS['growth']['file']}"


def contour_inputs(posteriors):
    """Data, MAP and reference files of the posteriors of a contour figure."""
    def inputs(wildcards):
        files = {}
        for p in posteriors():
            files[f"map_{p}"] = f"results/map/{p}/{EXPERIMENTS[experiment_of(p)]['anchors'][0]}.npz"
            files[f"reference_{p}"] = f"results/reference/{p}/{reference_kind(p)}.npz"
            data = posterior_data_file(p)
            if data is not None:
                files[f"data_{p}"] = data
        return files
    return inputs


def synthetic_posteriors():
    """Posteriors of Fig. 1 (every n x family)."""
    return experiment_posteriors("synthetic")


def shape_posteriors():
    """Posteriors of Fig. 3: squiggle (Hartmann setting), Rosenbrock, funnel, Gaussian linear model."""
    return ["hartmann-squiggle", "hartmann-rosenbrock", "neal-funnel", "hartmann-lingauss"]


def scatter_posterior(figure):
    """The posterior of Fig. 2 (usps) or Fig. 4 (growth)."""
    return usps_posterior() if figure == "usps" else "sharp2022-growth"


def wg_timing_files():
    """WG vs LA vs RLA-F vs NUTS timings of every posterior of wg_timing.experiments."""
    return expand("results/timing_wg/{posterior}.json", posterior=HARTMANN_TIMED)


def hartmann_targets():
    """Tables, figures and the report of Hartmann et al. (2026) (its tables: reports.hartmann2026
    of tables.yaml)."""
    tables = [f"tables/{name}.tex" for name in REPORTS["hartmann2026"]["tables"]]
    return tables + ["figures/wg_synthetic.pdf", "figures/wg_shapes.pdf", "figures/wg_usps.pdf",
                     "figures/wg_growth.pdf", "reports/hartmann2026_reproduction.md"]
