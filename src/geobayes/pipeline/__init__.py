"""Glue between the Snakemake scripts and the library: building posteriors from names and
files, choosing the device, and the shared parts of every step's JSON sidecar."""
