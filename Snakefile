# geobayes: the reproduction DAG. This file is a table of contents; rules live in
# workflow/rules/, the science in src/geobayes/. `snakemake --cores N` runs paper scale;
# `make quick` runs config/quick.yaml.

from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version

from geobayes.config import ConfigError, load_schema, validate_config

min_version("9.0")


# Anchored to this file so the DAG also runs with --directory elsewhere (tests do).
configfile: str(Path(workflow.basedir) / "config" / "config.yaml")


# The schema ships inside the package (geobayes.config.SCHEMA_PATH); validation fills the defaults
# and a problem stops the run before any job with one line per key (its dotted path, the close
# match of a typo, the allowed keys or values), not a dump of the schema and the config.
try:
    validate_config(config, load_schema(), source="config/config.yaml + --configfile/--config")
except ConfigError as error:
    raise WorkflowError(str(error)) from None


include: "workflow/rules/scheduler.smk"
include: "workflow/rules/progress.smk"
include: "workflow/rules/common.smk"
include: "workflow/rules/approximation_common.smk"
include: "workflow/rules/warm_start.smk"
include: "workflow/rules/cpu_slots.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/map.smk"
include: "workflow/rules/reference.smk"
include: "workflow/rules/approximate.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/floor.smk"
include: "workflow/rules/reference_crosscheck.smk"
include: "workflow/rules/timing.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/wrapped_gaussian.smk"
include: "workflow/rules/networks.smk"
include: "workflow/rules/bnn_scalability.smk"
include: "workflow/rules/bnn_classifier.smk"
include: "workflow/rules/bnn_hartmann_maps.smk"
include: "workflow/rules/classifiers.smk"
include: "workflow/rules/yu2023_funnel.smk"
include: "workflow/rules/yu2023_classifiers.smk"
include: "workflow/rules/liu2018_blr.smk"
include: "workflow/rules/liu2018_sam.smk"


rule all:
    default_target: True
    input:
        final_targets(),
        hartmann_targets(),
        bnn_targets(),
        bnn_scalability_targets(),
        bnn_classifier_targets(),
        bnn_hartmann_maps_targets(),
        classifier_targets(),
        yu2023_funnel_targets(),
        yu2023_classifier_targets(),
        liu2018_blr_targets(),
        liu2018_sam_targets(),
