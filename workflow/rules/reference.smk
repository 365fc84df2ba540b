rule reference:
    input:
        case_files,
    output:
        json="results/references/{suite}/{case}/reference.json",
        h5="results/references/{suite}/{case}/reference.h5",
    log:
        "results/logs/reference/{suite}/{case}.log",
    resources:
        **execution_resources(scale=30),
    run:
        steps.reference(PLAN, wildcards, output, log)
