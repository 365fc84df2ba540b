# SimCodeBench: LLM-written scientific-simulation code, judged on real solvers.
# Stages live in workflow/rules/; all logic lives in the simcodebench package.


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/reference.smk"
include: "workflow/rules/calibrate.smk"
include: "workflow/rules/ask.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/aggregate.smk"


rule all:
    default_target: True
    input:
        rules.aggregate.output,
