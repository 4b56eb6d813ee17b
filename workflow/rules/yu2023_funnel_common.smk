# Helpers of workflow/rules/yu2023_funnel.smk (functions and config slices only, no rules).

YU2023_FUNNEL = EXPERIMENTS["yu2023_funnel"]


def yu2023_funnel_records():
    """Every chain record: sampler x repetition."""
    return expand("results/yu2023_funnel/chain/{sampler}/rep{repetition}.json",
                  sampler=list(YU2023_FUNNEL["samplers"]), repetition=range(YU2023_FUNNEL["repetitions"]))


SUMMARY_RECORDS["yu2023_funnel"] = yu2023_funnel_records


def yu2023_funnel_targets():
    """Its table and Figs. 1 and 2 (rule all)."""
    return ["tables/yu2023_funnel.tex", "figures/yu2023_funnel_geodesics.pdf", "figures/yu2023_funnel_samples.pdf"]
