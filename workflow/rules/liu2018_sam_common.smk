# Helpers of workflow/rules/liu2018_sam.smk (functions and config slices only, no rules).

LIU2018_SAM = EXPERIMENTS["liu2018_sam"]
#: The samplers that run (experiments.liu2018_sam.run), each an entry of experiments.liu2018_sam.samplers.
LIU2018_SAM_RUN = LIU2018_SAM["run"]
_unknown_samplers = [name for name in LIU2018_SAM_RUN if name not in LIU2018_SAM["samplers"]]
if _unknown_samplers:
    raise WorkflowError(f"experiments.liu2018_sam.run names {', '.join(map(repr, _unknown_samplers))}, which "
                        f"experiments.liu2018_sam.samplers does not define (it has {', '.join(LIU2018_SAM['samplers'])})")


def liu2018_sam_particle_counts():
    """Fig. 2b's particle counts and Fig. 2a's, once each, ascending."""
    return sorted(set(LIU2018_SAM["particles"]) | {LIU2018_SAM["figure_particles"]})


def liu2018_sam_run_files(suffix, particles=None):
    """Every run record: method x particle count x seed (or one particle count)."""
    counts = liu2018_sam_particle_counts() if particles is None else [particles]
    return [f"results/liu2018_sam/{method}/n{n}/seed{seed}.{suffix}"
            for method in LIU2018_SAM_RUN for n in counts for seed in range(LIU2018_SAM["seeds"])]


SUMMARY_RECORDS["liu2018_sam"] = lambda: liu2018_sam_run_files("json")


def liu2018_sam_targets():
    """Fig. 2 (a and b) and its table (rule all)."""
    return ["figures/liu2018_fig2.pdf", "tables/liu2018_sam.tex", "reports/liu2018_reproduction.md"]
