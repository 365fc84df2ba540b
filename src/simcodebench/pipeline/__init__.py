"""The pipeline: one module per Snakemake rule (reference, calibrate, ask, evaluate, aggregate), named like its
``workflow/rules/<rule>.smk``, with the plan the rules expand and the helpers of those stages."""
