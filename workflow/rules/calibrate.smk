rule calibration:
    input:
        case_files,
        ref_json="results/references/{suite}/{case}/reference.json",
        ref_h5="results/references/{suite}/{case}/reference.h5",
    output:
        "results/calibration/{suite}/{case}.json",
    log:
        "results/logs/calibration/{suite}/{case}.log",
    resources:
        **execution_resources(scale=6),
    run:
        steps.calibration(PLAN, wildcards, input, output, resources, log)


rule calibrate:
    input:
        PLAN.calibration_targets(),
