# geobayes: the reproduction DAG. This file is a table of contents; rules live in
# workflow/rules/, the science in src/geobayes/. `snakemake --cores N` runs paper scale;
# `make quick` runs config/quick.yaml.

from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/map.smk"
include: "workflow/rules/reference.smk"
include: "workflow/rules/approximate.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        "tables/logreg.tex",
        "tables/logreg_vs_paper.tex",
        "figures/logreg.pdf",
        "figures/logreg.png",
